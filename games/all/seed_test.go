package all_test

import (
	"testing"

	"botjudge/games"
	_ "botjudge/games/all"
)

// The arena shows each seed's own live score (SPEC §7): BrainJar's points
// for its battleships, botsArena's Elo for its games, none for the virus.
func TestSeedScore(t *testing.T) {
	want := map[string]string{
		"battleships": games.SeedBrainJar,
		"battleship":  games.SeedElo,
		"tictactoe":   games.SeedElo,
		"connectfour": games.SeedElo,
		"tron":        games.SeedElo,
		"virus":       "",
	}
	for _, name := range games.Names() {
		r, _ := games.Lookup(name)
		if got, ok := want[name]; !ok {
			t.Errorf("%s: a game this test does not know: say its seed's score", name)
		} else if s := games.SeedScore(r); s != got {
			t.Errorf("%s: seed score %q, want %q", name, s, got)
		}
	}
}
