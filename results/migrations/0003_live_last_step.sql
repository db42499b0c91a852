-- A live row keeps the number of moves and the last step only: rewriting
-- every move so far at each update made long games (Tron: thousands of
-- turns) cost more per turn as they went. Live rows are transient: a run
-- rewrites them from its games in progress.
DROP TABLE live;
CREATE TABLE live (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    key           TEXT NOT NULL,
    players       TEXT NOT NULL,
    moves         INTEGER NOT NULL,
    last          TEXT NOT NULL,
    view          TEXT,
    scores        TEXT,
    updated       INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, key)
);
