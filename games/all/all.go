// Package all registers every game with the games registry. The judge
// imports it, and so knows every game without naming any: adding a game is
// adding its package here.
package all

import (
	_ "botjudge/games/battleship"
	_ "botjudge/games/battleships"
	_ "botjudge/games/connectfour"
	_ "botjudge/games/tictactoe"
	_ "botjudge/games/tron"
	_ "botjudge/games/virus"
)
