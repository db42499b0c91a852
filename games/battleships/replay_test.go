package battleships_test

import (
	"bytes"
	"path/filepath"
	"reflect"
	"testing"

	"botjudge/games"
	"botjudge/games/battleships"
	"botjudge/games/gamestest"
)

// scenarios are whole games whose requests, moves, outcome and final board
// are kept in testdata/<name>.golden.
var scenarios = []struct {
	name string
	bots [2]gamestest.Bot
}{
	{"game", [2]gamestest.Bot{
		script(fleetA, "00", "30", "40", "50", "60", "11", "56", "57", "05", "15", "25", "72", "73", "74", "75", "76"),
		script(fleetB, "77", "00", "01", "02", "33"),
	}},
	{"invalid_fleet", [2]gamestest.Bot{
		script(fleetA),
		script(fleetWith("2", `{"point":"14","orientation":"vertical"}`)),
	}},
	{"both_invalid", [2]gamestest.Bot{script("!timeout"), script(`{"2":"00"}`)}},
	{"repeat_shot", [2]gamestest.Bot{script(fleetA, "00", "00"), script(fleetB, "33")}},
	{"timeout", [2]gamestest.Bot{script(fleetA, "00"), script(fleetB, "!timeout")}},
	{"bad_move", [2]gamestest.Bot{script(fleetA, `{"move":34}`), script(fleetB)}},
}

func TestGolden(t *testing.T) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			g, steps := play(t, sc.bots)
			got := gamestest.Transcript(t, battleships.Rules{}, g, steps)
			gamestest.Golden(t, filepath.Join("testdata", sc.name+".golden"), got)
		})
	}
}

func TestReplay(t *testing.T) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			g, steps := play(t, sc.bots)
			var answers []games.Answer
			for _, s := range steps {
				answers = append(answers, s.Answers...)
			}
			visits := 0
			r, err := games.Replay(battleships.Rules{}, 7, names, answers, func(s games.State, moves []games.Move) {
				if !reflect.DeepEqual(moves, steps[visits].Moves) {
					t.Errorf("step %d replayed as %+v, played as %+v", visits+1, moves, steps[visits].Moves)
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
