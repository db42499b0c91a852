package battleship_test

import (
	"testing"

	"botjudge/games/battleship"
	"botjudge/games/gamestest"
)

const botsDir = "../../submissions/battleship"

// TestExampleBots runs the example bots, as programs, on requests of real
// games, the default one and a small one with boats of every length: each
// answers legally and the same way twice.
func TestExampleBots(t *testing.T) {
	programs := gamestest.Programs(t, botsDir)
	gamestest.CheckBots(t, battleship.Rules{}, programs, player)
	gamestest.CheckBots(t, battleship.Rules{Width: 7, Height: 6, Ships: [6]int{1, 1, 1, 1, 1, 1}}, programs, player)
}

// TestExampleTournament plays every pair of example bots without a fault,
// and shows that hunter beats random_shots. The grid is 7×7 rather than
// 10×10 with the default fleet: games of half the shots, one process each,
// show the same.
func TestExampleTournament(t *testing.T) {
	w, d, l := gamestest.Tournament(t, battleship.Rules{Width: 7, Height: 7}, gamestest.Programs(t, botsDir), "hunter", "random_shots", 6)
	if w < 5 {
		t.Errorf("hunter against random_shots: %d wins, %d draws, %d losses", w, d, l)
	}
}
