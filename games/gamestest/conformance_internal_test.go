package gamestest

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"botjudge/games"
)

// fake is a game of two seats taking turns until one of them has answered
// 3, or 10 turns went by; each flaw breaks it in one way the kit must
// see.
type fake struct{ flaw string }

func (fake) Name() string                             { return "fake" }
func (fake) Protocol() string                         { return games.ProtocolProgram }
func (fake) Seats() (int, int)                        { return 2, 2 }
func (f fake) New(seed int64, _ []string) games.State { return &fakeGame{flaw: f.flaw, seed: seed} }

type fakeGame struct {
	flaw   string
	seed   int64
	turns  int
	winner int
	over   bool
	asked  int
}

func (g *fakeGame) ToMove() []int {
	if g.over {
		return nil
	}
	return []int{g.turns % 2}
}

func (g *fakeGame) Request(seat int) json.RawMessage {
	g.asked++
	if g.flaw == "request changes" {
		return json.RawMessage(`{"asked":` + string(rune('0'+g.asked%10)) + `}`)
	}
	return json.RawMessage(`{"turn":` + string(rune('0'+g.turns%10)) + `}`)
}

func (g *fakeGame) Apply(answers []games.Answer) []games.Move {
	seat := g.turns % 2
	if g.flaw == "panics" && bytes.Contains(answers[0].Data, []byte("play")) {
		panic("a bot said play")
	}
	g.turns++
	switch {
	case g.flaw == "never ends":
	case bytes.Equal(bytes.TrimSpace(answers[0].Data), []byte("3")):
		g.over, g.winner = true, seat
	case g.turns >= 10:
		g.over, g.winner = true, 0
	}
	m := games.Move{Seat: seat}
	if g.flaw == "bad move" {
		m.Event = json.RawMessage(`{`)
	}
	return []games.Move{m}
}

func (g *fakeGame) Outcome() games.Outcome {
	rank := []int{2, 2}
	rank[g.winner] = 1
	if g.flaw == "random outcome" && rand.IntN(2) == 0 {
		rank[0], rank[1] = rank[1], rank[0]
	}
	return games.Outcome{Rank: rank, Reason: "someone answered 3"}
}

func (g *fakeGame) View() json.RawMessage {
	if g.flaw == "bad view" {
		return json.RawMessage(`{"turn":`)
	}
	return json.RawMessage(`{}`)
}

func (g *fakeGame) Scores() []int {
	if g.flaw == "one score" {
		return []int{g.turns}
	}
	return []int{g.turns, g.turns}
}

func three(*rand.Rand, json.RawMessage) json.RawMessage { return json.RawMessage(`3`) }

func TestConformanceSees(t *testing.T) {
	for flaw, want := range map[string]string{
		"panics":          "panic at step",
		"request changes": "asked twice",
		"never ends":      "not over after 100000 steps",
		"bad move":        "does not encode",
		"bad view":        "the view is not JSON",
		"one score":       "Scores has 1 entries for 2 seats",
		"random outcome":  "outcome",
	} {
		problem := ""
		for ri, rate := range garbageRates {
			for i := range gamesPerRate {
				if problem == "" {
					problem = conform(fake{flaw}, int64(ri*100+i), 2, rate, three)
				}
			}
		}
		if !strings.Contains(problem, want) {
			t.Errorf("a game that %s: the kit says %q, want %q", flaw, problem, want)
		}
	}
	if problem := conform(fake{}, 1, 2, 0.3, three); problem != "" {
		t.Errorf("a sound game: %s", problem)
	}
}
