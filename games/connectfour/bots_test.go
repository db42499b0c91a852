package connectfour_test

import (
	"testing"

	"botjudge/games/connectfour"
	"botjudge/games/gamestest"
)

const botsDir = "../../submissions/connectfour"

// TestExampleBots runs the example bots, as programs, on requests of real
// games: each answers legally and the same way twice.
func TestExampleBots(t *testing.T) {
	gamestest.CheckBots(t, connectfour.Rules, gamestest.Programs(t, botsDir), player)
}

// TestExampleTournament plays every pair of example bots without a fault,
// and shows that alphabeta beats random_column.
func TestExampleTournament(t *testing.T) {
	w, d, l := gamestest.Tournament(t, connectfour.Rules, gamestest.Programs(t, botsDir), "alphabeta", "random_column", 6)
	if l > 0 || w < 5 {
		t.Errorf("alphabeta against random_column: %d wins, %d draws, %d losses", w, d, l)
	}
}
