-- The arena's pseudonyms (SPEC §7) are derived from each student's id and
-- this database's own random key: the same student keeps the same
-- pseudonym across restarts, yet nobody can work them out from the
-- judge's public source and the roster's order (student ids are given in
-- the order of the class list).
CREATE TABLE secrets (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
INSERT INTO secrets (name, value) VALUES ('pseudonyms', randomblob(32));
