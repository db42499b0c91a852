-- Large fields (swiss rounds) and an honest time left.
--
-- A tournament's format, as the judge names it: the standings of a swiss
-- tournament break ties by Buchholz first. Tournaments made before this are
-- round robins ('').
ALTER TABLE tournaments ADD COLUMN format TEXT NOT NULL DEFAULT '';
-- The bot that sat out a round of a swiss tournament: the bye counts as a
-- match won, worth `games` wins. One bye per round at most; planning a round
-- again (after a bot changed) replaces it.
CREATE TABLE byes (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    bot_id        INTEGER NOT NULL REFERENCES bots (id),
    games         INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round)
) WITHOUT ROWID;
-- When a game in progress started: the time left counts it from its own
-- pace (moves so far over time since its start), not as an average game.
ALTER TABLE live ADD COLUMN started INTEGER;
