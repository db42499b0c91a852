// Package tictactoe holds botsArena's tic-tac-toe (SPEC §3), played by the
// mnk engine: X (seat 0, who starts) and O take turns on a 3×3 board, three
// in a row wins and a full board is a draw. Any fault of a judged answer
// loses the game; the init's reply is not judged.
//
// The play-turn board is {"0-0":"",…,"2-2":""}, keys "row-col", values "",
// "X" or "O"; "you" is the bot's mark. A bot replies {"play":"r-c"}: a key
// that is not on the board is not a move (fault.Malformed, or fault.Illegal
// when it names a cell off the board such as "3-0"), and an occupied cell is
// fault.Illegal (SPEC Decision: both are recorded and lose).
//
// Scores and Outcome.Score are each seat's longest line (3 for the winner).
//
// View JSON, for the screen and the terminal:
//
//	{"names":["a","b"], "marks":["X","O"], "rows":3, "cols":3, "k":3,
//	 "gravity":false, "phase":"init"|"play"|"over", "turn":0|1|-1,
//	 "cells":[["X","","O"],["","X",""],["","","X"]],
//	 "moves":[[r,c],...], "winner":0|1|-1, "lines":[[[r,c],...],...]}
//
// cells[row][col] is the board as the bots see it, row 0 drawn at the top;
// marks[seat] is the seat's mark. turn is the seat to play, -1 outside the
// "play" phase. moves are the pieces in the order played, seat 0's first,
// then alternating: the last one is the piece just played. winner is the
// winning seat (by a line, or because the other lost by a fault), -1 for a
// draw or while the game runs. lines are the winning lines, each from one
// end to the other (two when the last piece completed two at once), [] when
// none.
//
// Move.Event JSON, for a piece played: {"row":r,"col":c,"mark":"X"|"O"},
// with "lines" as in the View when it wins; nothing for the init or for an
// answer that lost the game (its Verdict and Reason say why).
package tictactoe

import (
	"encoding/json"
	"fmt"

	"botjudge/games"
	"botjudge/games/botsarena"
	"botjudge/games/fault"
	"botjudge/games/mnk"
)

// Rules is tic-tac-toe, registered as "tictactoe".
var Rules = mnk.Rules{Game: "tictactoe", Rows: 3, Cols: 3, K: 3, Place: place, Wire: wire}

func init() { games.Register(Rules) }

func key(c mnk.Cell) string { return fmt.Sprintf("%d-%d", c.Row, c.Col) }

// wire is the board keyed "row-col", which encoding/json writes in the
// site's order.
func wire(b *mnk.Board) any {
	m := make(map[string]string, b.Rows*b.Cols)
	for r := range b.Rows {
		for c := range b.Cols {
			m[key(mnk.Cell{Row: r, Col: c})] = b.Mark(mnk.Cell{Row: r, Col: c})
		}
	}
	return m
}

// place reads {"play":"r-c"}: exactly one of the board's keys, on a free
// cell.
func place(b *mnk.Board, play json.RawMessage) (mnk.Cell, fault.Kind, string) {
	s, ok := botsarena.String(play)
	if !ok {
		return mnk.Cell{}, fault.Malformed, fmt.Sprintf(`"play" must be a cell "row-col" like "1-2", got %s`, botsarena.Quote(play))
	}
	r, c, ok := botsarena.Pair(s, '-')
	cell := mnk.Cell{Row: r, Col: c}
	switch {
	case !ok:
		return cell, fault.Malformed, fmt.Sprintf(`"play" must be a cell "row-col" like "1-2", got %s`, botsarena.Quote(play))
	case !b.Inside(cell):
		return cell, fault.Illegal, fmt.Sprintf(`%s is off the board: rows and columns go from 0 to 2`, botsarena.Quote(play))
	case s != key(cell):
		// "01-2" names a cell, but is not the board's key.
		return cell, fault.Malformed, fmt.Sprintf(`%s is not one of the board's keys "0-0" to "2-2"`, botsarena.Quote(play))
	case !b.Free(cell):
		return cell, fault.Illegal, fmt.Sprintf(`cell %s is taken by %s`, s, b.Mark(cell))
	}
	return cell, fault.None, ""
}
