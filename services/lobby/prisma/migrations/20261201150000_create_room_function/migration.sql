-- rooms.create in one round trip (issue 15, item 7). The cap on rooms per host needs the count
-- taken *after* the host's user row is locked: a single statement reads one snapshot, taken before
-- it waited for a concurrent create of the same host, and would let both through. A VOLATILE
-- function takes a fresh snapshot for each of its statements, so the upsert (the lock) and the
-- count-and-insert run as two statements in one call, exactly as the transaction did before.
CREATE FUNCTION "lobby_create_room"(
    p_user TEXT,
    p_nickname TEXT,
    p_id TEXT,
    p_code TEXT,
    p_game TEXT,
    p_mode TEXT,
    p_options JSONB,
    p_private BOOLEAN,
    p_max_seats INTEGER,
    p_cap INTEGER
) RETURNS TABLE ("hosted" INTEGER, "hostName" TEXT, "createdMs" FLOAT8)
LANGUAGE sql VOLATILE
SET search_path FROM CURRENT
AS $$
    INSERT INTO "users" ("id", "nickname") VALUES (p_user, p_nickname)
    ON CONFLICT ("id") DO UPDATE SET "last_seen_at" = (now() AT TIME ZONE 'UTC');

    WITH "hosted" AS (SELECT count(*)::int AS "n" FROM "rooms" WHERE "host_id" = p_user),
    "room" AS (
        INSERT INTO "rooms" ("id", "code", "game", "mode", "options", "is_private", "host_id", "max_seats", "created_at", "updated_at")
        SELECT p_id, p_code, p_game, p_mode, p_options, p_private, p_user, p_max_seats,
               (now() AT TIME ZONE 'UTC'), (now() AT TIME ZONE 'UTC')
        FROM "hosted" WHERE "hosted"."n" < p_cap
        RETURNING "id", "created_at"
    ),
    "seat" AS (
        INSERT INTO "seats" ("room_id", "seat", "user_id", "joined_at")
        SELECT "id", 0, p_user, "created_at" FROM "room"
        RETURNING "room_id"
    )
    SELECT "hosted"."n",
           (SELECT "nickname" FROM "users" WHERE "id" = p_user),
           (SELECT (extract(epoch from "created_at") * 1000)::float8 FROM "room" WHERE EXISTS (SELECT 1 FROM "seat"))
    FROM "hosted";
$$;
