// Package mnk is the engine of botsArena's games of marks in a row,
// tic-tac-toe and connect four (SPEC §3): two seats take turns putting their
// mark, X for seat 0, who starts, and O for seat 1, on a board of Rows × Cols
// cells; K marks in a row in any of the four directions (across, up, both
// diagonals) win, and a full board is a draw. The games differ only in how a
// reply's play names a cell (a key, or a column the piece falls down) and in
// how the bots see the board: each game gives those as functions.
//
// The init's reply is not judged, as botsArena does not read it; every later
// answer is, and any fault loses the game: an answer that is not a move, a
// move the rules forbid, a timeout, a crash.
//
// The View, documented with each game, is the same JSON for both, so that one
// drawing serves them; Gravity tells it that row 0 is the bottom.
package mnk

import (
	"botjudge/games/phrase"
	"encoding/json"
	"fmt"
	"strings"

	"botjudge/games"
	"botjudge/games/botsarena"
	"botjudge/games/fault"
)

// Marks are the seats' marks as the bots see them: seat 0 plays X.
var Marks = [2]string{"X", "O"}

// Cell is a cell of the board.
type Cell struct{ Row, Col int }

func (c Cell) plus(d Cell) Cell  { return Cell{c.Row + d.Row, c.Col + d.Col} }
func (c Cell) minus(d Cell) Cell { return Cell{c.Row - d.Row, c.Col - d.Col} }
func (c Cell) pair() [2]int      { return [2]int{c.Row, c.Col} }

// Board is a position: each cell empty or holding a seat's mark.
type Board struct {
	Rows, Cols int
	cells      []int // row by row: 0 when empty, else the seat plus one
}

// Inside says c is on the board.
func (b *Board) Inside(c Cell) bool {
	return c.Row >= 0 && c.Row < b.Rows && c.Col >= 0 && c.Col < b.Cols
}

// Free says c is on the board and empty.
func (b *Board) Free(c Cell) bool { return b.Inside(c) && b.seat(c) < 0 }

// Mark is the mark in c as the bots see it: "", "X" or "O".
func (b *Board) Mark(c Cell) string {
	if s := b.seat(c); s >= 0 {
		return Marks[s]
	}
	return ""
}

// seat is the seat whose mark is in c, -1 for none.
func (b *Board) seat(c Cell) int { return b.cells[c.Row*b.Cols+c.Col] - 1 }

func (b *Board) put(c Cell, seat int) { b.cells[c.Row*b.Cols+c.Col] = seat + 1 }

// directions of a line: across, up, and both diagonals.
var directions = [4]Cell{{0, 1}, {1, 0}, {1, 1}, {1, -1}}

// run is the line of the mark in c through c along d, from one end to the
// other.
func (b *Board) run(c, d Cell) []Cell {
	seat := b.seat(c)
	for b.Inside(c.minus(d)) && b.seat(c.minus(d)) == seat {
		c = c.minus(d)
	}
	var run []Cell
	for ; b.Inside(c) && b.seat(c) == seat; c = c.plus(d) {
		run = append(run, c)
	}
	return run
}

// longest is the longest line of seat's marks on the board.
func (b *Board) longest(seat int) int {
	best := 0
	for r := range b.Rows {
		for c := range b.Cols {
			cell := Cell{r, c}
			if b.seat(cell) != seat {
				continue
			}
			for _, d := range directions {
				best = max(best, len(b.run(cell, d)))
			}
		}
	}
	return best
}

// Rules is one game of marks in a row; its value is registered by the game's
// package.
type Rules struct {
	// Game is the game's name.
	Game string
	// Rows and Cols are the board's size, K the length of a winning line.
	Rows, Cols, K int
	// Gravity says pieces fall to the lowest free row of their column:
	// row 0 is the bottom, and is drawn so.
	Gravity bool
	// Place reads the play of a reply into the cell it takes on b, or says
	// why it cannot: fault.Malformed for a play that is not a move at all,
	// fault.Illegal for a move the rules forbid.
	Place func(b *Board, play json.RawMessage) (Cell, fault.Kind, string)
	// Wire is b as the bots see it in a play-turn message.
	Wire func(b *Board) any
}

// Name implements games.Rules.
func (r Rules) Name() string { return r.Game }

// SeedScore implements games.SeedScored: botsArena kept an Elo ladder of
// its tic-tac-toe and connect four.
func (Rules) SeedScore() string { return games.SeedElo }

// Protocol implements games.Rules: botsArena bots are programs.
func (Rules) Protocol() string { return games.ProtocolProgram }

// Seats implements games.Rules.
func (Rules) Seats() (min, max int) { return 2, 2 }

// MaxRequests implements games.Bounded: the init, then a turn for every
// other cell, the first player's share.
func (r Rules) MaxRequests(int) int { return 1 + (r.Rows*r.Cols+1)/2 }

// New implements games.Rules. The seed only makes the game-id: the game has
// no chance.
func (r Rules) New(seed int64, names []string) games.State {
	g := &game{r: r, names: make([]string, 2), id: botsarena.GameID(seed),
		board: Board{Rows: r.Rows, Cols: r.Cols, cells: make([]int, r.Rows*r.Cols)}}
	copy(g.names, names)
	return g
}

type phase int

const (
	initPhase phase = iota
	playPhase
	overPhase
)

var phaseNames = [...]string{initPhase: "init", playPhase: "play", overPhase: "over"}

type game struct {
	r       Rules
	names   []string
	id      string
	board   Board
	phase   phase
	turn    int    // the seat to play
	moves   []Cell // the pieces in the order played, seat 0 first
	lines   [][]Cell
	outcome games.Outcome
}

// who names seat in reasons: its bot and its mark.
func (g *game) who(seat int) string { return fmt.Sprintf("%s (%s)", g.names[seat], Marks[seat]) }

// ToMove implements games.State: both seats answer the init at once, then
// they take turns.
func (g *game) ToMove() []int {
	switch g.phase {
	case initPhase:
		return []int{0, 1}
	case playPhase:
		return []int{g.turn}
	}
	return nil
}

// Request implements games.State.
func (g *game) Request(seat int) json.RawMessage {
	m := botsarena.Message{GameID: g.id, Action: botsarena.Init, Game: g.r.Game, Players: 2, Board: "", PlayerIndex: seat}
	if g.phase != initPhase {
		m.Action, m.Board, m.You = botsarena.PlayTurn, g.r.Wire(&g.board), Marks[seat]
	}
	return m.Encode()
}

// event is a placed piece as a Move records it.
type event struct {
	Row   int        `json:"row"`
	Col   int        `json:"col"`
	Mark  string     `json:"mark"`
	Lines [][][2]int `json:"lines,omitempty"`
}

// Apply implements games.State.
func (g *game) Apply(answers []games.Answer) []games.Move {
	if len(answers) != len(g.ToMove()) {
		panic(fmt.Sprintf("%s: Apply with %d answers for seats %v", g.r.Game, len(answers), g.ToMove()))
	}
	if g.phase == initPhase {
		g.phase = playPhase
		return []games.Move{botsarena.InitMove(0, answers[0]), botsarena.InitMove(1, answers[1])}
	}
	seat := g.turn
	m, play, ok := botsarena.Judge(seat, answers[0])
	if !ok {
		g.lose(seat, m.Reason)
		return []games.Move{m}
	}
	cell, v, why := g.r.Place(&g.board, play)
	if v != fault.None {
		m.Verdict, m.Reason = v, why
		g.lose(seat, why)
		return []games.Move{m}
	}
	g.board.put(cell, seat)
	g.moves = append(g.moves, cell)
	ev := event{Row: cell.Row, Col: cell.Col, Mark: Marks[seat]}
	for _, d := range directions {
		if run := g.board.run(cell, d); len(run) >= g.r.K {
			g.lines = append(g.lines, run)
			ev.Lines = append(ev.Lines, pairs(run))
		}
	}
	m.Event = botsarena.Encode(ev)
	switch {
	case len(g.lines) > 0:
		l := g.lines[0]
		g.end(botsarena.Won(seat, inRow.Say(g.who(seat), len(l), l[0].Row, l[0].Col, l[len(l)-1].Row, l[len(l)-1].Col)))
	case len(g.moves) == g.r.Rows*g.r.Cols:
		g.end(botsarena.Drawn(boardFull.Say()))
	default:
		g.turn = 1 - seat
	}
	return []games.Move{m}
}

// How a game ends, for the screen to translate.
var (
	inRow     = phrase.Of("{1} has {2} in a row, from row {3} col {4} to row {5} col {6}", "{1} aligne {2}, de la ligne {3} colonne {4} à la ligne {5} colonne {6}")
	boardFull = phrase.Of("the board is full: a draw", "la grille est pleine : partie nulle")
)

func (g *game) lose(seat int, why string) {
	g.end(botsarena.Won(1-seat, botsarena.Lost.Say(g.who(seat), why)))
}

func (g *game) end(o games.Outcome) {
	g.phase, g.outcome = overPhase, o
}

// Outcome implements games.State.
func (g *game) Outcome() games.Outcome {
	o := g.outcome
	if o.Rank != nil {
		o.Score = g.Scores()
	}
	return o
}

// Scores implements games.State: each seat's longest line, K for the winner.
func (g *game) Scores() []int { return []int{g.board.longest(0), g.board.longest(1)} }

func pairs(cells []Cell) [][2]int {
	p := make([][2]int, len(cells))
	for i, c := range cells {
		p[i] = c.pair()
	}
	return p
}

// view is the JSON of View, read back by Board.
type view struct {
	Names   []string   `json:"names"`
	Marks   [2]string  `json:"marks"`
	Rows    int        `json:"rows"`
	Cols    int        `json:"cols"`
	K       int        `json:"k"`
	Gravity bool       `json:"gravity"`
	Phase   string     `json:"phase"`
	Turn    int        `json:"turn"`
	Cells   [][]string `json:"cells"`
	Moves   [][2]int   `json:"moves"`
	Winner  int        `json:"winner"`
	Lines   [][][2]int `json:"lines"`
}

// View implements games.State.
func (g *game) View() json.RawMessage {
	v := view{Names: g.names, Marks: Marks, Rows: g.r.Rows, Cols: g.r.Cols, K: g.r.K, Gravity: g.r.Gravity,
		Phase: phaseNames[g.phase], Turn: -1, Cells: make([][]string, g.r.Rows), Moves: pairs(g.moves),
		Winner: -1, Lines: make([][][2]int, len(g.lines))}
	if g.phase == playPhase {
		v.Turn = g.turn
	}
	for r := range v.Cells {
		v.Cells[r] = make([]string, g.r.Cols)
		for c := range v.Cells[r] {
			v.Cells[r][c] = g.board.Mark(Cell{r, c})
		}
	}
	if g.phase == overPhase && g.outcome.Rank[0] != g.outcome.Rank[1] {
		v.Winner = 0
		if g.outcome.Rank[1] == 1 {
			v.Winner = 1
		}
	}
	for i, l := range g.lines {
		v.Lines[i] = pairs(l)
	}
	return botsarena.Encode(v)
}

// Board implements games.Boarder: the board with its rows and columns
// numbered as the bots number them (row 0 at the bottom under gravity), the
// last piece in small letters, then who plays and how the game stands.
func (r Rules) Board(position json.RawMessage) (string, error) {
	var v view
	if err := json.Unmarshal(position, &v); err != nil {
		return "", fmt.Errorf("%s: not a view: %w", r.Game, err)
	}
	last := [2]int{-1, -1}
	if len(v.Moves) > 0 {
		last = v.Moves[len(v.Moves)-1]
	}
	var b strings.Builder
	header := func() {
		b.WriteString("   ")
		for c := range v.Cols {
			fmt.Fprintf(&b, " %d", c%10)
		}
		b.WriteByte('\n')
	}
	if !v.Gravity {
		header()
	}
	for i := range v.Cells {
		row := i
		if v.Gravity {
			row = len(v.Cells) - 1 - i
		}
		fmt.Fprintf(&b, "%2d ", row)
		for c, mark := range v.Cells[row] {
			switch {
			case mark == "":
				mark = "."
			case [2]int{row, c} == last:
				mark = strings.ToLower(mark)
			}
			fmt.Fprintf(&b, " %s", mark)
		}
		b.WriteByte('\n')
	}
	if v.Gravity {
		header()
	}
	players := make([]string, len(v.Names))
	for seat, name := range v.Names {
		players[seat] = v.Marks[seat%2] + " " + name
	}
	b.WriteString(strings.Join(players, "   ") + "\n")
	switch {
	case v.Phase == "init":
		b.WriteString("waiting for the init\n")
	case v.Phase == "play" && v.Turn >= 0 && v.Turn < 2:
		fmt.Fprintf(&b, "%s to play\n", v.Marks[v.Turn])
	case v.Winner >= 0 && v.Winner < 2 && len(v.Lines) > 0:
		fmt.Fprintf(&b, "%s wins: %s\n", v.Marks[v.Winner], lineText(v.Lines[0]))
	case v.Winner >= 0 && v.Winner < 2:
		fmt.Fprintf(&b, "%s wins: the other lost by a fault\n", v.Marks[v.Winner])
	default:
		b.WriteString("a draw\n")
	}
	return b.String(), nil
}

func lineText(line [][2]int) string {
	cells := make([]string, len(line))
	for i, c := range line {
		cells[i] = fmt.Sprintf("%d-%d", c[0], c[1])
	}
	return "row-col " + strings.Join(cells, " ")
}
