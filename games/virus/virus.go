// Package virus holds the rules of the virus game of the HX2 contest
// (SPEC §1): two sides on a 10×10 grid, each placement converts the
// opponent's neighbouring pieces, the side with more pieces at the end wins.
//
// Seats and sides: seat 0 always moves first and turns alternate strictly.
// Which side seat 0 plays ("player_1" or "player_2") is drawn from the game's
// seed, as the original drew player_1's "start" at random; the game dict's
// player_1.start is true exactly when seat 0 plays player_1.
//
// A side with no legal move is not asked (SPEC §1 Decision): its Request is
// nil and its pass is recorded at once with the reason "no legal move"; the
// history is the one the original referee wrote, where such a side passed.
// The game ends when the grid is full, neither side has a legal move, or
// MaxIdle consecutive turns went by without a placement.
package virus

import (
	"botjudge/games/phrase"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"botjudge/games"
	"botjudge/games/fault"
)

const (
	// Size is the number of rows and of columns of the grid.
	Size = 10
	// MaxIdle consecutive turns without a placement end the game; the
	// original looped forever when both sides kept passing.
	MaxIdle = 20
)

// sides are the side names bots see; a side's index plus one is its value
// in the grid (game["references"]), 0 being an empty cell.
var sides = [2]string{"player_1", "player_2"}

// Rules is the virus game; it is registered as "virus".
type Rules struct{}

func init() { games.Register(Rules{}) }

// Name implements games.Rules.
func (Rules) Name() string { return "virus" }

// Protocol implements games.Rules: bots are Python modules with ia(game, side).
func (Rules) Protocol() string { return games.ProtocolIA }

// Seats implements games.Rules.
func (Rules) Seats() (min, max int) { return 2, 2 }

// MaxRequests implements games.Bounded. Every turn places a piece or not;
// there are at most Size*Size-4 placements and fewer than MaxIdle turns
// without one between two placements, and a seat has every other turn.
func (Rules) MaxRequests(int) int { return ((Size*Size-4)*MaxIdle + MaxIdle + 1) / 2 }

// seedStream keeps the side draw independent of any other use of the same
// seed with the same generator.
const seedStream = 0x7669727573 // "virus"

// New starts a game; names holds one bot name per seat. The seed only
// decides which side seat 0 plays.
func (Rules) New(seed int64, names []string) games.State {
	g := &game{names: names}
	// The top bit of one PCG output: the PCG algorithm is fixed, so a
	// recorded seed gives the same sides in every Go release.
	g.side0 = int(rand.NewPCG(uint64(seed), seedStream).Uint64() >> 63)
	g.grid[0][0], g.grid[Size-1][Size-1] = 1, 1
	g.grid[0][Size-1], g.grid[Size-1][0] = 2, 2
	return g
}

// game is a virus game in progress. Sides are 0 (player_1) and 1 (player_2).
type game struct {
	names   []string
	side0   int // the side seat 0 plays
	grid    [Size][Size]int
	history []turn
	idle    int    // consecutive turns without a placement
	over    string // why the game ended, empty while it runs
}

// turn is one entry of the history: a placement or a pass of any kind.
type turn struct {
	side    int
	placed  bool
	cell    [2]int
	flipped [][2]int
}

// MarshalJSON writes the entry as the original's history does:
// [side, [row, col, [[r, c], ...]]] or [side, false].
func (t turn) MarshalJSON() ([]byte, error) {
	if !t.placed {
		return json.Marshal([]any{sides[t.side], false})
	}
	return json.Marshal([]any{sides[t.side], []any{t.cell[0], t.cell[1], t.flipped}})
}

func (t turn) event() json.RawMessage {
	var v any = struct {
		Side string `json:"side"`
		Pass bool   `json:"pass"`
	}{sides[t.side], true}
	if t.placed {
		v = struct {
			Side    string   `json:"side"`
			Cell    [2]int   `json:"cell"`
			Flipped [][2]int `json:"flipped"`
		}{sides[t.side], t.cell, t.flipped}
	}
	return mustJSON(v)
}

// mustJSON marshals the package's own values, made of ints, bools and
// strings only, for which encoding/json cannot fail.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func (g *game) sideOf(seat int) int { return g.side0 ^ seat }
func (g *game) seatOf(side int) int { return g.side0 ^ side }

// toMove is the seat whose turn it is; seat 0 moves on even turns.
func (g *game) toMove() int { return len(g.history) % 2 }

// ToMove implements games.State.
func (g *game) ToMove() []int {
	if g.over != "" {
		return nil
	}
	return []int{g.toMove()}
}

type player1 struct {
	Start bool     `json:"start"`
	Name  string   `json:"name"`
	Misc  struct{} `json:"misc"`
	Score int      `json:"score"`
}

type player2 struct {
	Name  string   `json:"name"`
	Misc  struct{} `json:"misc"`
	Score int      `json:"score"`
}

type references struct {
	Player1 int `json:"player_1"`
	Player2 int `json:"player_2"`
	Neutral int `json:"neutral"`
}

// Request implements games.State: {"side": ..., "game": the original's game
// dict}. Both misc are {} and there is no "ia": the harness in the bot's
// sandbox puts the bot's own misc and function in. A side with no legal move
// gets nil: it is not asked.
func (g *game) Request(seat int) json.RawMessage {
	if !g.canMove(g.sideOf(seat)) {
		return nil
	}
	history := g.history
	if history == nil {
		history = []turn{} // [] rather than null
	}
	req := struct {
		Side string `json:"side"`
		Game struct {
			Player1    player1         `json:"player_1"`
			Player2    player2         `json:"player_2"`
			Grid       [Size][Size]int `json:"grid"`
			References references      `json:"references"`
			History    []turn          `json:"history"`
		} `json:"game"`
	}{Side: sides[g.sideOf(seat)]}
	req.Game.Player1 = player1{Start: g.side0 == 0, Name: g.names[g.seatOf(0)], Score: g.count(0)}
	req.Game.Player2 = player2{Name: g.names[g.seatOf(1)], Score: g.count(1)}
	req.Game.Grid = g.grid
	req.Game.References = references{Player1: 1, Player2: 2}
	req.Game.History = history
	return mustJSON(req)
}

// Apply implements games.State. Every answer that is not a legal placement
// is a pass, recorded with its verdict and reason; a side with no legal move
// passes whatever it answered (it was not asked). Move.Answer is always
// valid JSON, so that moves can be stored: an answer that is not JSON (the
// NaN that Python's json.dumps writes for float("nan")) is kept as a JSON
// string of its text.
func (g *game) Apply(answers []games.Answer) []games.Move {
	if len(answers) != 1 || g.over != "" {
		panic(fmt.Sprintf("virus: Apply with %d answers, game over: %q", len(answers), g.over))
	}
	a := answers[0]
	m := games.Move{Seat: g.toMove(), Answer: a.Data}
	if len(a.Data) > 0 && !json.Valid(a.Data) {
		m.Answer = mustJSON(string(a.Data))
	}
	t := turn{side: g.sideOf(m.Seat)}
	if !g.canMove(t.side) {
		m.Reason = noMove.Say()
	} else if a.Fault != fault.None {
		m.Verdict, m.Reason = a.Fault, a.Detail
		if m.Reason == "" {
			m.Reason = string(a.Fault)
		}
	} else if cell, pass, why := parseAnswer(a.Data); why != "" {
		m.Verdict, m.Reason = fault.Malformed, why
	} else if pass {
		m.Reason = passed.Say()
	} else if why := g.illegal(t.side, cell); why != "" {
		m.Verdict, m.Reason = fault.Illegal, why
	} else {
		t = g.place(t.side, cell)
	}
	m.Event = t.event()
	g.history = append(g.history, t)
	g.checkEnd(t.placed)
	return []games.Move{m}
}

// parseAnswer reads what ia returned, serialised by Python's json.dumps:
// false is a pass, a list of two integers a cell. Anything else gets a
// reason in the student's terms (Python values).
func parseAnswer(data json.RawMessage) (cell [2]int, pass bool, reason string) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // keeps 1.0 apart from 1
	if dec.Decode(&v) != nil || dec.Decode(new(any)) != io.EOF {
		return cell, false, "expected [row, col] or False, got " + clip(string(bytes.TrimSpace(data)))
	}
	if v == false {
		return cell, true, ""
	}
	list, ok := v.([]any)
	if !ok {
		return cell, false, "expected [row, col] or False, got " + python(v)
	}
	if len(list) != 2 {
		return cell, false, fmt.Sprintf("expected [row, col] with exactly 2 integers, got %d values: %s", len(list), python(v))
	}
	for i, e := range list {
		n, ok := e.(json.Number)
		if !ok || strings.ContainsAny(string(n), ".eE") {
			return cell, false, fmt.Sprintf("row and column must be integers, got %s in %s", python(e), python(v))
		}
		x, err := strconv.Atoi(string(n))
		if err != nil || x < 0 || x >= Size {
			return cell, false, fmt.Sprintf("%s is off the board: row and column go from 0 to %d (no negative indexes)", python(v), Size-1)
		}
		cell[i] = x
	}
	return cell, false, ""
}

// python writes a decoded JSON value as Python would print it, so that a
// student recognises what the bot returned.
func python(v any) string {
	var b strings.Builder
	writePython(&b, v)
	return clip(b.String())
}

func writePython(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		b.WriteString(map[bool]string{true: "True", false: "False"}[v])
	case json.Number:
		b.WriteString(string(v))
	case string:
		b.WriteString(strconv.Quote(v))
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writePython(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Quote(k) + ": ")
			writePython(b, v[k])
		}
		b.WriteByte('}')
	}
}

// clip keeps reasons readable when a bot returns something huge.
func clip(s string) string {
	const max = 60
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}

// neighbours calls f for each cell around (r, c) on the grid, in reading
// order, so that flipped lists come out in a fixed order.
func neighbours(cell [2]int, f func(r, c int)) {
	for r := cell[0] - 1; r <= cell[0]+1; r++ {
		for c := cell[1] - 1; c <= cell[1]+1; c++ {
			if (r != cell[0] || c != cell[1]) && r >= 0 && r < Size && c >= 0 && c < Size {
				f(r, c)
			}
		}
	}
}

// illegal says why side may not place on cell, or "" if it may.
func (g *game) illegal(side int, cell [2]int) string {
	if v := g.grid[cell[0]][cell[1]]; v != 0 {
		return fmt.Sprintf("cell [%d, %d] is not empty: %s is there", cell[0], cell[1], sides[v-1])
	}
	if !g.touches(side, cell) {
		return fmt.Sprintf("cell [%d, %d] has none of your pieces among its 8 neighbours", cell[0], cell[1])
	}
	return ""
}

func (g *game) touches(side int, cell [2]int) bool {
	found := false
	neighbours(cell, func(r, c int) { found = found || g.grid[r][c] == side+1 })
	return found
}

// place puts side's piece on a legal cell and flips the opponent's pieces
// around it; flipped pieces do not flip anything themselves.
func (g *game) place(side int, cell [2]int) turn {
	t := turn{side: side, placed: true, cell: cell, flipped: [][2]int{}}
	g.grid[cell[0]][cell[1]] = side + 1
	neighbours(cell, func(r, c int) {
		if g.grid[r][c] == 2-side {
			g.grid[r][c] = side + 1
			t.flipped = append(t.flipped, [2]int{r, c})
		}
	})
	return t
}

func (g *game) canMove(side int) bool {
	for r := range Size {
		for c := range Size {
			if g.grid[r][c] == 0 && g.touches(side, [2]int{r, c}) {
				return true
			}
		}
	}
	return false
}

func (g *game) count(side int) int {
	n := 0
	for _, row := range g.grid {
		for _, v := range row {
			if v == side+1 {
				n++
			}
		}
	}
	return n
}

// The sentences of the moves and the ends, for the screen to translate.
var (
	gridFull     = phrase.Of("grid full", "grille pleine")
	noMoveEither = phrase.Of("no legal move for either side", "aucun coup possible pour les deux camps")
	idleTurns    = phrase.Count("{1} turn without a placement", "{1} turns without a placement", "{1} tour sans pose", "{1} tours sans pose")
	noMove       = phrase.Of("no legal move", "aucun coup possible")
	passed       = phrase.Of("pass", "passe")
)

func (g *game) checkEnd(placed bool) {
	g.idle++
	if placed {
		g.idle = 0
	}
	switch {
	case g.count(0)+g.count(1) == Size*Size:
		g.over = gridFull.Say()
	case !g.canMove(0) && !g.canMove(1):
		g.over = noMoveEither.Say()
	case g.idle >= MaxIdle:
		g.over = idleTurns.Say(MaxIdle)
	}
}

func (g *game) scores() [2]int {
	return [2]int{g.count(g.sideOf(0)), g.count(g.sideOf(1))}
}

// Scores implements games.State: each seat's pieces on the board.
func (g *game) Scores() []int {
	s := g.scores()
	return s[:]
}

// Outcome implements games.State: more pieces wins, equal is a draw
// ("equality" in the original).
func (g *game) Outcome() games.Outcome {
	s := g.scores()
	o := games.Outcome{Rank: []int{1, 1}, Score: s[:], Reason: g.over}
	switch {
	case s[0] > s[1]:
		o.Rank[1] = 2
	case s[1] > s[0]:
		o.Rank[0] = 2
	}
	return o
}

// view is the JSON of View, read back by Board.
type view struct {
	Grid       [Size][Size]int `json:"grid"`
	Sides      [2]string       `json:"sides"` // side of each seat
	Score      [2]int          `json:"score"` // pieces of each seat
	Turn       int             `json:"turn"`  // seat to move, -1 when over
	HistoryLen int             `json:"history_len"`
}

// View implements games.State.
func (g *game) View() json.RawMessage {
	v := view{
		Grid:       g.grid,
		Sides:      [2]string{sides[g.sideOf(0)], sides[g.sideOf(1)]},
		Score:      g.scores(),
		Turn:       -1,
		HistoryLen: len(g.history),
	}
	if g.over == "" {
		v.Turn = g.toMove()
	}
	return mustJSON(v)
}

// marks are the letters of the text board: empty, player_1, player_2.
const marks = ".XO"

// Board implements games.Boarder: the View as text for a terminal, rows and
// columns numbered as bots index them (grid[row][col]), X for player_1, O
// for player_2.
func (Rules) Board(viewJSON json.RawMessage) (string, error) {
	var v view
	if err := json.Unmarshal(viewJSON, &v); err != nil {
		return "", fmt.Errorf("virus: reading view: %w", err)
	}
	var b strings.Builder
	b.WriteString("   ")
	for c := range Size {
		fmt.Fprintf(&b, " %d", c)
	}
	b.WriteByte('\n')
	for r, row := range v.Grid {
		fmt.Fprintf(&b, "%2d ", r)
		for _, x := range row {
			m := byte('?')
			if x >= 0 && x < len(marks) {
				m = marks[x]
			}
			b.WriteByte(' ')
			b.WriteByte(m)
		}
		b.WriteByte('\n')
	}
	for seat, side := range v.Sides {
		mark := byte('?')
		for i, s := range sides {
			if s == side {
				mark = marks[i+1]
			}
		}
		fmt.Fprintf(&b, "seat %d: %c %s %d   ", seat, mark, side, v.Score[seat])
	}
	if v.Turn < 0 {
		fmt.Fprintf(&b, "game over after %d turns\n", v.HistoryLen)
	} else {
		fmt.Fprintf(&b, "turn %d: seat %d to move\n", v.HistoryLen+1, v.Turn)
	}
	return b.String(), nil
}
