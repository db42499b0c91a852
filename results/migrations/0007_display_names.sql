-- Names as the school writes them (SPEC §6): display is the name every page
-- shows, as the organiser wrote it ("Zoé Martin-O'Neil"); name stays the
-- bot's file name, which the judge derives from it ("zoe-martin-o-neil").
-- A name put on the roster before is its own display name: its bot keeps
-- its file.
ALTER TABLE students ADD COLUMN display TEXT NOT NULL DEFAULT '';
UPDATE students SET display = name;
