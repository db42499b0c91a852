package sandbox

import (
	"maps"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"botjudge/games/gamestest"
)

// The harness's own argument defaults (for a person running it by hand;
// the judge always passes every limit) say the judge's DefaultLimits, so
// that the limits have one source.
func TestHarnessDefaultsAreTheJudges(t *testing.T) {
	src, err := os.ReadFile("harness/main.py")
	if err != nil {
		t.Fatal(err)
	}
	lim := DefaultLimits()
	want := map[string]float64{
		"--move":    lim.Move.Seconds(),
		"--startup": lim.Startup.Seconds(),
		"--answer":  float64(lim.Answer),
		"--log":     float64(lim.Log),
		"--idle":    lim.idle().Round(time.Second).Seconds(),
	}
	arg := regexp.MustCompile(`add_argument\("(--[a-z]+)", type=(?:int|float), default=([0-9.]+)\)`)
	seen := 0
	for _, m := range arg.FindAllStringSubmatch(string(src), -1) {
		w, ok := want[m[1]]
		if !ok {
			continue
		}
		seen++
		if got, _ := strconv.ParseFloat(m[2], 64); got != w {
			t.Errorf("harness/main.py: %s defaults to %s, the judge's default is %v", m[1], m[2], w)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the harness's %d limit arguments in harness/main.py", seen, len(want))
	}
}

// The games' test kit runs example bots with the interpreters the sandbox
// runs them with: its map is the interpreted part of Languages.
func TestGamesTestKitInterpreters(t *testing.T) {
	want := map[string]string{}
	for _, l := range Languages {
		if l.Interpreter != "" {
			want[l.Ext] = l.Interpreter
		}
	}
	if !maps.Equal(gamestest.Interpreters, want) {
		t.Errorf("gamestest.Interpreters is %v, the sandbox's languages %v", gamestest.Interpreters, want)
	}
}
