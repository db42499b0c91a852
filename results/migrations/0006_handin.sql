-- Hand-in (SPEC §6): the roster, every version a student handed in, the one
-- in submissions/ now, and the sparring games each version played.

-- Private tournaments hold the sparring games of hand-ins: the screen does
-- not list them, and only a version's student and the organiser see them.
ALTER TABLE tournaments ADD COLUMN private INTEGER NOT NULL DEFAULT 0;

-- code is the SHA-256 (hex) of the student's log-in code, never the code.
-- The organiser is the one row with organiser = 1.
CREATE TABLE students (
    id        INTEGER PRIMARY KEY,
    name      TEXT NOT NULL UNIQUE COLLATE NOCASE,
    code      TEXT NOT NULL,
    organiser INTEGER NOT NULL DEFAULT 0,
    added     INTEGER NOT NULL
);

-- Every version handed in, with its content (a file, or a folder as a tar):
-- nothing a student handed in is ever lost.
CREATE TABLE handins (
    id         INTEGER PRIMARY KEY,
    student_id INTEGER NOT NULL REFERENCES students (id) ON DELETE CASCADE,
    game       TEXT NOT NULL,
    at         INTEGER NOT NULL,
    kind       TEXT NOT NULL,
    ext        TEXT NOT NULL,
    content    BLOB NOT NULL,
    sha256     TEXT NOT NULL,
    status     TEXT NOT NULL,
    report     TEXT
);
CREATE INDEX handins_student ON handins (student_id, game, id);

-- The version of each student's bot in submissions/<game>/ now.
CREATE TABLE current_handins (
    student_id INTEGER NOT NULL REFERENCES students (id) ON DELETE CASCADE,
    game       TEXT NOT NULL,
    handin_id  INTEGER NOT NULL REFERENCES handins (id),
    PRIMARY KEY (student_id, game)
) WITHOUT ROWID;

CREATE TABLE sparring (
    game_id   INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    handin_id INTEGER NOT NULL REFERENCES handins (id) ON DELETE CASCADE
);
CREATE INDEX sparring_handin ON sparring (handin_id);
