package gamestest

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"botjudge/games"
	"botjudge/games/fault"
)

// Registration is what the judge reads of registered rules.
type Registration struct {
	Protocol string
	// Seats are the fewest and the most.
	Seats  [2]int
	Rounds int
	// MaxRequests is games.Bounded's bound for the fewest seats, 0 for
	// unbounded rules.
	MaxRequests int
}

// Registered fails t unless rules named name are registered with want.
func Registered(t *testing.T, name string, want Registration) {
	t.Helper()
	r, ok := games.Lookup(name)
	if !ok {
		t.Fatalf("%s is not registered", name)
	}
	lo, hi := r.Seats()
	got := Registration{Protocol: r.Protocol(), Seats: [2]int{lo, hi}, Rounds: games.DefaultRounds(r)}
	if b, ok := r.(games.Bounded); ok {
		got.MaxRequests = b.MaxRequests(lo)
	}
	if r.Name() != name || got != want {
		t.Errorf("%s: got %s %+v, want %+v", name, r.Name(), got, want)
	}
}

// Scenario is a scripted game kept in testdata/<Name>.golden: each seat's
// answers in order, under Rules (nil: the test's own).
type Scenario struct {
	Name    string
	Rules   games.Rules
	Answers [][]games.Answer
}

// GoldenGames plays each scenario with r, unless it has its own rules, and
// compares its Transcript with its golden file.
func GoldenGames(t *testing.T, r games.Rules, seed int64, names []string, scenarios []Scenario) {
	t.Helper()
	for _, sc := range scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			rules := r
			if sc.Rules != nil {
				rules = sc.Rules
			}
			bots := make([]Bot, len(sc.Answers))
			for i, a := range sc.Answers {
				bots[i] = Scripted(a...)
			}
			s, steps := Play(t, rules, seed, names, bots)
			Golden(t, filepath.Join("testdata", sc.Name+".golden"), Transcript(t, rules, s, steps))
		})
	}
}

// FuzzAnswer fuzzes the answer of the one seat to move in the game start
// sets up, from the seed answers: nothing panics, the move encodes, a fault
// ends the game with a reason and ranks, and accepted checks any other
// move.
func FuzzAnswer(f *testing.F, seeds []string, start func(t *testing.T) games.State, ranks []int,
	accepted func(t *testing.T, answer []byte, s games.State, m games.Move)) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, answer []byte) {
		s := start(t)
		m := s.Apply([]games.Answer{{Data: answer}})[0]
		if _, err := json.Marshal(m); err != nil {
			t.Fatalf("%q: the move does not encode: %v", answer, err)
		}
		if m.Verdict != fault.None {
			if m.Reason == "" || len(s.ToMove()) != 0 || !reflect.DeepEqual(s.Outcome().Rank, ranks) {
				t.Fatalf("%q refused: %+v, outcome %+v", answer, m, s.Outcome())
			}
			return
		}
		accepted(t, answer, s, m)
	})
}
