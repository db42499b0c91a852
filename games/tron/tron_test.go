package tron

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"botjudge/games"
	"botjudge/games/fault"
	"botjudge/games/gamestest"
)

// setup is a game on a w×h grid whose seats start on the given cells, past
// the init step.
func setup(t *testing.T, w, h int, starts ...cell) *game {
	t.Helper()
	names := make([]string, len(starts))
	for i := range names {
		names[i] = fmt.Sprintf("bot%d", i)
	}
	g := Rules{Width: w, Height: h}.New(1, names).(*game)
	for i := range g.grid {
		g.grid[i] = free
	}
	for seat, c := range starts {
		g.trails[seat] = []cell{c}
		g.grid[g.index(c)] = seat
	}
	g.Apply(make([]games.Answer, len(starts)))
	return g
}

func play(dir string) games.Answer {
	return games.Answer{Data: json.RawMessage(`{"play":"` + dir + `"}`)}
}

// turn plays one turn, one answer per seat alive, and returns the moves by
// seat.
func turn(t *testing.T, g *game, answers ...games.Answer) map[int]games.Move {
	t.Helper()
	if len(answers) != len(g.ToMove()) {
		t.Fatalf("%d answers for seats %v", len(answers), g.ToMove())
	}
	moves := map[int]games.Move{}
	for _, m := range g.Apply(answers) {
		moves[m.Seat] = m
	}
	return moves
}

func TestRegistered(t *testing.T) {
	gamestest.Registered(t, "tron", gamestest.Registration{Protocol: games.ProtocolProgram, Seats: [2]int{2, 12}, Rounds: 2, MaxRequests: 10001})
}

func TestStartCells(t *testing.T) {
	names := make([]string, 12)
	starts := func(seed int64) []cell {
		g := Rules{}.New(seed, names).(*game)
		var cs []cell
		seen := map[cell]bool{}
		for seat, tr := range g.trails {
			if len(tr) != 1 || !g.inside(tr[0]) || g.at(tr[0]) != seat {
				t.Fatalf("seed %d: seat %d starts on %v", seed, seat, tr)
			}
			if seen[tr[0]] {
				t.Fatalf("seed %d: two seats start on %v", seed, tr[0])
			}
			seen[tr[0]] = true
			cs = append(cs, tr[0])
		}
		return cs
	}
	if !reflect.DeepEqual(starts(7), starts(7)) {
		t.Error("the same seed gives other start cells")
	}
	if reflect.DeepEqual(starts(7), starts(8)) {
		t.Error("the seed does not decide the start cells")
	}
	// A grid smaller than the seats: the seats without a cell are out.
	g := Rules{Width: 1, Height: 2}.New(1, []string{"a", "b", "c"}).(*game)
	if g.fates[2].Cause != NoRoom || len(g.ToMove()) != 2 {
		t.Errorf("third seat on a 2-cell grid: %+v, to move %v", g.fates[2], g.ToMove())
	}
}

func TestRequests(t *testing.T) {
	g := Rules{Width: 5, Height: 4}.New(42, []string{"a", "b", "c"}).(*game)
	type request struct {
		GameID      string          `json:"game-id"`
		Action      string          `json:"action"`
		Game        string          `json:"game"`
		Board       json.RawMessage `json:"board"`
		Players     int             `json:"players"`
		PlayerIndex *int            `json:"player-index"`
		Width       int             `json:"width"`
		Height      int             `json:"height"`
	}
	read := func(seat int) request {
		t.Helper()
		var r request
		raw := g.Request(seat)
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatalf("request %s: %v", raw, err)
		}
		return r
	}
	r := read(0)
	if r.GameID != "42" || r.Action != "init" || r.Game != "tron" || string(r.Board) != `""` || r.Players != 3 ||
		r.PlayerIndex == nil || *r.PlayerIndex != 0 || r.Width != 5 || r.Height != 4 {
		t.Errorf("init request %+v", r)
	}
	// Init replies are not judged: garbage, nothing or a fault go on.
	moves := g.Apply([]games.Answer{{Data: json.RawMessage(`"hi"`)}, {}, {Fault: fault.Crash, Detail: "exit status 1"}})
	for _, m := range moves {
		if !m.Unjudged || m.Verdict != fault.None {
			t.Errorf("init move %+v, want unjudged", m)
		}
	}
	if !strings.Contains(moves[2].Reason, "exit status 1") {
		t.Errorf("the init's fault is not told: %q", moves[2].Reason)
	}
	heads := make([]cell, 3)
	for seat := range heads {
		heads[seat] = g.trails[seat][0]
	}
	r = read(1)
	if r.Action != "play-turn" || *r.PlayerIndex != 1 || r.GameID != "42" {
		t.Errorf("play-turn %+v", r)
	}
	// Play one turn where seat 2 dies: the board is the trails head first,
	// [] for the dead.
	dir := func(c cell) string {
		if c.x+1 < 5 && g.at(cell{c.x + 1, c.y}) == free {
			return "x+"
		}
		return "x-"
	}
	turn(t, g, play(dir(heads[0])), play(dir(heads[1])), games.Answer{Fault: fault.Timeout})
	var board [][][2]int
	if err := json.Unmarshal(read(0).Board, &board); err != nil {
		t.Fatal(err)
	}
	for seat := range 2 {
		tr := g.trails[seat]
		want := [][2]int{{tr[1].x, tr[1].y}, {tr[0].x, tr[0].y}}
		if !reflect.DeepEqual(board[seat], want) {
			t.Errorf("seat %d board %v, want head first %v", seat, board[seat], want)
		}
	}
	if len(board) != 3 || board[2] == nil || len(board[2]) != 0 {
		t.Errorf("the dead seat's trail is %v, want []", board[2])
	}
}

func TestDeaths(t *testing.T) {
	t.Run("wall", func(t *testing.T) {
		g := setup(t, 5, 5, cell{0, 2}, cell{4, 4})
		turn(t, g, play("y+"), play("y-"))
		m := turn(t, g, play("x-"), play("y-"))
		if f := g.fates[0]; f.Turn != 2 || f.Cause != Wall || !reflect.DeepEqual(f.At, []int{0, 3}) || m[0].Verdict != fault.None {
			t.Errorf("off the grid on turn 2: fate %+v, move %+v", f, m[0])
		}
		if !strings.Contains(m[0].Reason, "left the grid at [-1,3]") {
			t.Errorf("reason %q", m[0].Reason)
		}
		if g.over == "" || g.ToMove() != nil {
			t.Error("one bot left: the game goes on")
		}
		if o := g.Outcome(); !reflect.DeepEqual(o.Rank, []int{2, 1}) || !reflect.DeepEqual(o.Score, []int{1, 2}) {
			t.Errorf("outcome %+v", o)
		}
	})
	t.Run("fault", func(t *testing.T) {
		g := setup(t, 5, 5, cell{0, 0}, cell{4, 4}, cell{2, 2})
		m := turn(t, g, play("x+"), games.Answer{Fault: fault.Crash, Detail: "killed by SIGSEGV"}, games.Answer{Data: json.RawMessage(`{"play":"up"}`)})
		if f := g.fates[1]; f.Turn != 1 || f.Cause != "crash" || m[1].Verdict != fault.Crash || m[1].Reason != "crash: killed by SIGSEGV" {
			t.Errorf("crash: fate %+v, move %+v", f, m[1])
		}
		if f := g.fates[2]; f.Cause != "malformed" || m[2].Verdict != fault.Malformed || !strings.Contains(m[2].Reason, `got "up"`) {
			t.Errorf("a wrong answer: fate %+v, move %+v", f, m[2])
		}
		if !reflect.DeepEqual(g.Outcome().Rank, []int{1, 2, 2}) {
			t.Errorf("ranks %v: the two dead draw", g.Outcome().Rank)
		}
	})
	t.Run("head on", func(t *testing.T) {
		g := setup(t, 5, 5, cell{1, 2}, cell{3, 2}, cell{0, 0})
		m := turn(t, g, play("x+"), play("x-"), play("x+"))
		for seat, other := range map[int]int{0: 1, 1: 0} {
			if f := g.fates[seat]; f.Turn != 1 || f.Cause != HeadOn || !reflect.DeepEqual(f.By, []int{other}) || !reflect.DeepEqual(f.At, []int{2, 2}) {
				t.Errorf("seat %d: %+v", seat, f)
			}
		}
		if !strings.Contains(m[0].Reason, "collided head on at [2,2] with bot1 (player 1)") {
			t.Errorf("reason %q", m[0].Reason)
		}
		if !reflect.DeepEqual(g.Outcome().Rank, []int{2, 2, 1}) || g.over == "" {
			t.Errorf("ranks %v, over %q", g.Outcome().Rank, g.over)
		}
	})
	t.Run("own trail", func(t *testing.T) {
		g := setup(t, 5, 5, cell{0, 0}, cell{4, 4})
		turn(t, g, play("x+"), play("x-"))
		turn(t, g, play("x-"), play("x-"))
		if f := g.fates[0]; f.Turn != 2 || f.Cause != Trail || !reflect.DeepEqual(f.By, []int{0}) {
			t.Errorf("own trail: %+v", f)
		}
	})
	t.Run("cell taken at the start of the turn", func(t *testing.T) {
		// Seat 1 runs into seat 0's head cell while seat 0 dies on the wall:
		// the cell was taken when the turn began, so seat 1 dies too.
		g := setup(t, 5, 5, cell{0, 2}, cell{1, 2}, cell{4, 4})
		turn(t, g, play("x-"), play("x-"), play("y-"))
		if g.fates[0].Cause != Wall || g.fates[1].Cause != Trail || !reflect.DeepEqual(g.fates[1].By, []int{0}) {
			t.Errorf("fates %+v", g.fates)
		}
		// Swapping heads: both enter a taken cell.
		g = setup(t, 5, 5, cell{1, 1}, cell{2, 1}, cell{4, 4})
		turn(t, g, play("x+"), play("x-"), play("y-"))
		if g.fates[0].Cause != Trail || g.fates[1].Cause != Trail {
			t.Errorf("swap: %+v", g.fates)
		}
	})
	t.Run("dead trails erased", func(t *testing.T) {
		g := setup(t, 5, 5, cell{0, 0}, cell{2, 0}, cell{4, 4})
		turn(t, g, play("y+"), games.Answer{Fault: fault.Timeout}, play("y-"))
		if g.at(cell{2, 0}) != free || g.trails[1] != nil {
			t.Fatalf("the dead trail is still on the grid")
		}
		turn(t, g, play("x+"), play("y-"))
		turn(t, g, play("y-"), play("y-"))
		if m := turn(t, g, play("x+"), play("y-")); g.fates[0].Turn != 0 || m[0].Verdict != fault.None {
			t.Errorf("moving into an erased cell killed: %+v", g.fates[0])
		}
	})
}

func TestScoringOfManyPlayers(t *testing.T) {
	// bot0 dies on turn 2; bot1 and bot2 on turn 3 together: they draw with
	// each other and both beat bot0; bot3 survives and beats everyone.
	g := setup(t, 9, 9, cell{0, 0}, cell{3, 4}, cell{5, 4}, cell{8, 8})
	turn(t, g, play("y+"), play("y+"), play("y+"), play("y-"))
	turn(t, g, play("x-"), play("y+"), play("y+"), play("y-"))
	turn(t, g, play("x+"), play("x-"), play("y-"))
	o := g.Outcome()
	if !reflect.DeepEqual(o.Rank, []int{4, 2, 2, 1}) {
		t.Fatalf("ranks %v (fates %+v)", o.Rank, o.Fates)
	}
	for _, c := range []struct {
		a, b int
		want float64
	}{{1, 2, 0.5}, {1, 0, 1}, {3, 1, 1}, {0, 3, 0}} {
		if got := o.Points(c.a, c.b); got != c.want {
			t.Errorf("points of %d against %d: %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if !strings.Contains(o.Reason, "bot3 is the last one alive, after 3 turns") {
		t.Errorf("reason %q", o.Reason)
	}
}

// TestGolden plays a small 4-bot game with scripted answers and keeps its
// moves, outcome, view and board.
func TestGolden(t *testing.T) {
	r := Rules{Width: 8, Height: 6}
	g := r.New(3, []string{"north", "south", "east", "west"})
	var b bytes.Buffer
	dirs := []string{"x+", "y+", "x-", "y-"}
	for step := 0; len(g.ToMove()) > 0; step++ {
		var answers []games.Answer
		for i, seat := range g.ToMove() {
			a := play(dirs[(seat+step/3+i)%4])
			if seat == 0 && step == 3 {
				a = games.Answer{Fault: fault.Timeout, Detail: "no answer within 10s"}
			}
			answers = append(answers, a)
		}
		fmt.Fprintf(&b, "step %d\n", step)
		for _, m := range g.Apply(answers) {
			line, _ := json.Marshal(m)
			fmt.Fprintf(&b, "= %s\n", line)
		}
	}
	o, _ := json.Marshal(g.Outcome())
	board, err := r.Board(g.View())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "outcome %s\nview %s\n%s", o, g.View(), board)
	gamestest.Golden(t, filepath.Join("testdata", "game.golden"), b.Bytes())
}

func FuzzDirection(f *testing.F) {
	for _, s := range []string{`"x+"`, `"y-"`, `4`, `[]`, `null`, `"up"`, `"`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, why := direction(data)
		known := false
		for _, c := range directions {
			known = known || c == d
		}
		if why == "" && !known {
			t.Errorf("%q accepted as %v", data, d)
		}
		if why != "" && d != (cell{}) {
			t.Errorf("%q refused but gave %v", data, d)
		}
	})
}
