-- The room list reads public rooms newest first, and rooms.create counts the rooms a user hosts:
-- without these both scan every room (EXPLAIN ANALYZE in docs/architecture.md, lobby benchmark).
CREATE INDEX "rooms_is_private_created_at_idx" ON "rooms"("is_private", "created_at" DESC);
CREATE INDEX "rooms_host_id_idx" ON "rooms"("host_id");
-- Seats and spectators by user (the foreign keys to users, and "which rooms is this user in").
CREATE INDEX "seats_user_id_idx" ON "seats"("user_id");
CREATE INDEX "spectators_user_id_idx" ON "spectators"("user_id");
