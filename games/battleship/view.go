package battleship

import (
	"encoding/json"
	"fmt"
	"strings"

	"botjudge/games/botsarena"
)

type boatView struct {
	X1     int  `json:"x1"`
	Y1     int  `json:"y1"`
	X2     int  `json:"x2"`
	Y2     int  `json:"y2"`
	Length int  `json:"length"`
	Sunk   bool `json:"sunk"`
}

type shotView struct {
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Result string `json:"result"`
}

// view is the JSON of View, read back by Board.
type view struct {
	Names    []string      `json:"names"`
	Width    int           `json:"width"`
	Height   int           `json:"height"`
	Ships    [Lengths]int  `json:"ships"`
	Phase    string        `json:"phase"`
	Turn     int           `json:"turn"`
	Turns    int           `json:"turns"`
	MaxTurns int           `json:"max_turns"`
	Boats    [2][]boatView `json:"boats"`
	Shots    [2][]shotView `json:"shots"`
}

// View implements games.State.
func (g *game) View() json.RawMessage {
	v := view{Names: g.names, Width: g.r.Width, Height: g.r.Height, Ships: g.r.Ships, Phase: phaseNames[g.phase],
		Turn: g.turn, Turns: g.turns, MaxTurns: g.maxTurns()}
	for seat := range 2 {
		shooter := 1 - seat
		v.Boats[seat] = make([]boatView, len(g.fleets[seat]))
		for i, b := range g.fleets[seat] {
			v.Boats[seat][i] = boatView{b.x1, b.y1, b.x2, b.y2, b.length(), g.hits(shooter, b) == b.length()}
		}
		v.Shots[seat] = make([]shotView, len(g.shots[shooter]))
		for i, s := range g.shots[shooter] {
			v.Shots[seat][i] = shotView{s.x, s.y, viewResults[s.result]}
		}
	}
	return botsarena.Encode(v)
}

// Board implements games.Boarder: both grids side by side, x across and y
// down, with each seat's boats and the shots that landed on them.
func (Rules) Board(position json.RawMessage) (string, error) {
	var v view
	if err := json.Unmarshal(position, &v); err != nil {
		return "", fmt.Errorf("battleship: not a view: %w", err)
	}
	if v.Width <= 0 || v.Height <= 0 || v.Width > MaxSide || v.Height > MaxSide {
		return "", fmt.Errorf("battleship: a view of %d×%d cells", v.Width, v.Height)
	}
	var grids [2][][]byte
	for seat := range grids {
		grids[seat] = drawGrid(v.Width, v.Height, v.Boats[seat], v.Shots[seat])
	}
	width := 3 + 2*v.Width // of a grid with its row numbers
	var b strings.Builder
	for seat := range grids {
		name := ""
		if seat < len(v.Names) {
			name = v.Names[seat]
		}
		title := fmt.Sprintf("player %d: %s", seat, name)
		if seat == 0 {
			title = fmt.Sprintf("%-*s   ", width, title)
		}
		b.WriteString(title)
	}
	b.WriteString("\n")
	var columns strings.Builder
	columns.WriteString("   ")
	for x := range v.Width {
		fmt.Fprintf(&columns, " %d", x%10)
	}
	b.WriteString(columns.String() + "   " + columns.String() + "\n")
	for y := range v.Height {
		for seat := range grids {
			if seat > 0 {
				b.WriteString("   ")
			}
			fmt.Fprintf(&b, "%2d ", y%100)
			for x := range v.Width {
				fmt.Fprintf(&b, " %c", grids[seat][y][x])
			}
		}
		b.WriteString("\n")
	}
	switch v.Phase {
	case "init":
		b.WriteString("waiting for the boats\n")
	case "play":
		fmt.Fprintf(&b, "turn %d of %d: player %d to shoot\n", v.Turns+1, v.MaxTurns, v.Turn)
	default:
		fmt.Fprintf(&b, "game over after %d turns\n", v.Turns)
	}
	b.WriteString("# boat  x hit  X sunk  o miss  . sea\n")
	return b.String(), nil
}

// drawGrid is one seat's grid, grid[y][x], with its boats and the shots
// that landed on it.
func drawGrid(w, h int, boats []boatView, shots []shotView) [][]byte {
	grid := make([][]byte, h)
	for y := range grid {
		grid[y] = []byte(strings.Repeat(".", w))
	}
	inside := func(x, y int) bool { return x >= 0 && x < w && y >= 0 && y < h }
	for _, bt := range boats {
		mark := byte('#')
		if bt.Sunk {
			mark = 'X'
		}
		for x := max(bt.X1, 0); x <= min(bt.X2, w-1); x++ {
			for y := max(bt.Y1, 0); y <= min(bt.Y2, h-1); y++ {
				grid[y][x] = mark
			}
		}
	}
	for _, s := range shots {
		if !inside(s.X, s.Y) {
			continue
		}
		switch grid[s.Y][s.X] {
		case '.':
			grid[s.Y][s.X] = 'o'
		case '#':
			grid[s.Y][s.X] = 'x'
		}
	}
	return grid
}
