package battleships_test

import (
	"encoding/json"
	"strings"
	"testing"

	"botjudge/games"
	"botjudge/games/battleships"
	"botjudge/games/fault"
	"botjudge/games/gamestest"
)

// fleetA is the README's example: 2 at 00-01, 3 at 22-24, 4 at 42-45, and 5 at
// 37-77.
const fleetA = `{"2":{"point":"00","orientation":"vertical"},"3":{"point":"22","orientation":"vertical"},` +
	`"4":{"point":"42","orientation":"vertical"},"5":{"point":"37","orientation":"horizontal"}}`

// fleetB: 2 at 56-57, 3 at 05-25, 4 at 30-60, 5 at 72-76.
const fleetB = `{"2":{"point":"56","orientation":"vertical"},"3":{"point":"05","orientation":"horizontal"},` +
	`"4":{"point":"30","orientation":"horizontal"},"5":{"point":"72","orientation":"vertical"}}`

var names = []string{"alice", "bob"}

func ok(data string) games.Answer { return games.Answer{Data: json.RawMessage(data)} }

// started is a game where seat 0 placed fleetA and seat 1 fleetB.
func started(t *testing.T) games.State {
	t.Helper()
	return gamestest.Setup(t, battleships.Rules{}.New(1, names), ok(fleetA), ok(fleetB))
}

// shoot makes the seat to move fire at cell and returns the applied move.
func shoot(t *testing.T, g games.State, cell string) games.Move {
	t.Helper()
	if len(g.ToMove()) != 1 {
		t.Fatalf("shoot %s: ToMove = %v, want one seat", cell, g.ToMove())
	}
	moves := g.Apply([]games.Answer{ok(`{"move":"` + cell + `"}`)})
	if len(moves) != 1 {
		t.Fatalf("shoot %s: %d moves, want 1", cell, len(moves))
	}
	return moves[0]
}

type request struct {
	Cmd       string   `json:"cmd"`
	Moves     []string `json:"moves"`
	Hit       []string `json:"hit"`
	Missed    []string `json:"missed"`
	Destroyed []int    `json:"destroyed"`
	You       int      `json:"you"`
}

func decodeRequest(t *testing.T, raw json.RawMessage) request {
	t.Helper()
	var r request
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("request %s: %v", raw, err)
	}
	return r
}

type event struct {
	Fleet  [][4]any `json:"fleet"`
	Shot   string   `json:"shot"`
	Result string   `json:"result"`
	Size   int      `json:"size"`
	Again  bool     `json:"again"`
	Error  string   `json:"error"`
}

var decodeEvent = gamestest.Event[event]

// script is a stateless bot: it answers init with fleet, then fires shots in
// order, finding its place from the number of shots the request says it has
// fired. An entry "!kind" is a fault of that kind; an entry of two characters
// is a cell; any other entry is sent as is.
func script(fleet string, shots ...string) gamestest.Bot {
	answer := func(entry string) games.Answer {
		if kind, ok := strings.CutPrefix(entry, "!"); ok {
			return games.Answer{Fault: fault.Kind(kind), Detail: "scripted " + kind}
		}
		if len(entry) == 2 {
			return ok(`{"move":"` + entry + `"}`)
		}
		return ok(entry)
	}
	return func(raw json.RawMessage) games.Answer {
		var req request
		if err := json.Unmarshal(raw, &req); err != nil {
			return games.Answer{Fault: fault.Error, Detail: "script: bad request"}
		}
		if req.Cmd == "init" {
			return answer(fleet)
		}
		n := len(req.Hit) + len(req.Missed)
		if n >= len(shots) {
			return games.Answer{Fault: fault.Error, Detail: "script ran out of shots"}
		}
		return answer(shots[n])
	}
}

// play runs a game between two bots to its end.
func play(t *testing.T, bots [2]gamestest.Bot) (games.State, []gamestest.Step) {
	t.Helper()
	return gamestest.Play(t, battleships.Rules{}, 7, names, bots[:])
}

// scan is every cell in column-major order.
func scan() []string {
	var cells []string
	for c := range 8 {
		for r := range 8 {
			cells = append(cells, string(rune('0'+c))+string(rune('0'+r)))
		}
	}
	return cells
}
