-- The arena (SPEC §7): the bots on each game's live ladder. A student's
-- version is its hand-in and stays on the ladder while it is the student's
-- current one (current_handins); an example bot has no hand-in and stays
-- while active. The arena's games are ordinary games of one private
-- tournament per game (settings {"arena":true}).
CREATE TABLE arena_bots (
    bot_id    INTEGER PRIMARY KEY REFERENCES bots (id) ON DELETE CASCADE,
    game      TEXT NOT NULL,
    handin_id INTEGER REFERENCES handins (id) ON DELETE CASCADE,
    active    INTEGER NOT NULL DEFAULT 1,
    added     INTEGER NOT NULL
);
CREATE INDEX arena_bots_game ON arena_bots (game, bot_id);
