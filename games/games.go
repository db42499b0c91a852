// Package games holds the rules of every contest game as pure state machines:
// no I/O, no Docker, no SQL. A game is replayable from its seed and the answers
// its bots gave, and every bot fault is a value with a reason, never a panic.
package games

import (
	"encoding/json"
	"fmt"
	"sort"
)

// Verdict classifies one answer of a bot. The empty verdict means the answer
// was a legal move.
type Verdict string

const (
	OK        Verdict = ""
	Illegal   Verdict = "illegal"   // a well-formed move that the rules forbid
	Malformed Verdict = "malformed" // an answer that is not a move at all
	Error     Verdict = "error"     // the bot raised or exited non-zero
	Timeout   Verdict = "timeout"   // no answer within the limit
	Crash     Verdict = "crash"     // the bot's process died (signal, killed harness)
	OOM       Verdict = "oom"       // killed for using too much memory
	Output    Verdict = "output"    // answer larger than the limit
)

// Answer is what the judge got back from a bot for one request. When Fault is
// set the bot gave no usable answer and Data is empty; the rules decide what
// the fault costs (a pass in virus, the game in battleships).
type Answer struct {
	Data   json.RawMessage
	Fault  Verdict
	Detail string
}

// Move is the record of one applied answer: what the bot said, the verdict of
// the rules, and a game-specific event that a replay shows (cells flipped,
// shot result...).
type Move struct {
	Seat    int             `json:"seat"`
	Answer  json.RawMessage `json:"answer,omitempty"`
	Verdict Verdict         `json:"verdict,omitempty"`
	Reason  string          `json:"reason,omitempty"`
	Event   json.RawMessage `json:"event,omitempty"`
}

// Outcome is the final result of a game. Rank is per seat, 1 is best; equal
// ranks are a draw between those seats. Score is the game's own score (pieces
// on the board, ships left...) for display.
type Outcome struct {
	Rank   []int  `json:"rank"`
	Score  []int  `json:"score,omitempty"`
	Reason string `json:"reason"`
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

// Rules is one kind of game.
type Rules interface {
	// Name is the game's folder name under submissions/.
	Name() string
	// Protocol says how its bots are run: "virus" (a Python module with
	// ia(game, side), imported once per game) or "program" (one process per
	// request, JSON in argv[1] and stdin, JSON on stdout).
	Protocol() string
	// Seats is the number of bots in one game.
	Seats() int
	// New starts a game between bots named names (one per seat).
	New(seed int64, names []string) State
}

// State is a game in progress.
type State interface {
	// ToMove lists the seats whose answers are needed now, in order; it is
	// empty once the game is over.
	ToMove() []int
	// Request is the JSON message sent to seat.
	Request(seat int) json.RawMessage
	// Apply takes one answer per seat of ToMove, in the same order.
	Apply(answers []Answer) []Move
	// Outcome is valid once ToMove is empty.
	Outcome() Outcome
	// View is the position as the screen and `judge play` draw it.
	View() json.RawMessage
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
