package battleships

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Board implements games.Boarder: position, a battleships View, as text with
// both grids side by side, for `judge play` and the logs. It fails only when
// position is not such a View.
func (Rules) Board(position json.RawMessage) (string, error) {
	var v view
	if err := json.Unmarshal(position, &v); err != nil {
		return "", fmt.Errorf("battleships: not a view: %w", err)
	}
	var grids [2][side][side]byte
	for seat := range grids {
		drawGrid(&grids[seat], v.Ships[seat], v.Shots[seat])
	}

	const width = 24 // from the left of one grid to the left of the next
	var b strings.Builder
	for seat := range grids {
		name := ""
		if seat < len(v.Names) {
			name = v.Names[seat]
		}
		title := fmt.Sprintf("player %d: %s", seat, name)
		if seat == 0 {
			title = fmt.Sprintf("%-*s", width-2, title) + "  "
		}
		b.WriteString(title)
	}
	b.WriteString("\n")
	const columns = "   0 1 2 3 4 5 6 7"
	b.WriteString(columns + strings.Repeat(" ", width-len(columns)) + columns + "\n")
	for r := range side {
		for seat := range grids {
			fmt.Fprintf(&b, "%d ", r)
			for c := range side {
				fmt.Fprintf(&b, " %c", grids[seat][c][r])
			}
			if seat == 0 {
				b.WriteString(strings.Repeat(" ", width-len(columns)))
			}
		}
		b.WriteString("\n")
	}
	switch v.Phase {
	case "init":
		b.WriteString("waiting for the fleets\n")
	case "play":
		fmt.Fprintf(&b, "player %d to shoot\n", v.Turn)
	default:
		b.WriteString("game over\n")
	}
	b.WriteString("# ship  x hit  X sunk  o miss  . sea\n")
	return b.String(), nil
}

// drawGrid fills grid[c][r] with one seat's ships and the shots that landed
// on them.
func drawGrid(grid *[side][side]byte, ships []ship, shots []shotView) {
	for c := range side {
		for r := range side {
			grid[c][r] = '.'
		}
	}
	shot := func(c, r int) bool {
		for _, s := range shots {
			if s.C == c && s.R == r {
				return true
			}
		}
		return false
	}
	for _, s := range ships {
		cells := s.cells()
		hits := 0
		for _, p := range cells {
			if onGrid(p[0], p[1]) && shot(p[0], p[1]) {
				hits++
			}
		}
		mark := byte('#')
		if hits == s.size {
			mark = 'X'
		}
		for _, p := range cells {
			if onGrid(p[0], p[1]) {
				grid[p[0]][p[1]] = mark
			}
		}
	}
	for _, s := range shots {
		if !onGrid(s.C, s.R) {
			continue
		}
		switch {
		case grid[s.C][s.R] == '.':
			grid[s.C][s.R] = 'o'
		case grid[s.C][s.R] == '#':
			grid[s.C][s.R] = 'x'
		}
	}
}

// onGrid guards the drawing against a view that was not made by this package.
func onGrid(c, r int) bool { return c >= 0 && c < side && r >= 0 && r < side }
