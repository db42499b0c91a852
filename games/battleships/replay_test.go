package battleships_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"botjudge/games"
	"botjudge/games/battleships"
	"botjudge/games/fault"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// scenarios are whole games whose requests, moves, outcome and final board
// are kept in testdata/<name>.golden.
var scenarios = []struct {
	name string
	bots [2]bot
}{
	{"game", [2]bot{
		script(fleetA, "00", "30", "40", "50", "60", "11", "56", "57", "05", "15", "25", "72", "73", "74", "75", "76"),
		script(fleetB, "77", "00", "01", "02", "33"),
	}},
	{"invalid_fleet", [2]bot{
		script(fleetA),
		script(fleetWith("2", `{"point":"14","orientation":"vertical"}`)),
	}},
	{"both_invalid", [2]bot{script("!timeout"), script(`{"2":"00"}`)}},
	{"repeat_shot", [2]bot{script(fleetA, "00", "00"), script(fleetB, "33")}},
	{"timeout", [2]bot{script(fleetA, "00"), script(fleetB, "!timeout")}},
	{"bad_move", [2]bot{script(fleetA, `{"move":34}`), script(fleetB)}},
}

func TestGolden(t *testing.T) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			g, steps := play(t, sc.bots)
			got := transcript(t, g, steps)
			path := filepath.Join("testdata", sc.name+".golden")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the game played now:\n%s", path, got)
			}
		})
	}
}

// transcript writes a game as text: for every step the requests (>), the
// answers (<) and the applied moves (=), then the outcome, the view and the
// board.
func transcript(t *testing.T, g games.State, steps []step) []byte {
	t.Helper()
	var b bytes.Buffer
	for i, s := range steps {
		fmt.Fprintf(&b, "step %d\n", i+1)
		for j, req := range s.requests {
			fmt.Fprintf(&b, "> %s\n", req)
			if a := s.answers[j]; a.Fault != fault.None {
				fmt.Fprintf(&b, "< !%s %s\n", a.Fault, a.Detail)
			} else {
				fmt.Fprintf(&b, "< %s\n", a.Data)
			}
		}
		for _, m := range s.moves {
			fmt.Fprintf(&b, "= %s\n", mustJSON(t, m))
		}
	}
	fmt.Fprintf(&b, "outcome %s\n", mustJSON(t, g.Outcome()))
	fmt.Fprintf(&b, "view %s\n", g.View())
	board, err := battleships.Rules{}.Board(g.View())
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString(board)
	return b.Bytes()
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestReplay(t *testing.T) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			g, steps := play(t, sc.bots)
			var answers []games.Answer
			for _, s := range steps {
				answers = append(answers, s.answers...)
			}
			visits := 0
			r, err := games.Replay(battleships.Rules{}, 7, names, answers, func(s games.State, moves []games.Move) {
				if !reflect.DeepEqual(moves, steps[visits].moves) {
					t.Errorf("step %d replayed as %+v, played as %+v", visits+1, moves, steps[visits].moves)
				}
				visits++
			})
			if err != nil {
				t.Fatal(err)
			}
			if visits != len(steps) {
				t.Errorf("%d steps replayed, %d played", visits, len(steps))
			}
			if !bytes.Equal(r.View(), g.View()) {
				t.Errorf("final view\n got %s\nwant %s", r.View(), g.View())
			}
			if !reflect.DeepEqual(r.Outcome(), g.Outcome()) {
				t.Errorf("outcome %+v, want %+v", r.Outcome(), g.Outcome())
			}
			if _, err := games.Replay(battleships.Rules{}, 7, names, answers[:len(answers)-1], nil); err == nil {
				t.Error("a replay with its last answer missing did not fail")
			}
		})
	}
}
