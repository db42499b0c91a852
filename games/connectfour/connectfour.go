// Package connectfour holds botsArena's connect four (SPEC §3), played by
// the mnk engine: X (seat 0, who starts) and O take turns dropping a piece
// into one of 7 columns of a 6-row board; it falls to the lowest free row.
// Four in a row across, up or on either diagonal wins and a full board is a
// draw. Any fault of a judged answer loses the game; the init's reply is not
// judged.
//
// The play-turn board is board[row][col], 6 rows of 7 values "", "X" or "O",
// ROW 0 IS THE BOTTOM; "you" is the bot's mark. A bot replies {"play": col},
// col a number or a string of one, 0 to 6 ({"play":3} or {"play":"3"}). A
// play that is not a whole number is not a move (fault.Malformed); a column
// off the board or full is fault.Illegal. Both lose.
//
// Scores and Outcome.Score are each seat's longest line (4 or more for the
// winner).
//
// View JSON, for the screen and the terminal:
//
//	{"names":["a","b"], "marks":["X","O"], "rows":6, "cols":7, "k":4,
//	 "gravity":true, "phase":"init"|"play"|"over", "turn":0|1|-1,
//	 "cells":[["","","X","O","","",""], ...6 rows],
//	 "moves":[[r,c],...], "winner":0|1|-1, "lines":[[[r,c],...],...]}
//
// cells[row][col] is the board as the bots see it: cells[0] is the BOTTOM
// row (gravity true says so), to be drawn at the bottom. marks[seat] is the
// seat's mark. turn is the seat to play, -1 outside the "play" phase. moves
// are the pieces in the order played, seat 0's first, then alternating, as
// [row, col]: the last one is the piece just played, which fell down column
// col from the top and landed on row row. winner is the winning seat (by a
// line, or because the other lost by a fault), -1 for a draw or while the
// game runs. lines are the winning lines, each from one end to the other
// (it may be longer than four, or two lines at once), [] when none.
//
// Move.Event JSON, for a piece played: {"row":r,"col":c,"mark":"X"|"O"} (row
// is where it landed), with "lines" as in the View when it wins; nothing for
// the init or for an answer that lost the game (its Verdict and Reason say
// why).
package connectfour

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"botjudge/games"
	"botjudge/games/botsarena"
	"botjudge/games/fault"
	"botjudge/games/mnk"
)

// Rules is connect four, registered as "connectfour".
var Rules = mnk.Rules{Game: "connectfour", Rows: 6, Cols: 7, K: 4, Gravity: true, Place: place, Wire: wire}

func init() { games.Register(Rules) }

// wire is the board as rows of marks, the bottom row first.
func wire(b *mnk.Board) any {
	rows := make([][]string, b.Rows)
	for r := range rows {
		rows[r] = make([]string, b.Cols)
		for c := range rows[r] {
			rows[r][c] = b.Mark(mnk.Cell{Row: r, Col: c})
		}
	}
	return rows
}

// place reads {"play": col} and drops the piece down the column.
func place(b *mnk.Board, play json.RawMessage) (mnk.Cell, fault.Kind, string) {
	col, v, why := column(b, play)
	if v != fault.None {
		return mnk.Cell{}, v, why
	}
	for r := range b.Rows {
		if c := (mnk.Cell{Row: r, Col: col}); b.Free(c) {
			return c, fault.None, ""
		}
	}
	return mnk.Cell{}, fault.Illegal, fmt.Sprintf("column %d is full", col)
}

// column reads a column: a JSON number, or a string holding one, with a
// whole value.
func column(b *mnk.Board, play json.RawMessage) (int, fault.Kind, string) {
	text := string(bytes.TrimSpace(play))
	if s, ok := botsarena.String(play); ok {
		text = s
	}
	// A JSON number's syntax, not Go's: no "Inf", "0x1p3" or spaces.
	isNumber := text != "" && (text[0] == '-' || text[0] >= '0' && text[0] <= '9') && json.Valid([]byte(text))
	f, err := strconv.ParseFloat(text, 64)
	if !isNumber || err != nil || f != math.Trunc(f) {
		return 0, fault.Malformed, fmt.Sprintf(`"play" must be a column number from 0 to %d, like 3 or "3", got %s`, b.Cols-1, botsarena.Quote(play))
	}
	if f < 0 || f >= float64(b.Cols) {
		return 0, fault.Illegal, fmt.Sprintf("there is no column %s: columns go from 0 to %d", botsarena.Quote([]byte(text)), b.Cols-1)
	}
	return int(f), fault.None, ""
}
