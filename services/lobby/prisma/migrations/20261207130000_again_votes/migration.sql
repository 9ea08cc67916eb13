-- 한 판 더 (issue 41): who in a room agreed to play its next game, per round (the room's games_played when
-- they agreed). One row per person and room; a newer round overwrites it, and the room's deletion removes it.
CREATE TABLE "again_votes" (
    "room_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "round" INTEGER NOT NULL,
    "bots" BOOLEAN NOT NULL DEFAULT false,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "again_votes_pkey" PRIMARY KEY ("room_id", "user_id")
);
ALTER TABLE "again_votes" ADD CONSTRAINT "again_votes_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE CASCADE ON UPDATE CASCADE;
