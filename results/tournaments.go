package results

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"time"
)

// Bot is one version of a submitted bot: its name plus the SHA-256 of its
// content. A changed file is a new Bot with a new ID. Its Path is where it
// was found, relative to the submissions folder (virus/alice.py,
// battleships/carol): the screen and the exports show nothing of the
// organiser's machine. AddBot stores it so, and the rows of earlier judges,
// which hold the whole path, read so.
type Bot struct {
	ID     int64     `json:"id"`
	Game   string    `json:"game"`
	Name   string    `json:"name"`
	SHA256 string    `json:"sha256"`
	Path   string    `json:"path"`
	Added  time.Time `json:"added,omitzero"`
}

// Check is the pre-tournament check of one bot version (SPEC §4): did it
// start and answer its first request legally in time.
type Check struct {
	BotID   int64     `json:"bot_id"`
	OK      bool      `json:"ok"`
	Verdict string    `json:"verdict,omitempty"`
	Detail  string    `json:"detail,omitempty"`
	Log     string    `json:"log,omitempty"`
	At      time.Time `json:"at,omitzero"`
}

// Tournament is one game kind played with one seed and one set of settings.
// Running it again with other bot versions keeps its games: only the games
// of the new versions are played.
type Tournament struct {
	ID   int64  `json:"id"`
	Game string `json:"game"`
	Seed int64  `json:"seed"`
	// Settings are what makes the tournament's games (limits, format, rules
	// version...), as the judge wrote them; this package only compares them.
	Settings json.RawMessage `json:"settings"`
	// Rounds and Scheme are those of the latest run: more rounds only add
	// games, another scheme only changes the standings. Rounds is 0 before
	// the first run; games of rounds beyond it are kept but not counted.
	Rounds  int       `json:"rounds"`
	Scheme  Scheme    `json:"scheme"`
	Created time.Time `json:"created"`
	// Format is how its bots meet, as the judge names it (also in the
	// settings): FormatSwiss makes Buchholz the first tie-break. "" for
	// tournaments of judges that did not record it.
	Format string `json:"format,omitempty"`
	// Planned is the number of games in the current schedule, for progress.
	Planned int `json:"planned"`
	// Started and Finished are those of the latest run; Finished is zero
	// while it runs (or after it died).
	Started  time.Time `json:"started,omitzero"`
	Finished time.Time `json:"finished,omitzero"`
	// Private tournaments hold hand-ins' sparring games: Tournaments does
	// not list them, and the screen shows them to their students only.
	Private bool `json:"private,omitempty"`
}

// Entry is a bot version of a tournament's current run with its latest
// check (zero when it was never checked).
type Entry struct {
	Bot   Bot   `json:"bot"`
	Check Check `json:"check"`
}

// submissionPath is a bot's path relative to the submissions folder: its
// game's folder and its own name there, the last element of p (a bot is
// one entry of its game's folder, see judge/contest.Discover).
func submissionPath(game, p string) string {
	if p == "" {
		return ""
	}
	return game + "/" + path.Base(filepath.ToSlash(p))
}

// AddBot inserts the bot version (unique on game, name and sha256) or returns
// the existing row unchanged. A zero Added is now.
func (d *DB) AddBot(ctx context.Context, b Bot) (Bot, error) {
	if b.Game == "" || b.Name == "" || b.SHA256 == "" {
		return Bot{}, errors.New("results: a bot needs a game, a name and a sha256")
	}
	if b.Added.IsZero() {
		b.Added = time.Now()
	}
	var out Bot
	err := d.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO bots (game, name, sha256, path, added) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (game, name, sha256) DO NOTHING`,
			b.Game, b.Name, b.SHA256, submissionPath(b.Game, b.Path), b.Added.UnixNano()); err != nil {
			return err
		}
		var err error
		out, err = scanBot(tx.QueryRowContext(ctx, `SELECT `+botColumns+` FROM bots b WHERE game = ? AND name = ? AND sha256 = ?`,
			b.Game, b.Name, b.SHA256))
		return err
	})
	if err != nil {
		return Bot{}, fmt.Errorf("results: add bot %s: %w", b.Name, err)
	}
	return out, nil
}

const botColumns = `b.id, b.game, b.name, b.sha256, b.path, b.added`

func scanBot(row interface{ Scan(...any) error }) (Bot, error) {
	var b Bot
	var added sql.NullInt64
	err := row.Scan(&b.ID, &b.Game, &b.Name, &b.SHA256, &b.Path, &added)
	b.Path = submissionPath(b.Game, b.Path)
	b.Added = fromUnixNano(added)
	return b, err
}

// SaveCheck records the check of a bot version, replacing any earlier one.
// A zero At is now.
func (d *DB) SaveCheck(ctx context.Context, c Check) error {
	if c.At.IsZero() {
		c.At = time.Now()
	}
	err := d.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO checks (bot_id, ok, verdict, detail, log, at) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (bot_id) DO UPDATE SET ok = excluded.ok, verdict = excluded.verdict,
				detail = excluded.detail, log = excluded.log, at = excluded.at`,
			c.BotID, c.OK, c.Verdict, c.Detail, c.Log, c.At.UnixNano())
		return err
	})
	if err != nil {
		return fmt.Errorf("results: save check of bot %d: %w", c.BotID, err)
	}
	return nil
}

// EnsureTournament returns the tournament of this game with this seed and
// identical settings, creating it if needed. Settings are compared after
// removing insignificant white space; nil settings are {}.
func (d *DB) EnsureTournament(ctx context.Context, game string, seed int64, settings json.RawMessage) (Tournament, error) {
	if game == "" {
		return Tournament{}, errors.New("results: a tournament needs a game")
	}
	if len(settings) == 0 {
		settings = json.RawMessage("{}")
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, settings); err != nil {
		return Tournament{}, fmt.Errorf("results: tournament settings: %w", err)
	}
	var t Tournament
	err := d.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO tournaments (game, seed, settings, created) VALUES (?, ?, ?, ?)
			ON CONFLICT (game, seed, settings) DO NOTHING`,
			game, seed, compact.String(), time.Now().UnixNano()); err != nil {
			return err
		}
		var err error
		t, err = scanTournament(tx.QueryRowContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments
			WHERE game = ? AND seed = ? AND settings = ?`, game, seed, compact.String()))
		return err
	})
	if err != nil {
		return Tournament{}, fmt.Errorf("results: ensure tournament: %w", err)
	}
	return t, nil
}

const tournamentColumns = `id, game, seed, settings, created, planned, started, finished, rounds, scheme, private, format`

func scanTournament(row interface{ Scan(...any) error }) (Tournament, error) {
	var t Tournament
	var settings []byte
	var created, started, finished sql.NullInt64
	if err := row.Scan(&t.ID, &t.Game, &t.Seed, &settings, &created, &t.Planned, &started, &finished, &t.Rounds, &t.Scheme, &t.Private, &t.Format); err != nil {
		return Tournament{}, err
	}
	t.Settings = toJSON(settings)
	t.Created = fromUnixNano(created)
	t.Started = fromUnixNano(started)
	t.Finished = fromUnixNano(finished)
	return t, nil
}

// Tournaments lists every tournament but the private ones, newest first.
func (d *DB) Tournaments(ctx context.Context) ([]Tournament, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE private = 0 ORDER BY created DESC, id DESC`)
	if err != nil {
		return nil, fmt.Errorf("results: tournaments: %w", err)
	}
	defer rows.Close()
	var list []Tournament
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, fmt.Errorf("results: tournaments: %w", err)
		}
		list = append(list, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("results: tournaments: %w", err)
	}
	return list, nil
}

// Tournament returns one tournament, or ErrNotFound.
func (d *DB) Tournament(ctx context.Context, id int64) (Tournament, error) {
	t, err := scanTournament(d.db.QueryRowContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Tournament{}, fmt.Errorf("results: tournament %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Tournament{}, fmt.Errorf("results: tournament %d: %w", id, err)
	}
	return t, nil
}

// Run is what a run of a tournament plays: its bots, the number of games of
// its schedule, its rounds, its point scheme and its format.
type Run struct {
	BotIDs  []int64
	Planned int
	Rounds  int
	Scheme  Scheme
	Format  string
}

// FormatSwiss is the format whose standings break ties by Buchholz first
// (SPEC §4); the judge names its formats, this package knows only this one.
const FormatSwiss = "swiss"

// StartRun makes run's bots the tournament's current entries, records its
// planned games, rounds and scheme, and marks it as started now (and not
// finished). The bots must be of the tournament's game, one version per name.
// Games of bots that are no longer entries, or of rounds beyond run's, stay
// stored but leave the lists and the standings; they come back if that
// version is entered again or the rounds raised.
func (d *DB) StartRun(ctx context.Context, tournamentID int64, run Run) error {
	scheme, err := ParseScheme(string(run.Scheme))
	if err != nil {
		return err
	}
	botIDs := run.BotIDs
	err = d.tx(ctx, func(tx *sql.Tx) error {
		var game string
		err := tx.QueryRowContext(ctx, `SELECT game FROM tournaments WHERE id = ?`, tournamentID).Scan(&game)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		names := map[string]int64{}
		for _, id := range botIDs {
			b, err := scanBot(tx.QueryRowContext(ctx, `SELECT `+botColumns+` FROM bots b WHERE id = ?`, id))
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("bot %d: %w", id, ErrNotFound)
			}
			if err != nil {
				return err
			}
			if b.Game != game {
				return fmt.Errorf("bot %s (%d) is a %s bot, not %s", b.Name, id, b.Game, game)
			}
			if other, dup := names[b.Name]; dup {
				return fmt.Errorf("two versions of bot %s (%d and %d)", b.Name, other, id)
			}
			names[b.Name] = id
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM entries WHERE tournament_id = ?`, tournamentID); err != nil {
			return err
		}
		for _, id := range botIDs {
			if _, err := tx.ExecContext(ctx, `INSERT INTO entries (tournament_id, bot_id) VALUES (?, ?)`, tournamentID, id); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE tournaments SET planned = ?, rounds = ?, scheme = ?, format = ?, started = ?, finished = NULL WHERE id = ?`,
			run.Planned, run.Rounds, scheme, run.Format, time.Now().UnixNano(), tournamentID)
		return err
	})
	if err != nil {
		return fmt.Errorf("results: start run of tournament %d: %w", tournamentID, err)
	}
	return nil
}

// FinishRun marks the tournament's latest run as finished now.
func (d *DB) FinishRun(ctx context.Context, tournamentID int64) error {
	err := d.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tournaments SET finished = ? WHERE id = ?`, time.Now().UnixNano(), tournamentID)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err == nil && n == 0 {
			err = ErrNotFound
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("results: finish run of tournament %d: %w", tournamentID, err)
	}
	return nil
}

// Entries lists the tournament's current bots by name, each with its latest
// check.
func (d *DB) Entries(ctx context.Context, tournamentID int64) ([]Entry, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT `+botColumns+`, c.ok, c.verdict, c.detail, c.log, c.at
		FROM entries e JOIN bots b ON b.id = e.bot_id LEFT JOIN checks c ON c.bot_id = b.id
		WHERE e.tournament_id = ? ORDER BY b.name, b.id`, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("results: entries of tournament %d: %w", tournamentID, err)
	}
	defer rows.Close()
	var list []Entry
	for rows.Next() {
		var e Entry
		var added, at sql.NullInt64
		var ok sql.NullBool
		var verdict, detail, log sql.NullString
		if err := rows.Scan(&e.Bot.ID, &e.Bot.Game, &e.Bot.Name, &e.Bot.SHA256, &e.Bot.Path, &added,
			&ok, &verdict, &detail, &log, &at); err != nil {
			return nil, fmt.Errorf("results: entries of tournament %d: %w", tournamentID, err)
		}
		e.Bot.Path = submissionPath(e.Bot.Game, e.Bot.Path)
		e.Bot.Added = fromUnixNano(added)
		if at.Valid {
			e.Check = Check{BotID: e.Bot.ID, OK: ok.Bool, Verdict: verdict.String, Detail: detail.String, Log: log.String, At: fromUnixNano(at)}
		}
		list = append(list, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("results: entries of tournament %d: %w", tournamentID, err)
	}
	return list, nil
}

// EntryIDs lists the ids of the tournament's current bots in the order of
// Entries (by name), without their checks: the screen numbers a bot by its
// place in it on every poll of a tournament in progress.
func (d *DB) EntryIDs(ctx context.Context, tournamentID int64) ([]int64, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT b.id FROM entries e JOIN bots b ON b.id = e.bot_id
		WHERE e.tournament_id = ? ORDER BY b.name, b.id`, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("results: entry ids of tournament %d: %w", tournamentID, err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("results: entry ids of tournament %d: %w", tournamentID, err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("results: entry ids of tournament %d: %w", tournamentID, err)
	}
	return ids, nil
}

// EnteredHashes is the set of the SHA-256 of every bot version that is a
// current entry of some tournament: the bots the judge may still run.
func (d *DB) EnteredHashes(ctx context.Context) (map[string]bool, error) {
	return d.set(ctx, "entered hashes", `SELECT DISTINCT b.sha256 FROM entries e JOIN bots b ON b.id = e.bot_id`)
}
