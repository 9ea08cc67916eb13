-- 복기 links: a public game's record is readable by anyone with its id, a private room's only by its
-- members. Rooms come and go, so the game keeps whether its room was private. Older games take their
-- room's flag; a game whose room is gone is treated as private (fail closed), a quick match (no room) as public.
ALTER TABLE "games" ADD COLUMN "is_private" BOOLEAN NOT NULL DEFAULT false;
UPDATE "games" g SET "is_private" = COALESCE(
  (SELECT r."is_private" FROM "rooms" r WHERE r."id" = g."lobby_room_id"),
  g."lobby_room_id" IS NOT NULL
);
