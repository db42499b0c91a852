-- Times are Unix nanoseconds (UTC); NULL means unknown. JSON is stored as TEXT.

CREATE TABLE bots (
    id     INTEGER PRIMARY KEY,
    game   TEXT NOT NULL,
    name   TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    path   TEXT NOT NULL,
    added  INTEGER NOT NULL,
    UNIQUE (game, name, sha256)
);

-- The latest pre-tournament check of one bot version.
CREATE TABLE checks (
    bot_id  INTEGER PRIMARY KEY REFERENCES bots (id) ON DELETE CASCADE,
    ok      INTEGER NOT NULL,
    verdict TEXT NOT NULL,
    detail  TEXT NOT NULL,
    log     TEXT NOT NULL,
    at      INTEGER NOT NULL
);

CREATE TABLE tournaments (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    seed     INTEGER NOT NULL,
    settings TEXT NOT NULL,
    created  INTEGER NOT NULL,
    planned  INTEGER NOT NULL DEFAULT 0,
    started  INTEGER,
    finished INTEGER,
    UNIQUE (game, seed, settings)
);

-- The bot versions of the current run: standings only count games between them.
CREATE TABLE entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    bot_id        INTEGER NOT NULL REFERENCES bots (id),
    PRIMARY KEY (tournament_id, bot_id)
) WITHOUT ROWID;

CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    key           TEXT NOT NULL,
    round         INTEGER NOT NULL,
    seed          INTEGER NOT NULL,
    reason        TEXT NOT NULL,
    outcome       TEXT,
    started       INTEGER,
    finished      INTEGER,
    image         TEXT NOT NULL,
    limits        TEXT,
    UNIQUE (tournament_id, key)
);

-- Fault counts are kept per player so that standings never read moves. The
-- logs live apart so that a scan of players for the standings stays small.
CREATE TABLE players (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    bot_id   INTEGER NOT NULL REFERENCES bots (id),
    rank     INTEGER NOT NULL,
    score    INTEGER NOT NULL,
    timeouts INTEGER NOT NULL,
    crashes  INTEGER NOT NULL,
    illegal  INTEGER NOT NULL,
    restarts INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX players_bot ON players (bot_id, game_id);

-- What each bot printed during a game.
CREATE TABLE logs (
    game_id INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    log     TEXT NOT NULL,
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES players (game_id, seat) ON DELETE CASCADE
);

-- n is the order in which moves were applied; several moves share a ply when
-- seats answer simultaneously.
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n       INTEGER NOT NULL,
    ply     INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    answer  TEXT,
    verdict TEXT NOT NULL,
    reason  TEXT NOT NULL,
    detail  TEXT NOT NULL,
    event   TEXT,
    elapsed INTEGER NOT NULL,
    PRIMARY KEY (game_id, n)
);

CREATE TABLE failures (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    key           TEXT NOT NULL,
    message       TEXT NOT NULL,
    at            INTEGER NOT NULL
);
CREATE INDEX failures_tournament ON failures (tournament_id, id);

CREATE TABLE live (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    key           TEXT NOT NULL,
    players       TEXT NOT NULL,
    moves         TEXT NOT NULL,
    view          TEXT,
    updated       INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, key)
);
