package virus

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"botjudge/games/gamestest"
)

// player places a piece on a random legal cell, or passes now and then.
func player(rng *rand.Rand, req json.RawMessage) json.RawMessage {
	var r struct {
		Side string `json:"side"`
		Game struct {
			Grid [Size][Size]int `json:"grid"`
		} `json:"game"`
	}
	if json.Unmarshal(req, &r) != nil || rng.IntN(20) == 0 {
		return json.RawMessage(`false`)
	}
	mine := 1
	if r.Side == sides[1] {
		mine = 2
	}
	var legal [][2]int
	for row := range Size {
		for col := range Size {
			if r.Game.Grid[row][col] != 0 {
				continue
			}
			near := false
			neighbours([2]int{row, col}, func(nr, nc int) { near = near || r.Game.Grid[nr][nc] == mine })
			if near {
				legal = append(legal, [2]int{row, col})
			}
		}
	}
	if len(legal) == 0 {
		return json.RawMessage(`false`)
	}
	b, _ := json.Marshal(legal[rng.IntN(len(legal))])
	return b
}

func TestConformance(t *testing.T) { gamestest.Conformance(t, Rules{}, player) }

// FuzzParseAnswer reads anything ia could return: it never panics, a cell
// is on the grid, and a refusal says why, briefly. (The harness writes
// answers with Python's json.dumps, in ASCII: a reason quoting bytes that
// are not UTF-8 cannot happen in a contest, and is not checked.)
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{`[1, 2]`, `false`, `[0,0]`, `[9,9]`, `[10,0]`, `[-1,0]`, `[1.0,2]`, `[true,1]`, `null`, `"False"`, `[1,2,3]`, `{"a":1}`, `NaN`, ``, `[1e400,0]`, `[1,2] [3,4]`, "\xd3", `[1,10]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cell, pass, why := parseAnswer(data)
		switch {
		case why != "" && pass:
			t.Fatalf("%q refused (%s) but passes", data, why)
		case why == "" && !pass && (cell[0] < 0 || cell[0] >= Size || cell[1] < 0 || cell[1] >= Size):
			t.Fatalf("%q accepted as %v", data, cell)
		case utf8.RuneCountInString(why) > 200:
			t.Fatalf("%q: reason %q", data, why)
		}
	})
}
