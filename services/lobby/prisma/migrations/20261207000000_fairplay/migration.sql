-- Fair-play totals (engine/src/fairplay/stats.ts), kept up to date as finished poker games are stored
-- (services/lobby/src/fairplay/store.ts). Every column is a sum over hands: a game adds to it once, in the
-- transaction that stores the game. Bots are never counted (they have no account).
CREATE TABLE "fairplay_pairs" (
    "a"                 TEXT NOT NULL,
    "b"                 TEXT NOT NULL,
    "hands"             INTEGER NOT NULL DEFAULT 0,
    "games"             INTEGER NOT NULL DEFAULT 0,
    "chips_a_from_b"    DOUBLE PRECISION NOT NULL DEFAULT 0,
    "a_facing_b"        INTEGER NOT NULL DEFAULT 0,
    "a_raised_b"        INTEGER NOT NULL DEFAULT 0,
    "a_strong_facing_b" INTEGER NOT NULL DEFAULT 0,
    "a_strong_folds_b"  INTEGER NOT NULL DEFAULT 0,
    "b_facing_a"        INTEGER NOT NULL DEFAULT 0,
    "b_raised_a"        INTEGER NOT NULL DEFAULT 0,
    "b_strong_facing_a" INTEGER NOT NULL DEFAULT 0,
    "b_strong_folds_a"  INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "fairplay_pairs_pkey" PRIMARY KEY ("a", "b")
);

CREATE TABLE "fairplay_accounts" (
    "player"          TEXT NOT NULL,
    "games"           INTEGER NOT NULL DEFAULT 0,
    "hands"           INTEGER NOT NULL DEFAULT 0,
    "facing"          INTEGER NOT NULL DEFAULT 0,
    "raised"          INTEGER NOT NULL DEFAULT 0,
    "strong_facing"   INTEGER NOT NULL DEFAULT 0,
    "strong_folds"    INTEGER NOT NULL DEFAULT 0,
    "strong_faced_by" INTEGER NOT NULL DEFAULT 0,
    "strong_folded_to" INTEGER NOT NULL DEFAULT 0,
    "net_units"       DOUBLE PRECISION NOT NULL DEFAULT 0,
    "net_units_sq"    DOUBLE PRECISION NOT NULL DEFAULT 0,
    "think_count"     INTEGER NOT NULL DEFAULT 0,
    "think_sum_ms"    DOUBLE PRECISION NOT NULL DEFAULT 0,
    "think_sum_sq_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    -- Think-time histogram, buckets ≤0.5 s, ≤1, ≤2, ≤4, ≤8, ≤16, ≤32 s, above (THINK_BUCKETS_MS).
    "think_h0" INTEGER NOT NULL DEFAULT 0,
    "think_h1" INTEGER NOT NULL DEFAULT 0,
    "think_h2" INTEGER NOT NULL DEFAULT 0,
    "think_h3" INTEGER NOT NULL DEFAULT 0,
    "think_h4" INTEGER NOT NULL DEFAULT 0,
    "think_h5" INTEGER NOT NULL DEFAULT 0,
    "think_h6" INTEGER NOT NULL DEFAULT 0,
    "think_h7" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "fairplay_accounts_pkey" PRIMARY KEY ("player")
);

-- The hands behind a pair's totals: strong hands one folded to the other, big pots one won off the other.
CREATE TABLE "fairplay_evidence" (
    "game_id" TEXT NOT NULL,
    "a"       TEXT NOT NULL,
    "b"       TEXT NOT NULL,
    "hand_no" INTEGER NOT NULL,
    "kind"    TEXT NOT NULL,
    "chips"   INTEGER NOT NULL,
    CONSTRAINT "fairplay_evidence_pkey" PRIMARY KEY ("a", "b", "game_id", "hand_no", "kind"),
    CONSTRAINT "fairplay_evidence_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE
);
CREATE INDEX "fairplay_evidence_game_id_idx" ON "fairplay_evidence"("game_id");

-- Pairs and accounts the rules flagged: `subject` is `pair:<a>|<b>` or `account:<id>`; `active` turns off
-- when later totals no longer support the flag (the row stays, for the record).
CREATE TABLE "fairplay_flags" (
    "subject"    TEXT NOT NULL,
    "kind"       TEXT NOT NULL,
    "a"          TEXT NOT NULL,
    "b"          TEXT,
    "p"          DOUBLE PRECISION,
    "detail"     TEXT NOT NULL,
    "active"     BOOLEAN NOT NULL DEFAULT true,
    "flagged_at" TIMESTAMP(3) NOT NULL DEFAULT (now() AT TIME ZONE 'UTC'),
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT (now() AT TIME ZONE 'UTC'),
    CONSTRAINT "fairplay_flags_pkey" PRIMARY KEY ("subject")
);
CREATE INDEX "fairplay_flags_active_idx" ON "fairplay_flags"("active", "flagged_at" DESC);
