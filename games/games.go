// Package games holds the rules of every contest game as pure state machines:
// no I/O, no Docker, no SQL. A game is replayable from its seed and the answers
// its bots gave, and every bot fault is a value with a reason, never a panic.
package games

import (
	"encoding/json"
	"fmt"
	"sort"

	"botjudge/games/fault"
)

// Answer is what the judge got back from a bot for one request. When Fault is
// set the bot gave no usable answer and Data is empty; the rules decide what
// the fault costs (a pass in virus, the game in battleships).
type Answer struct {
	Data   json.RawMessage
	Fault  fault.Kind
	Detail string
}

// Move is the record of one applied answer: what the bot said, the verdict of
// the rules, and a game-specific event that a replay shows (cells flipped,
// shot result...).
type Move struct {
	Seat    int             `json:"seat"`
	Answer  json.RawMessage `json:"answer,omitempty"`
	Verdict fault.Kind      `json:"verdict,omitempty"`
	Reason  string          `json:"reason,omitempty"`
	Event   json.RawMessage `json:"event,omitempty"`
	// Unjudged marks an answer the rules take without judging it
	// (botsArena's reply to init): a check of a bot looks past it.
	Unjudged bool `json:"unjudged,omitempty"`
}

// Outcome is the final result of a game. Rank is per seat, 1 is best; equal
// ranks are a draw between those seats. Score is the game's own score (pieces
// on the board, ships left...) for display.
type Outcome struct {
	Rank   []int  `json:"rank"`
	Score  []int  `json:"score,omitempty"`
	Reason string `json:"reason"`
	// Fates says how each seat's game ended in a game where seats are
	// eliminated one by one (Tron); nil in the others.
	Fates []Fate `json:"fates,omitempty"`
}

// Fate is how one seat left a game of eliminations, as data for the screen
// and the bot's author: when, why, and who or what it hit.
type Fate struct {
	// Turn is the turn it was eliminated on, from 1; 0 when it never was.
	Turn int `json:"turn"`
	// Cause names what eliminated it: a fault's kind, or the game's own
	// word (a wall, a trail...); empty when it never was.
	Cause string `json:"cause,omitempty"`
	// By lists the seats it hit (its own seat when it hit itself).
	By []int `json:"by,omitempty"`
	// At is the cell where it was eliminated, when there is one.
	At []int `json:"at,omitempty"`
}

// Points returns seat a's result against seat b: 1 win, 0.5 draw, 0 loss.
func (o Outcome) Points(a, b int) float64 {
	switch {
	case o.Rank[a] < o.Rank[b]:
		return 1
	case o.Rank[a] == o.Rank[b]:
		return 0.5
	}
	return 0
}

// Protocols say how a game's bots are run.
const (
	// ProtocolIA bots are Python files defining ia(game, side), imported
	// once per game and called once per request (the HX2 contest).
	ProtocolIA = "ia"
	// ProtocolProgram bots are programs started once per request, with the
	// request's JSON in argv[1] and on stdin, printing one JSON value.
	ProtocolProgram = "program"
)

// Rules is one kind of game. Beyond this interface, rules may implement
// Rounder, Boarder, Versioned, Bounded and Incremental; the functions of
// the same names read them with their defaults.
type Rules interface {
	// Name is the game's folder name under submissions/.
	Name() string
	// Protocol is how its bots are run: ProtocolIA or ProtocolProgram.
	Protocol() string
	// Seats is the range of the number of bots in one game.
	Seats() (min, max int)
	// New starts a game between bots named names (one per seat).
	New(seed int64, names []string) State
}

// State is a game in progress.
type State interface {
	// ToMove lists the seats whose answers are needed now, in order; it is
	// empty once the game is over.
	ToMove() []int
	// Request is the JSON message sent to seat. nil means the seat's answer
	// cannot change anything (it has no legal move): the judge does not ask
	// it and Apply gets an empty Answer for it.
	Request(seat int) json.RawMessage
	// Apply takes one answer per seat of ToMove, in the same order.
	Apply(answers []Answer) []Move
	// Outcome is valid once ToMove is empty.
	Outcome() Outcome
	// View is the position as the game's board draws it on the screen and
	// in the terminal.
	View() json.RawMessage
	// Scores is each seat's score in the position, as the screen shows it
	// beside any game's board.
	Scores() []int
}

// Rounder is implemented by rules whose tournaments need more than one round
// by default (hidden information, random bots).
type Rounder interface{ DefaultRounds() int }

// Boarder is implemented by rules that draw their View as text for a
// terminal.
type Boarder interface {
	Board(view json.RawMessage) (string, error)
}

// Versioned is implemented by rules that changed since their first
// tournaments: a new version makes a new tournament, whose games are played
// again under the new rules.
type Versioned interface{ Version() string }

// Bounded is implemented by rules that know how many requests one seat can
// get in a game at most: the judge then tells the organiser, before playing,
// how long a tournament could last if every bot used its whole time.
type Bounded interface {
	MaxRequests(seats int) int
}

// Incremental is implemented by rules whose View after a step is the View
// before it with the step's Move.Events applied, so that a board can be
// drawn from a game's first View and its events: a replay of thousands of
// turns then sends the first and the last View only, not one per step.
type Incremental interface{ IncrementalView() bool }

// IncrementalView says whether r's Views can be folded from the first one
// and the moves' Events.
func IncrementalView(r Rules) bool {
	x, ok := r.(Incremental)
	return ok && x.IncrementalView()
}

// DefaultRounds is how many rounds a tournament of r plays unless told.
func DefaultRounds(r Rules) int {
	if x, ok := r.(Rounder); ok && x.DefaultRounds() > 0 {
		return x.DefaultRounds()
	}
	return 1
}

// Board draws view for a terminal: the rules' own drawing, or the view's
// JSON when they have none.
func Board(r Rules, view json.RawMessage) (string, error) {
	if x, ok := r.(Boarder); ok {
		return x.Board(view)
	}
	return string(view) + "\n", nil
}

// Version is the rules' version, "" for rules never changed.
func Version(r Rules) string {
	if x, ok := r.(Versioned); ok {
		return x.Version()
	}
	return ""
}

// SeedScored is implemented by rules whose seed site kept a live score of
// its own (SPEC §7): the arena's ladder shows it beside the rating, so
// that a class reads the number its seed's readme speaks of.
type SeedScored interface{ SeedScore() string }

// The seeds' live scores.
const (
	// SeedBrainJar is BrainJar's points: 10 to start, the winner takes 5 %
	// of the loser's, never below 10.
	SeedBrainJar = "brainjar"
	// SeedElo is botsArena's Elo ladder of duels.
	SeedElo = "elo"
)

// SeedScore is r's seed's live score, "" when its seed kept none.
func SeedScore(r Rules) string {
	if x, ok := r.(SeedScored); ok {
		return x.SeedScore()
	}
	return ""
}

var registry = map[string]Rules{}

// Register makes a game known by its name; game packages call it from init.
func Register(r Rules) {
	if _, dup := registry[r.Name()]; dup {
		panic(fmt.Sprintf("games: %s registered twice", r.Name()))
	}
	registry[r.Name()] = r
}

// Lookup returns the rules of a game by name.
func Lookup(name string) (Rules, bool) {
	r, ok := registry[name]
	return r, ok
}

// Names lists the registered games, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Replay plays a recorded game again from the answers its bots gave, in the
// order they were applied, calling visit (if not nil) after every step. It
// fails when the answers run out before the game ends, which means the record
// does not belong to these rules or this seed.
func Replay(r Rules, seed int64, names []string, answers []Answer, visit func(State, []Move)) (State, error) {
	s := r.New(seed, names)
	for len(s.ToMove()) > 0 {
		n := len(s.ToMove())
		if len(answers) < n {
			return s, fmt.Errorf("games: replay of %s ran out of answers", r.Name())
		}
		moves := s.Apply(answers[:n])
		answers = answers[n:]
		if visit != nil {
			visit(s, moves)
		}
	}
	return s, nil
}
