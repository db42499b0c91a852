-- The rounds and the point scheme of a tournament's latest run. They are not
-- part of its identity (settings): more rounds only add games, and another
-- scheme only recomputes the standings. Tournaments made before this carry
-- them in their settings.
ALTER TABLE tournaments ADD COLUMN rounds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN scheme TEXT NOT NULL DEFAULT '';
UPDATE tournaments SET
    rounds = coalesce(json_extract(settings, '$.rounds'), 0),
    scheme = coalesce(json_extract(settings, '$.scheme'), '');
