package results

import (
	"context"
	"database/sql"
	"fmt"

	"botjudge/results/scoring"
)

// The scoring vocabulary, under the names the rest of the judge has always
// used for it: standings are stored results seen through package scoring.
type (
	Scheme   = scoring.Scheme
	Bye      = scoring.Bye
	Pairing  = scoring.Pairing
	PairGame = scoring.PairGame
)

const (
	SchemeDefault = scoring.SchemeDefault
	Scheme310     = scoring.Scheme310

	ByPoints     = scoring.ByPoints
	ByHeadToHead = scoring.ByHeadToHead
	ByWins       = scoring.ByWins
	BySB         = scoring.BySB
	ByBuchholz   = scoring.ByBuchholz
)

// ParseScheme accepts the two schemes of SPEC §4; "" is the default.
func ParseScheme(s string) (Scheme, error) {
	scheme, err := scoring.ParseScheme(s)
	if err != nil {
		return "", fmt.Errorf("results: %w", err)
	}
	return scheme, nil
}

// Standing is one bot's line in the standings.
type Standing struct {
	// Rank is shared by bots that no rule separates (1, 2, 2, 4).
	Rank  int   `json:"rank"`
	Bot   Bot   `json:"bot"`
	Check Check `json:"check"`
	scoring.Line
}

// Rank computes the standings of entries over games, as scoring.Rank does.
func Rank(entries []Entry, games []scoring.Game, s Scheme) []Standing {
	return rank(entries, games, nil, s, false)
}

// Pairings computes every pair's record among bots (by ID) over games, as
// scoring.Pairings does: cells[i][j] is bots[i]'s record against bots[j],
// nil when they met in no game.
func Pairings(bots []int64, games []Game, s Scheme) [][]*Pairing {
	return scoring.Pairings(bots, scored(games), s)
}

// rank ranks entries by scoring's rules, a swiss tournament's with its
// byes, and puts the bots back on the lines.
func rank(entries []Entry, games []scoring.Game, byes []Bye, s Scheme, swiss bool) []Standing {
	entrants := make([]scoring.Entrant, len(entries))
	for i, e := range entries {
		entrants[i] = scoring.Entrant{ID: e.Bot.ID, Name: e.Bot.Name}
	}
	var places []scoring.Place
	if swiss {
		places = scoring.RankSwiss(entrants, games, byes, s)
	} else {
		places = scoring.Rank(entrants, games, s)
	}
	st := make([]Standing, len(places))
	for k, p := range places {
		e := entries[p.Entrant]
		st[k] = Standing{Rank: p.Rank, Bot: e.Bot, Check: e.Check, Line: p.Line}
	}
	return st
}

// scored is what scoring reads of games.
func scored(games []Game) []scoring.Game {
	out := make([]scoring.Game, len(games))
	for i, g := range games {
		out[i] = scoring.Game{ID: g.ID, Seats: make([]scoring.Seat, len(g.Players))}
		for k, p := range g.Players {
			out[i].Seats[k] = scoring.Seat{BotID: p.BotID, Rank: p.Rank, Timeouts: p.Timeouts, Crashes: p.Crashes, Illegal: p.Illegal}
		}
	}
	return out
}

// Standings ranks the current entries of a tournament over the games among
// them, in the rounds of its latest run, with scheme s: "" is the scheme of
// the latest run.
func (d *DB) Standings(ctx context.Context, tournamentID int64, s Scheme) ([]Standing, error) {
	t, err := d.Tournament(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	if s == "" {
		s = t.Scheme
	}
	if s, err = ParseScheme(string(s)); err != nil {
		return nil, err
	}
	entries, err := d.Entries(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	games, err := d.scoredGames(ctx, tournamentID, t.Rounds)
	if err != nil {
		return nil, err
	}
	if t.Format != FormatSwiss {
		return rank(entries, games, nil, s, false), nil
	}
	byes, err := d.Byes(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	return rank(entries, games, byes, s, true), nil
}

// SetBye records that bot sits out round of a swiss tournament, worth games
// wins, replacing the round's earlier bye if another bot had it (the round
// was planned again after a bot changed).
func (d *DB) SetBye(ctx context.Context, tournamentID int64, b Bye) error {
	err := d.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO byes (tournament_id, round, bot_id, games) VALUES (?, ?, ?, ?)
			ON CONFLICT (tournament_id, round) DO UPDATE SET bot_id = excluded.bot_id, games = excluded.games`,
			tournamentID, b.Round, b.BotID, b.Games)
		return err
	})
	if err != nil {
		return fmt.Errorf("results: bye of round %d: %w", b.Round, err)
	}
	return nil
}

// Byes lists the byes of the tournament's rounds of its latest run, by
// round.
func (d *DB) Byes(ctx context.Context, tournamentID int64) ([]Bye, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT y.round, y.bot_id, y.games FROM byes y JOIN tournaments t ON t.id = y.tournament_id
		WHERE y.tournament_id = ? AND (t.rounds = 0 OR y.round <= t.rounds) ORDER BY y.round`, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("results: byes: %w", err)
	}
	defer rows.Close()
	var list []Bye
	for rows.Next() {
		var b Bye
		if err := rows.Scan(&b.Round, &b.BotID, &b.Games); err != nil {
			return nil, fmt.Errorf("results: byes: %w", err)
		}
		list = append(list, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("results: byes: %w", err)
	}
	return list, nil
}

// scoredGames loads every game of the tournament with only what scoring
// reads: the players' bots, ranks and fault counts, in seat order. Games of
// bots that are no longer entries come too and scoring drops them: filtering them in SQL, as
// Games does, makes this query several times slower. The order by key
// (unique in a tournament) groups a game's players as an order by id would,
// but follows the (tournament_id, key) index and needs no sort.
// Rounds beyond rounds (when not 0) are left out.
func (d *DB) scoredGames(ctx context.Context, tournamentID int64, rounds int) ([]scoring.Game, error) {
	// Sizing the slice first saves a fifth of the time of this function,
	// which would otherwise go to copying it as it grows.
	var count int
	if err := d.db.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE tournament_id = ?`, tournamentID).Scan(&count); err != nil {
		return nil, fmt.Errorf("results: standings: %w", err)
	}
	rows, err := d.db.QueryContext(ctx, `SELECT p.game_id, p.bot_id, p.rank, p.timeouts, p.crashes, p.illegal
		FROM games g JOIN players p ON p.game_id = g.id
		WHERE g.tournament_id = ?1 AND (?2 = 0 OR g.round <= ?2) ORDER BY g.key, p.seat`, tournamentID, rounds)
	if err != nil {
		return nil, fmt.Errorf("results: standings: %w", err)
	}
	defer rows.Close()
	games, err := scanScored(rows, count)
	if err != nil {
		return nil, fmt.Errorf("results: standings: %w", err)
	}
	return games, nil
}

// scanScored reads rows of (game id, bot id, rank, timeouts, crashes,
// illegal) ordered by game then seat into games as scoring reads them;
// count sizes the slice.
func scanScored(rows *sql.Rows, count int) ([]scoring.Game, error) {
	games := make([]scoring.Game, 0, count)
	for rows.Next() {
		var id int64
		var p scoring.Seat
		if err := rows.Scan(&id, &p.BotID, &p.Rank, &p.Timeouts, &p.Crashes, &p.Illegal); err != nil {
			return nil, err
		}
		if n := len(games); n == 0 || games[n-1].ID != id {
			games = append(games, scoring.Game{ID: id, Seats: make([]scoring.Seat, 0, 2)})
		}
		g := &games[len(games)-1]
		g.Seats = append(g.Seats, p)
	}
	return games, rows.Err()
}
