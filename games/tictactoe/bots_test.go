package tictactoe_test

import (
	"testing"

	"botjudge/games/gamestest"
	"botjudge/games/tictactoe"
)

const botsDir = "../../submissions/tictactoe"

// TestExampleBots runs the example bots, as programs, on requests of real
// games: each answers legally and the same way twice.
func TestExampleBots(t *testing.T) {
	gamestest.CheckBots(t, tictactoe.Rules, gamestest.Programs(t, botsDir), player)
}

// TestExampleTournament plays every pair of example bots without a fault,
// and shows that minimax, which plays perfectly, never loses to random_cell
// and mostly beats it.
func TestExampleTournament(t *testing.T) {
	w, d, l := gamestest.Tournament(t, tictactoe.Rules, gamestest.Programs(t, botsDir), "minimax", "random_cell", 10)
	if l > 0 || w < 7 {
		t.Errorf("minimax against random_cell: %d wins, %d draws, %d losses", w, d, l)
	}
}
