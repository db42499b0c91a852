-- A move is charged CPU time (SPEC §5): each answer keeps what it was
-- charged beside its wall-clock time. NULL is an answer charged wall time:
-- a bot reached by URL, or a game recorded before CPU was measured.
ALTER TABLE moves ADD COLUMN cpu INTEGER;
-- Each seat's totals over its moves, for lists and exports: what it was
-- charged and its wall-clock time (NULL in games recorded before).
ALTER TABLE players ADD COLUMN charged INTEGER;
ALTER TABLE players ADD COLUMN wall INTEGER;
