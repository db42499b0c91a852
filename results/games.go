package results

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"botjudge/games"
	"botjudge/games/fault"
)

// ErrDuplicate is returned by SaveGame for a key the tournament already has.
var ErrDuplicate = errors.New("results: game already stored")

// Game is a finished game: enough to replay it exactly (seed, bot versions,
// runtime image, limits and every answer) and to score it.
type Game struct {
	ID           int64 `json:"id"`
	TournamentID int64 `json:"tournament_id"`
	// Key names the game in the schedule; a tournament stores a key once.
	Key   string `json:"key"`
	Round int    `json:"round"`
	Seed  int64  `json:"seed"`
	// Players has one element per seat, in seat order.
	Players []Player `json:"players"`
	Reason  string   `json:"reason"`
	// Outcome is the games.Outcome as JSON.
	Outcome  json.RawMessage `json:"outcome,omitempty"`
	Started  time.Time       `json:"started,omitzero"`
	Finished time.Time       `json:"finished,omitzero"`
	// Image is the digest of the runtime image the bots ran in.
	Image  string          `json:"image"`
	Limits json.RawMessage `json:"limits,omitempty"`
	// Moves is nil in lists and filled by DB.Game.
	Moves []Move `json:"moves,omitempty"`
}

// Player is one seat of a game.
type Player struct {
	Seat  int   `json:"seat"`
	BotID int64 `json:"bot_id"`
	// Name and SHA256 are the bot's; SaveGame takes them from the bot row,
	// not from here.
	Name   string `json:"name"`
	SHA256 string `json:"sha256,omitempty"`
	// Rank is 1 for the best seat; equal ranks are a draw between them.
	Rank  int `json:"rank"`
	Score int `json:"score"`
	// Faults is Timeouts + Crashes + Illegal, counted from the moves by
	// Game.Tally (SaveGame stores its count, not the values passed in).
	Faults   int `json:"faults"`
	Timeouts int `json:"timeouts"`
	Crashes  int `json:"crashes"`
	Illegal  int `json:"illegal"`
	// Log is what the bot printed (empty in lists).
	Log string `json:"log,omitempty"`
	// Restarts counts the times the bot had to be started afresh mid-game.
	Restarts int `json:"restarts"`
	// Charged and Wall are the bot's time over the game's moves: what it
	// was charged (Move.Charged) and its wall-clock time, counted by
	// Game.Tally; they are null in games recorded before.
	Charged *time.Duration `json:"charged_ns"`
	Wall    *time.Duration `json:"wall_ns"`
}

// Move is one applied answer as a game's record keeps it: the rules' move,
// with what only the judge saw, the step it came in, the sandbox's words
// for a fault and the answer's times. The judge plays games into it, the
// database stores it and the screen replays from it.
type Move struct {
	games.Move
	// Ply is the step of the game; seats that answer simultaneously share
	// a ply.
	Ply int
	// Detail is the sandbox's words for a fault (traceback, exit status).
	Detail string
	// Elapsed is the answer's wall-clock time.
	Elapsed time.Duration
	// CPU is the CPU time the answer was charged (SPEC §5); nil when it
	// was charged its wall-clock time: a bot reached by URL, or a record
	// from before CPU was measured.
	CPU *time.Duration
}

// Charged is the time the answer counted against the bot's limit: its
// CPU when it was measured, else its wall-clock time.
func (m Move) Charged() time.Duration {
	if m.CPU != nil {
		return *m.CPU
	}
	return m.Elapsed
}

// moveJSON is a Move as records, exports and the live rows have always
// written it: the judge's fields among the rules' (no embedding gives this
// order), and no Unjudged, which a replay says again.
type moveJSON struct {
	Ply     int             `json:"ply"`
	Seat    int             `json:"seat"`
	Answer  json.RawMessage `json:"answer,omitempty"`
	Verdict fault.Kind      `json:"verdict,omitempty"`
	Reason  string          `json:"reason,omitempty"`
	Detail  string          `json:"detail,omitempty"`
	Event   json.RawMessage `json:"event,omitempty"`
	Elapsed time.Duration   `json:"elapsed_ns"`
	CPU     *time.Duration  `json:"cpu_ns"`
}

func (m Move) MarshalJSON() ([]byte, error) {
	return json.Marshal(moveJSON{m.Ply, m.Seat, m.Answer, m.Verdict, m.Reason, m.Detail, m.Event, m.Elapsed, m.CPU})
}

func (m *Move) UnmarshalJSON(b []byte) error {
	var j moveJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*m = Move{Move: games.Move{Seat: j.Seat, Answer: j.Answer, Verdict: j.Verdict, Reason: j.Reason, Event: j.Event},
		Ply: j.Ply, Detail: j.Detail, Elapsed: j.Elapsed, CPU: j.CPU}
	return nil
}

// Tally counts each player's faults, by the class of their verdicts, and
// times from the moves: the one count of them, which SaveGame stores.
func (g *Game) Tally() {
	for i := range g.Players {
		p := &g.Players[i]
		p.Timeouts, p.Crashes, p.Illegal = 0, 0, 0
		p.Charged, p.Wall = new(time.Duration), new(time.Duration)
	}
	for _, m := range g.Moves {
		p := &g.Players[m.Seat]
		switch m.Verdict.Class() {
		case fault.TimeoutClass:
			p.Timeouts++
		case fault.CrashClass:
			p.Crashes++
		case fault.IllegalClass:
			p.Illegal++
		}
		*p.Charged += m.Charged()
		*p.Wall += m.Elapsed
	}
	for i := range g.Players {
		p := &g.Players[i]
		p.Faults = p.Timeouts + p.Crashes + p.Illegal
	}
}

// SaveGame stores a finished game with its players and moves in one
// transaction, and deletes the game's live row in the same one. The
// players' fault counts and times are the moves' (see Tally), whatever g
// says. A key the tournament already has is refused with ErrDuplicate and
// changes nothing.
func (d *DB) SaveGame(ctx context.Context, g Game) (int64, error) {
	if err := g.validate(); err != nil {
		return 0, fmt.Errorf("results: save game %q: %w", g.Key, err)
	}
	g.Players = slices.Clone(g.Players) // the caller's stay as they are
	g.Tally()
	var id int64
	err := d.tx(ctx, func(tx *sql.Tx) (err error) {
		if id, err = insertGame(ctx, tx, g); err != nil {
			return err
		}
		if err := insertPlayers(ctx, tx, id, g.Players); err != nil {
			return err
		}
		if err := insertMoves(ctx, tx, id, g.Moves); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM live WHERE tournament_id = ? AND key = ?`, g.TournamentID, g.Key)
		return err
	})
	if errors.Is(err, ErrDuplicate) {
		return 0, err
	}
	if err != nil {
		return 0, fmt.Errorf("results: save game %q: %w", g.Key, err)
	}
	return id, nil
}

// insertGame inserts g's row, or refuses a key the tournament has.
func insertGame(ctx context.Context, tx *sql.Tx, g Game) (int64, error) {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE tournament_id = ? AND key = ?`,
		g.TournamentID, g.Key).Scan(&n); err != nil {
		return 0, err
	}
	if n > 0 {
		return 0, ErrDuplicate
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO games (tournament_id, key, round, seed, reason, outcome, started, finished, image, limits)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.TournamentID, g.Key, g.Round, g.Seed, g.Reason, jsonArg(g.Outcome),
		unixNano(g.Started), unixNano(g.Finished), g.Image, jsonArg(g.Limits))
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// insertPlayers inserts the players of game id, tallied, and their logs.
func insertPlayers(ctx context.Context, tx *sql.Tx, id int64, players []Player) error {
	for _, p := range players {
		if _, err := tx.ExecContext(ctx, `INSERT INTO players (game_id, seat, bot_id, rank, score, timeouts, crashes, illegal, restarts, charged, wall)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, p.Seat, p.BotID, p.Rank, p.Score, p.Timeouts, p.Crashes, p.Illegal, p.Restarts,
			nullDuration(p.Charged), nullDuration(p.Wall)); err != nil {
			return err
		}
		if p.Log != "" {
			if _, err := tx.ExecContext(ctx, `INSERT INTO logs (game_id, seat, log) VALUES (?, ?, ?)`, id, p.Seat, p.Log); err != nil {
				return err
			}
		}
	}
	return nil
}

// insertMoves inserts the moves of game id with one prepared statement.
func insertMoves(ctx context.Context, tx *sql.Tx, id int64, moves []Move) error {
	if len(moves) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO moves (game_id, n, ply, seat, answer, verdict, reason, detail, event, elapsed, cpu)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for n, m := range moves {
		if _, err := stmt.ExecContext(ctx, id, n, m.Ply, m.Seat, jsonArg(m.Answer), m.Verdict, m.Reason, m.Detail,
			jsonArg(m.Event), int64(m.Elapsed), nullDuration(m.CPU)); err != nil {
			return err
		}
	}
	return nil
}

// validate refuses a record that could not be read back or scored.
func (g Game) validate() error {
	if g.Key == "" {
		return errors.New("no key")
	}
	if len(g.Players) == 0 {
		return errors.New("no players")
	}
	for i, p := range g.Players {
		if p.Seat != i {
			return fmt.Errorf("player %d has seat %d: players must be in seat order", i, p.Seat)
		}
	}
	if err := validJSON("outcome", g.Outcome); err != nil {
		return err
	}
	if err := validJSON("limits", g.Limits); err != nil {
		return err
	}
	for i, m := range g.Moves {
		if m.Seat < 0 || m.Seat >= len(g.Players) {
			return fmt.Errorf("move %d has seat %d of %d", i, m.Seat, len(g.Players))
		}
		if err := validJSON(fmt.Sprintf("answer of move %d", i), m.Answer); err != nil {
			return err
		}
		if err := validJSON(fmt.Sprintf("event of move %d", i), m.Event); err != nil {
			return err
		}
	}
	return nil
}

// PlayedKeys returns the keys of every stored game of the tournament,
// including games of bot versions that are no longer entries.
func (d *DB) PlayedKeys(ctx context.Context, tournamentID int64) (map[string]bool, error) {
	return d.set(ctx, "played keys", `SELECT key FROM games WHERE tournament_id = ?`, tournamentID)
}

// set runs a query of one text column and returns its values as a set; what
// names the query in errors.
func (d *DB) set(ctx context.Context, what, query string, args ...any) (map[string]bool, error) {
	rows, err := d.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("results: %s: %w", what, err)
	}
	defer rows.Close()
	set := map[string]bool{}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("results: %s: %w", what, err)
		}
		set[v] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("results: %s: %w", what, err)
	}
	return set, nil
}

// GameFilter narrows DB.Games; a zero field matches any bot.
type GameFilter struct {
	BotID    int64 `json:"bot_id,omitempty"`
	Opponent int64 `json:"opponent,omitempty"`
}

const gameColumns = `g.id, g.tournament_id, g.key, g.round, g.seed, g.reason, g.outcome, g.started, g.finished, g.image, g.limits`

// playerColumns leave the log out: lists never show it.
const playerColumns = `p.seat, p.bot_id, b.name, b.sha256, p.rank, p.score, p.timeouts, p.crashes, p.illegal, p.restarts, p.charged, p.wall`

// scanGame scans gameColumns followed by extra destinations.
func scanGame(row interface{ Scan(...any) error }, extra ...any) (Game, error) {
	var g Game
	var outcome, limits []byte
	var started, finished sql.NullInt64
	dest := append([]any{&g.ID, &g.TournamentID, &g.Key, &g.Round, &g.Seed, &g.Reason, &outcome,
		&started, &finished, &g.Image, &limits}, extra...)
	if err := row.Scan(dest...); err != nil {
		return Game{}, err
	}
	g.Outcome = toJSON(outcome)
	g.Limits = toJSON(limits)
	g.Started = fromUnixNano(started)
	g.Finished = fromUnixNano(finished)
	return g, nil
}

func playerDest(p *Player) []any {
	return []any{&p.Seat, &p.BotID, &p.Name, &p.SHA256, &p.Rank, &p.Score, &p.Timeouts, &p.Crashes, &p.Illegal, &p.Restarts,
		durationDest{&p.Charged}, durationDest{&p.Wall}}
}

// durationDest scans a duration that may be NULL (unknown) into *d.
type durationDest struct{ d **time.Duration }

func (s durationDest) Scan(v any) error {
	*s.d = nil
	var n sql.NullInt64
	if err := n.Scan(v); err != nil || !n.Valid {
		return err
	}
	d := time.Duration(n.Int64)
	*s.d = &d
	return nil
}

// listed keeps the games of tournament ?1 that Games lists and CountGames
// counts (g is the game).
const listed = `g.tournament_id = ?1
		  AND g.round <= coalesce(nullif((SELECT rounds FROM tournaments WHERE id = ?1), 0), g.round)
		  AND NOT EXISTS (SELECT 1 FROM players x WHERE x.game_id = g.id
		      AND x.bot_id NOT IN (SELECT bot_id FROM entries WHERE tournament_id = ?1))`

// Games lists the tournament's games, in the order they were stored, whose
// players are all current entries and whose round is one of its latest run's; the filter keeps the games of one bot, or
// of one pairing. Moves are nil and logs empty.
func (d *DB) Games(ctx context.Context, tournamentID int64, f GameFilter) ([]Game, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT `+gameColumns+`, `+playerColumns+`
		FROM games g JOIN players p ON p.game_id = g.id JOIN bots b ON b.id = p.bot_id
		WHERE `+listed+`
		  AND (?2 = 0 OR EXISTS (SELECT 1 FROM players x WHERE x.game_id = g.id AND x.bot_id = ?2))
		  AND (?3 = 0 OR EXISTS (SELECT 1 FROM players x WHERE x.game_id = g.id AND x.bot_id = ?3))
		ORDER BY g.id, p.seat`, tournamentID, f.BotID, f.Opponent)
	if err != nil {
		return nil, fmt.Errorf("results: games: %w", err)
	}
	defer rows.Close()
	var list []Game
	for rows.Next() {
		var p Player
		g, err := scanGame(rows, playerDest(&p)...)
		if err != nil {
			return nil, fmt.Errorf("results: games: %w", err)
		}
		p.Faults = p.Timeouts + p.Crashes + p.Illegal
		if n := len(list); n > 0 && list[n-1].ID == g.ID {
			list[n-1].Players = append(list[n-1].Players, p)
			continue
		}
		g.Players = []Player{p}
		list = append(list, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("results: games: %w", err)
	}
	return list, nil
}

// FaultDetails are the sandbox's details of the faults in the tournament's
// games (a traceback, a timeout's words), each once, by game: the lists of
// Games have no moves, yet their reasons may quote them.
func (d *DB) FaultDetails(ctx context.Context, tournamentID int64) (map[int64][]string, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT DISTINCT m.game_id, m.detail FROM games g JOIN moves m ON m.game_id = g.id
		WHERE g.tournament_id = ? AND m.detail != ''`, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("results: fault details: %w", err)
	}
	defer rows.Close()
	details := map[int64][]string{}
	for rows.Next() {
		var id int64
		var detail string
		if err := rows.Scan(&id, &detail); err != nil {
			return nil, fmt.Errorf("results: fault details: %w", err)
		}
		details[id] = append(details[id], detail)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("results: fault details: %w", err)
	}
	return details, nil
}

// GameCount sums up the games Games lists, for a screen that polls: how
// many, how many finished since a time, and the newest one's id and finish.
type GameCount struct {
	Games int `json:"games"`
	Since int `json:"since"`
	// SinceTime and SinceMoves sum the durations and the moves of the
	// games counted in Since: what the time left is measured on.
	SinceTime    time.Duration `json:"since_time_ns"`
	SinceMoves   int           `json:"since_moves"`
	LastID       int64         `json:"last_id"`
	LastFinished time.Time     `json:"last_finished,omitzero"`
}

// CountGames counts the games Games lists for the tournament without
// reading them; Since counts those finished at or after since.
func (d *DB) CountGames(ctx context.Context, tournamentID int64, since time.Time) (GameCount, error) {
	var c GameCount
	var last sql.NullInt64
	// A game's moves are its last move's number plus one: one look in the
	// moves' index, where counting them would read them all.
	err := d.db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(g.finished >= ?2), 0), coalesce(max(g.id), 0), max(g.finished),
			coalesce(sum(CASE WHEN g.finished >= ?2 THEN g.finished - g.started END), 0),
			coalesce(sum(CASE WHEN g.finished >= ?2 THEN (SELECT max(m.n) + 1 FROM moves m WHERE m.game_id = g.id) END), 0)
		FROM games g WHERE `+listed, tournamentID, unixNano(since)).Scan(&c.Games, &c.Since, &c.LastID, &last, &c.SinceTime, &c.SinceMoves)
	if err != nil {
		return GameCount{}, fmt.Errorf("results: count games: %w", err)
	}
	c.LastFinished = fromUnixNano(last)
	return c, nil
}

// Game returns one game with its moves and the players' logs, or ErrNotFound.
func (d *DB) Game(ctx context.Context, id int64) (Game, error) {
	g, err := scanGame(d.db.QueryRowContext(ctx, `SELECT `+gameColumns+` FROM games g WHERE g.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, fmt.Errorf("results: game %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Game{}, fmt.Errorf("results: game %d: %w", id, err)
	}
	if g.Players, err = d.players(ctx, id); err != nil {
		return Game{}, fmt.Errorf("results: game %d: %w", id, err)
	}
	if g.Moves, err = d.moves(ctx, id); err != nil {
		return Game{}, fmt.Errorf("results: game %d: %w", id, err)
	}
	return g, nil
}

func (d *DB) players(ctx context.Context, gameID int64) ([]Player, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT `+playerColumns+`, coalesce(l.log, '')
		FROM players p JOIN bots b ON b.id = p.bot_id LEFT JOIN logs l ON l.game_id = p.game_id AND l.seat = p.seat
		WHERE p.game_id = ? ORDER BY p.seat`, gameID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []Player
	for rows.Next() {
		var p Player
		if err := rows.Scan(append(playerDest(&p), &p.Log)...); err != nil {
			return nil, err
		}
		p.Faults = p.Timeouts + p.Crashes + p.Illegal
		list = append(list, p)
	}
	return list, rows.Err()
}

func (d *DB) moves(ctx context.Context, gameID int64) ([]Move, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT ply, seat, answer, verdict, reason, detail, event, elapsed, cpu
		FROM moves WHERE game_id = ? ORDER BY n`, gameID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	list := []Move{}
	for rows.Next() {
		var m Move
		var answer, event []byte
		var elapsed int64
		if err := rows.Scan(&m.Ply, &m.Seat, &answer, &m.Verdict, &m.Reason, &m.Detail, &event, &elapsed, durationDest{&m.CPU}); err != nil {
			return nil, err
		}
		m.Answer, m.Event, m.Elapsed = toJSON(answer), toJSON(event), time.Duration(elapsed)
		list = append(list, m)
	}
	return list, rows.Err()
}

// Failure is a failure of the judge's own machinery while playing a game
// (Docker down, disk full...). It is never scored: the game stays unplayed.
type Failure struct {
	Key     string    `json:"key"`
	Message string    `json:"message"`
	At      time.Time `json:"at"`
}

// RecordFailure logs a judge failure for the game with this key.
func (d *DB) RecordFailure(ctx context.Context, tournamentID int64, key, message string) error {
	err := d.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO failures (tournament_id, key, message, at) VALUES (?, ?, ?, ?)`,
			tournamentID, key, message, time.Now().UnixNano())
		return err
	})
	if err != nil {
		return fmt.Errorf("results: record failure of %q: %w", key, err)
	}
	return nil
}

// Failures lists the tournament's judge failures, oldest first.
func (d *DB) Failures(ctx context.Context, tournamentID int64) ([]Failure, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT key, message, at FROM failures WHERE tournament_id = ? ORDER BY id`, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("results: failures: %w", err)
	}
	defer rows.Close()
	var list []Failure
	for rows.Next() {
		var f Failure
		var at sql.NullInt64
		if err := rows.Scan(&f.Key, &f.Message, &at); err != nil {
			return nil, fmt.Errorf("results: failures: %w", err)
		}
		f.At = fromUnixNano(at)
		list = append(list, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("results: failures: %w", err)
	}
	return list, nil
}

// Live is a game in progress, for a screen in another process. PutLive
// replaces it as the game advances; SaveGame deletes it when the game is
// stored, and ClearLive deletes the rows a dead run left behind. It holds the
// position and the last step only, so that updating it costs the same at
// every turn of a long game.
type Live struct {
	TournamentID int64    `json:"tournament_id"`
	Key          string   `json:"key"`
	Players      []Player `json:"players"`
	// Moves counts the moves applied so far; Last is the last step's (one
	// per seat that answered in it).
	Moves   int             `json:"moves"`
	Last    []Move          `json:"last"`
	View    json.RawMessage `json:"view,omitempty"`
	Scores  []int           `json:"scores,omitempty"`
	Updated time.Time       `json:"updated"`
	// Started is when the game started (zero if unknown).
	Started time.Time `json:"started,omitzero"`
}

// PutLive creates or replaces the live row of a game. A zero Updated is now.
func (d *DB) PutLive(ctx context.Context, l Live) error {
	if l.Updated.IsZero() {
		l.Updated = time.Now()
	}
	if err := validJSON("view", l.View); err != nil {
		return fmt.Errorf("results: put live %q: %w", l.Key, err)
	}
	if l.Last == nil {
		l.Last = []Move{}
	}
	var enc [3][]byte
	for i, v := range []any{l.Players, l.Last, l.Scores} {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("results: put live %q: %w", l.Key, err)
		}
		enc[i] = b
	}
	err := d.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO live (tournament_id, key, players, moves, last, view, scores, updated, started)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (tournament_id, key) DO UPDATE SET players = excluded.players, moves = excluded.moves,
				last = excluded.last, view = excluded.view, scores = excluded.scores, updated = excluded.updated,
				started = excluded.started`,
			l.TournamentID, l.Key, string(enc[0]), l.Moves, string(enc[1]), jsonArg(l.View), string(enc[2]), l.Updated.UnixNano(), unixNano(l.Started))
		return err
	})
	if err != nil {
		return fmt.Errorf("results: put live %q: %w", l.Key, err)
	}
	return nil
}

// Live lists the tournament's games in progress by key.
func (d *DB) Live(ctx context.Context, tournamentID int64) ([]Live, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT key, players, moves, last, view, scores, updated, started FROM live
		WHERE tournament_id = ? ORDER BY key`, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("results: live: %w", err)
	}
	defer rows.Close()
	var list []Live
	for rows.Next() {
		l := Live{TournamentID: tournamentID}
		var players, last, view, scores []byte
		var updated, started sql.NullInt64
		if err := rows.Scan(&l.Key, &players, &l.Moves, &last, &view, &scores, &updated, &started); err != nil {
			return nil, fmt.Errorf("results: live: %w", err)
		}
		if err := errors.Join(json.Unmarshal(players, &l.Players), json.Unmarshal(last, &l.Last), json.Unmarshal(scores, &l.Scores)); err != nil {
			return nil, fmt.Errorf("results: live %q: %w", l.Key, err)
		}
		l.View = toJSON(view)
		l.Updated = fromUnixNano(updated)
		l.Started = fromUnixNano(started)
		list = append(list, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("results: live: %w", err)
	}
	return list, nil
}

// ClearLive deletes every live row of the tournament.
func (d *DB) ClearLive(ctx context.Context, tournamentID int64) error {
	err := d.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM live WHERE tournament_id = ?`, tournamentID)
		return err
	})
	if err != nil {
		return fmt.Errorf("results: clear live: %w", err)
	}
	return nil
}

// GameTime is how long the stored games of one game kind took, over every
// tournament: what a projection of a tournament's length starts from.
func (d *DB) GameTime(ctx context.Context, game string) (mean time.Duration, n int, err error) {
	var avg sql.NullFloat64
	err = d.db.QueryRowContext(ctx, `SELECT avg(g.finished - g.started), count(*) FROM games g JOIN tournaments t ON t.id = g.tournament_id
		WHERE t.game = ? AND g.started IS NOT NULL AND g.finished IS NOT NULL`, game).Scan(&avg, &n)
	if err != nil {
		return 0, 0, fmt.Errorf("results: game time of %s: %w", game, err)
	}
	return time.Duration(avg.Float64), n, nil
}
