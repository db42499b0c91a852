-- With the hand-in on, the screen's lists of games take the sandbox's
-- details of faults (a traceback, a line of a student's code) out of the
-- reasons that quote them: they read the details of a tournament's games
-- here, not in every move of them.
CREATE INDEX moves_detail ON moves (game_id, detail) WHERE detail != '';
