package contest

import (
	"context"
	"fmt"

	"botjudge/games"
	"botjudge/results"
)

// Format is how a tournament's bots meet (SPEC §4).
type Format string

const (
	// Duels: every unordered pair plays twice per round, each bot holding
	// the first seat once.
	Duels Format = "duel"
	// FreeForAll: every bot in one game per round, the seat order rotated
	// by one each round. Only for games of more than two seats. With more
	// bots than a game seats, each round plays heats (see heats).
	FreeForAll Format = "ffa"
	// Swiss: rounds of duels between bots of equal score who have not met,
	// each round planned from the results of the ones before (swiss.go).
	Swiss Format = results.FormatSwiss
)

// ParseFormat reads a --format value; "" is Duels.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case "":
		return Duels, nil
	case Duels, FreeForAll, Swiss:
		return f, nil
	}
	return "", fmt.Errorf("unknown format %q: use %s, %s or %s", s, Duels, Swiss, FreeForAll)
}

// scheduler is a format at work: how one tournament chooses its games. A
// round robin and heats plan every game before the first is played; swiss
// plans a round at a time from the results stored. (The arena, judge/arena,
// is the fourth way: it chooses one game at a time, without end, from its
// ladder's ratings, and plays it through the same Pipeline.)
type scheduler interface {
	// games is how many games the tournament plays in all.
	games() int
	// stages is how many stages the games are played in: a stage's games
	// are chosen once the stage before it is recorded.
	stages() int
	// next returns the games of stage k, from 1, chosen from the results
	// stored so far, so that a stopped tournament goes on where it was.
	next(ctx context.Context, k int) ([]Planned, error)
	// seats is how many bots a game seats, what a worker's memory is
	// counted for.
	seats() int
	// worst is what the worst case counts: the games todo of the current
	// stage and the stages after it, left games in all.
	worst(todo []Planned, left int) []Planned
	// suggests says whether a tournament too long for a lesson is told of
	// swiss: a round robin of duels.
	suggests() bool
}

// field is what a scheduler chooses from: the tournament's bots, by entry
// with their rows, and where its results are.
type field struct {
	rules   games.Rules
	entries []Entry
	ids     []int64
	seed    int64
	store   Store
	tid     int64
}

// schedulerFor is format f's scheduler of the field's tournament in rounds
// rounds, 0 for the format's default, and the rounds it plays.
func schedulerFor(f Format, fl field, rounds int) (scheduler, int, error) {
	if rounds <= 0 {
		rounds = DefaultRounds(fl.rules, f, len(fl.entries))
	}
	minSeats, maxSeats := fl.rules.Seats()
	if f == Swiss {
		if minSeats > 2 || maxSeats < 2 {
			return nil, 0, fmt.Errorf("this game seats %d to %d bots: it cannot be played in swiss rounds of duels", minSeats, maxSeats)
		}
		return &swiss{field: fl, rounds: rounds, legs: games.DefaultRounds(fl.rules)}, rounds, nil
	}
	all, err := Schedule(fl.entries, rounds, fl.seed, f, minSeats, maxSeats)
	if err != nil {
		return nil, 0, err
	}
	return planned{all: all, duels: f == Duels}, rounds, nil
}

// planned is a schedule known before the first game: a round robin, or
// rounds of free-for-all games (heats when the bots outnumber the seats).
type planned struct {
	all   []Planned
	duels bool
}

func (p planned) games() int                                   { return len(p.all) }
func (p planned) stages() int                                  { return 1 }
func (p planned) next(context.Context, int) ([]Planned, error) { return p.all, nil }
func (p planned) worst(todo []Planned, _ int) []Planned        { return todo }
func (p planned) suggests() bool                               { return p.duels }

func (p planned) seats() int {
	if len(p.all) == 0 {
		return 2
	}
	return len(p.all[0].Seats)
}

// swiss plays rounds of duels, each paired from the results of the rounds
// before (swiss.go), each pairing's duels played legs times both ways.
type swiss struct {
	field
	rounds, legs int
}

func (s *swiss) games() int     { return swissGames(len(s.entries), s.rounds, s.legs) }
func (s *swiss) seats() int     { return 2 }
func (s *swiss) suggests() bool { return false }

func (s *swiss) stages() int {
	if len(s.entries) < 2 {
		return 0
	}
	return s.rounds
}

func (s *swiss) next(ctx context.Context, k int) ([]Planned, error) {
	stored, err := s.store.Games(ctx, s.tid, results.GameFilter{})
	if err != nil {
		return nil, err
	}
	byes, err := s.store.Byes(ctx, s.tid)
	if err != nil {
		return nil, err
	}
	round, bye := swissRound(s.entries, s.ids, k, s.legs, s.seed, stored, byes)
	if bye >= 0 {
		err = s.store.SetBye(ctx, s.tid, results.Bye{Round: k, BotID: s.ids[bye], Games: 2 * s.legs})
	}
	return round, err
}

// worst counts the rounds to come too: they are not paired yet, but they
// are duels.
func (s *swiss) worst(_ []Planned, left int) []Planned {
	duels := make([]Planned, left)
	for i := range duels {
		duels[i].Seats = []int{0, 1}
	}
	return duels
}
