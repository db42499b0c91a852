package virus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"botjudge/games"
	"botjudge/games/fault"
	"botjudge/games/gamestest"
)

// Seed 1 gives seat 0 player_1 and seed 0 gives it player_2;
// TestSeedDecidesSides checks it, the other tests rely on it.
const (
	seedSeat0Player1 = 1
	seedSeat0Player2 = 0
)

func newGame(seed int64) *game {
	return Rules{}.New(seed, []string{"alice", "bob"}).(*game)
}

// position builds a game in the middle of play from the rows of the grid
// that are not empty, by number ('.' empty, 'X' player_1, 'O' player_2; the
// cells past a row's string are empty), with seat 0 playing side0 and seat
// 0 to move.
func position(t *testing.T, side0 int, rows map[int]string) *game {
	t.Helper()
	g := &game{names: []string{"alice", "bob"}, side0: side0}
	for r, line := range rows {
		if r < 0 || r >= Size || len(line) > Size {
			t.Fatalf("row %d of %d cells", r, len(line))
		}
		for c := range Size {
			if c < len(line) {
				g.grid[r][c] = strings.IndexByte(marks, line[c])
			}
		}
	}
	return g
}

func apply(t *testing.T, g *game, data string) games.Move {
	t.Helper()
	return applyAnswer(t, g, games.Answer{Data: json.RawMessage(data)})
}

func applyAnswer(t *testing.T, g *game, a games.Answer) games.Move {
	t.Helper()
	moves := g.Apply([]games.Answer{a})
	if len(moves) != 1 {
		t.Fatalf("Apply returned %d moves", len(moves))
	}
	return moves[0]
}

func TestRegistered(t *testing.T) {
	gamestest.Registered(t, "virus", gamestest.Registration{Protocol: games.ProtocolIA, Seats: [2]int{2, 2}, Rounds: 1, MaxRequests: 970})
}

func TestSeedDecidesSides(t *testing.T) {
	if g := newGame(seedSeat0Player1); g.side0 != 0 {
		t.Errorf("seed %d: seat 0 plays %s", seedSeat0Player1, sides[g.side0])
	}
	if g := newGame(seedSeat0Player2); g.side0 != 1 {
		t.Errorf("seed %d: seat 0 plays %s", seedSeat0Player2, sides[g.side0])
	}
	player1 := 0
	for seed := range int64(200) {
		if newGame(seed).side0 == 0 {
			player1++
		}
	}
	if player1 < 70 || player1 > 130 {
		t.Errorf("seat 0 played player_1 in %d games of 200", player1)
	}
	for _, seed := range []int64{seedSeat0Player1, seedSeat0Player2} {
		g := newGame(seed)
		if got := g.ToMove(); !reflect.DeepEqual(got, []int{0}) {
			t.Errorf("seed %d: ToMove = %v, want [0]", seed, got)
		}
		var req struct {
			Side string
			Game struct {
				Player1 struct{ Start bool } `json:"player_1"`
			}
		}
		if err := json.Unmarshal(g.Request(0), &req); err != nil {
			t.Fatal(err)
		}
		if req.Game.Player1.Start != (req.Side == "player_1") {
			t.Errorf("seed %d: seat 0 plays %s but start is %v", seed, req.Side, req.Game.Player1.Start)
		}
	}
}

func TestAnswers(t *testing.T) {
	// Start position, seat 0 plays player_1 (X on [0,0] and [9,9]).
	tests := []struct {
		data    string
		verdict fault.Kind
		reason  string // "" for a placement
	}{
		{"[0, 1]", fault.None, ""},
		{"[1,1]", fault.None, ""},
		{" [ 8 , 9 ] \n", fault.None, ""},
		{"false", fault.None, "pass"},
		{"[-1, 0]", fault.Malformed, "[-1, 0] is off the board: row and column go from 0 to 9 (no negative indexes)"},
		{"[0, -9]", fault.Malformed, "[0, -9] is off the board: row and column go from 0 to 9 (no negative indexes)"},
		{"[0, 10]", fault.Malformed, "[0, 10] is off the board: row and column go from 0 to 9 (no negative indexes)"},
		{"[99999999999999999999, 0]", fault.Malformed, "[99999999999999999999, 0] is off the board: row and column go from 0 to 9 (no negative indexes)"},
		{"true", fault.Malformed, "expected [row, col] or False, got True"},
		{"[true, 1]", fault.Malformed, "row and column must be integers, got True in [True, 1]"},
		{"[0, false]", fault.Malformed, "row and column must be integers, got False in [0, False]"},
		{"[1.0, 1]", fault.Malformed, "row and column must be integers, got 1.0 in [1.0, 1]"},
		{"[1, 1e0]", fault.Malformed, "row and column must be integers, got 1e0 in [1, 1e0]"},
		{"[1, 1E0]", fault.Malformed, "row and column must be integers, got 1E0 in [1, 1E0]"},
		{`"3,4"`, fault.Malformed, `expected [row, col] or False, got "3,4"`},
		{`["0", "1"]`, fault.Malformed, `row and column must be integers, got "0" in ["0", "1"]`},
		{"[[0, 1]]", fault.Malformed, "expected [row, col] with exactly 2 integers, got 1 values: [[0, 1]]"},
		{"[[0], [1]]", fault.Malformed, "row and column must be integers, got [0] in [[0], [1]]"},
		{"[0, 1, 2]", fault.Malformed, "expected [row, col] with exactly 2 integers, got 3 values: [0, 1, 2]"},
		{"[]", fault.Malformed, "expected [row, col] with exactly 2 integers, got 0 values: []"},
		{"null", fault.Malformed, "expected [row, col] or False, got None"},
		{"0", fault.Malformed, "expected [row, col] or False, got 0"},
		{`{"row": 0, "col": 1}`, fault.Malformed, `expected [row, col] or False, got {"col": 1, "row": 0}`},
		{"NaN", fault.Malformed, "expected [row, col] or False, got NaN"},
		{"[NaN, 1]", fault.Malformed, "expected [row, col] or False, got [NaN, 1]"},
		{"", fault.Malformed, "expected [row, col] or False, got "},
		{"[0, 1] [0, 2]", fault.Malformed, "expected [row, col] or False, got [0, 1] [0, 2]"},
		{`"` + strings.Repeat("a", 100) + `"`, fault.Malformed, `expected [row, col] or False, got "` + strings.Repeat("a", 59) + "…"},
		{"[0, 0]", fault.Illegal, "cell [0, 0] is not empty: player_1 is there"},
		{"[0, 9]", fault.Illegal, "cell [0, 9] is not empty: player_2 is there"},
		{"[5, 5]", fault.Illegal, "cell [5, 5] has none of your pieces among its 8 neighbours"},
		{"[1, 8]", fault.Illegal, "cell [1, 8] has none of your pieces among its 8 neighbours"},
	}
	for _, tt := range tests {
		t.Run(tt.data, func(t *testing.T) {
			g := newGame(seedSeat0Player1)
			before := g.grid
			m := apply(t, g, tt.data)
			if m.Seat != 0 || m.Verdict != tt.verdict || m.Reason != tt.reason {
				t.Errorf("got seat %d %q %q, want seat 0 %q %q", m.Seat, m.Verdict, m.Reason, tt.verdict, tt.reason)
			}
			want := json.RawMessage(tt.data)
			if tt.data != "" && !json.Valid(want) {
				want, _ = json.Marshal(tt.data)
			}
			if !bytes.Equal(m.Answer, want) {
				t.Errorf("answer recorded as %s, want %s", m.Answer, want)
			}
			if _, err := json.Marshal(m); err != nil {
				t.Errorf("the move cannot be stored: %v", err)
			}
			placed := tt.verdict == fault.None && tt.reason == ""
			wantEvent := `{"side":"player_1","pass":true}`
			if placed {
				var cell [2]int
				if err := json.Unmarshal([]byte(tt.data), &cell); err != nil {
					t.Fatal(err)
				}
				wantEvent = fmt.Sprintf(`{"side":"player_1","cell":[%d,%d],"flipped":[]}`, cell[0], cell[1])
				before[cell[0]][cell[1]] = 1
			}
			if string(m.Event) != wantEvent {
				t.Errorf("event %s, want %s", m.Event, wantEvent)
			}
			if g.grid != before {
				t.Errorf("grid is\n%v\nwant\n%v", g.grid, before)
			}
			if got := g.ToMove(); !reflect.DeepEqual(got, []int{1}) {
				t.Errorf("ToMove = %v, want [1]", got)
			}
		})
	}
}

func TestFaults(t *testing.T) {
	for _, v := range []fault.Kind{fault.Timeout, fault.Error, fault.Crash, fault.OOM, fault.Output, fault.Malformed} {
		for _, detail := range []string{"", "what went wrong"} {
			g := newGame(seedSeat0Player2)
			before := g.grid
			m := applyAnswer(t, g, games.Answer{Fault: v, Detail: detail})
			want := games.Move{Seat: 0, Verdict: v, Reason: detail, Event: json.RawMessage(`{"side":"player_2","pass":true}`)}
			if detail == "" {
				want.Reason = string(v)
			}
			if !reflect.DeepEqual(m, want) {
				t.Errorf("%s %q: got %+v, want %+v", v, detail, m, want)
			}
			if g.grid != before || len(g.history) != 1 || g.history[0].placed {
				t.Errorf("%s: a fault must be a pass, history %+v", v, g.history)
			}
			if got := g.ToMove(); !reflect.DeepEqual(got, []int{1}) {
				t.Errorf("%s: ToMove = %v, want [1]", v, got)
			}
		}
	}
}

func TestFlipsWithoutChain(t *testing.T) {
	g := position(t, 0, map[int]string{0: "X", 3: "...OOO", 4: "...O.OO", 5: "...XOO", 9: "O........X"})
	m := apply(t, g, "[4, 4]")
	want := `{"side":"player_1","cell":[4,4],"flipped":[[3,3],[3,4],[3,5],[4,3],[4,5],[5,4],[5,5]]}`
	if m.Verdict != fault.None || string(m.Event) != want {
		t.Fatalf("got %q %q %s, want event %s", m.Verdict, m.Reason, m.Event, want)
	}
	// [4,6] touches flipped pieces only: no chain.
	after := position(t, 0, map[int]string{0: "X", 3: "...XXX", 4: "...XXXO", 5: "...XXX", 9: "O........X"})
	if g.grid != after.grid {
		t.Errorf("grid is\n%v\nwant\n%v", g.grid, after.grid)
	}
}

func TestSideWithoutPieces(t *testing.T) {
	// Seat 0 plays player_2, which has no piece left: it is not asked (its
	// Request is nil), its pass is recorded as "no legal move" with no fault
	// whatever it would have said, the history reads as the original's, and
	// the game goes on since player_1 can move.
	g := position(t, 1, map[int]string{0: "XX", 9: "X........X"})
	if req := g.Request(0); req != nil {
		t.Errorf("Request(0) = %s, want nil: a side with no legal move is not asked", req)
	}
	for _, a := range []games.Answer{{}, {Fault: fault.Timeout}, {Data: json.RawMessage("[0, 2]")}} {
		m := applyAnswer(t, g, a)
		if m.Verdict != fault.None || m.Reason != "no legal move" {
			t.Errorf("answer %+v: got %q %q, want no fault and \"no legal move\"", a, m.Verdict, m.Reason)
		}
		if got := g.ToMove(); !reflect.DeepEqual(got, []int{1}) {
			t.Fatalf("ToMove = %v, want [1]", got)
		}
		if g.Request(1) == nil {
			t.Fatal("Request(1) = nil, but player_1 can move")
		}
		if m := apply(t, g, "false"); m.Verdict != fault.None || m.Reason != "pass" {
			t.Errorf("got %q %q", m.Verdict, m.Reason)
		}
	}
	if got, want := string(mustJSON(g.history[0])), `["player_2",false]`; got != want {
		t.Errorf("history entry = %s, want %s as the original writes a pass", got, want)
	}
	if g.over != "" {
		t.Errorf("game over: %s", g.over)
	}
}

func TestBothStuck(t *testing.T) {
	// Never reached in play (some piece always borders an empty cell until
	// the grid is full), but it is the original's rule.
	g := position(t, 0, map[int]string{})
	apply(t, g, "false")
	if g.ToMove() != nil {
		t.Errorf("ToMove = %v, want none", g.ToMove())
	}
	want := games.Outcome{Rank: []int{1, 1}, Score: []int{0, 0}, Reason: "no legal move for either side"}
	if got := g.Outcome(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestGridFullDraw(t *testing.T) {
	g := position(t, 1, map[int]string{0: ".OOOOOOOOO", 1: "OOOOOOOOOO", 2: "OOOOOOOOOO", 3: "OOOOOOOOOO", 4: "OOOOOOOOOO",
		5: "XXXXXXXXXX", 6: "XXXXXXXXXX", 7: "XXXXXXXXXX", 8: "XXXXXXXXXX", 9: "XXXXXXXXXX"})
	apply(t, g, "[0, 0]")
	want := games.Outcome{Rank: []int{1, 1}, Score: []int{50, 50}, Reason: "grid full"}
	if got := g.Outcome(); !reflect.DeepEqual(got, want) || g.ToMove() != nil {
		t.Errorf("got %+v to move %v, want %+v", got, g.ToMove(), want)
	}
}

func TestIdleTurns(t *testing.T) {
	g := newGame(seedSeat0Player1)
	pass := func(n int) {
		for range n {
			if m := applyAnswer(t, g, games.Answer{Fault: fault.Timeout}); m.Verdict != fault.Timeout {
				t.Fatalf("got %+v", m)
			}
		}
	}
	pass(MaxIdle - 1)
	if m := apply(t, g, "[0, 8]"); m.Seat != 1 || m.Verdict != fault.None || m.Reason != "" {
		t.Fatalf("seat 1 (player_2) could not place: %+v", m)
	}
	pass(MaxIdle - 1)
	if len(g.ToMove()) != 1 {
		t.Fatalf("game ended after %d passes following a placement: %s", MaxIdle-1, g.over)
	}
	pass(1)
	if g.ToMove() != nil {
		t.Fatal("game still running")
	}
	o := g.Outcome()
	if o.Reason != "20 turns without a placement" || !reflect.DeepEqual(o.Rank, []int{2, 1}) || !reflect.DeepEqual(o.Score, []int{2, 3}) {
		t.Errorf("got %+v", o)
	}
}

func TestHistory(t *testing.T) {
	g := position(t, 0, map[int]string{0: "XX.O", 9: "O........X"})
	apply(t, g, "[0, 2]")
	applyAnswer(t, g, games.Answer{Fault: fault.Error, Detail: "NameError"})
	apply(t, g, "[1, 1]")
	apply(t, g, "false")
	var req struct {
		Game struct{ History any }
	}
	if err := json.Unmarshal(g.Request(0), &req); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(req.Game.History)
	want := `[["player_1",[0,2,[[0,3]]]],["player_2",false],["player_1",[1,1,[]]],["player_2",false]]`
	if string(got) != want {
		t.Errorf("history %s\nwant    %s", got, want)
	}
}

var numberLists = regexp.MustCompile(`\[[-0-9,\s]*\]`)

// golden compares got with testdata/name, or rewrites it under -update.
// JSON goldens are stored indented and compared compacted, so the exact
// bytes (key order included) are checked.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	isJSON := filepath.Ext(name) == ".json"
	if *gamestest.Update {
		out := got
		if isJSON {
			var b bytes.Buffer
			if err := json.Indent(&b, got, "", "  "); err != nil {
				t.Fatal(err)
			}
			// One line per grid row and per cell keeps the files readable.
			out = numberLists.ReplaceAllFunc(b.Bytes(), func(l []byte) []byte {
				return bytes.ReplaceAll(bytes.Join(bytes.Fields(l), nil), []byte(","), []byte(", "))
			})
			out = append(out, '\n')
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if isJSON {
		var b bytes.Buffer
		if err := json.Compact(&b, want); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		want = b.Bytes()
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test -update to rewrite it)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestRequestGolden(t *testing.T) {
	g := newGame(seedSeat0Player2)
	golden(t, "request_start_seat0.json", g.Request(0))
	golden(t, "request_start_seat1.json", g.Request(1))

	script := readScript(t, "faults_game")
	if _, err := games.Replay(Rules{}, script.Seed, script.Names, script.answers()[:12], nil); err == nil {
		t.Fatal("replay of 12 answers did not stop short")
	}
	s := Rules{}.New(script.Seed, script.Names)
	for _, a := range script.answers()[:12] {
		s.Apply([]games.Answer{a})
	}
	golden(t, "request_faults_game_turn13.json", s.Request(0))
}

// script is a recorded game: testdata/<name>.in.json.
type script struct {
	Seed    int64    `json:"seed"`
	Names   []string `json:"names"`
	Answers []struct {
		Data   json.RawMessage `json:"data"`
		Fault  fault.Kind      `json:"fault"`
		Detail string          `json:"detail"`
	} `json:"answers"`
}

func readScript(t *testing.T, name string) script {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".in.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s script
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

func (s script) answers() []games.Answer {
	out := make([]games.Answer, len(s.Answers))
	for i, a := range s.Answers {
		out[i] = games.Answer{Data: a.Data, Fault: a.Fault, Detail: a.Detail}
	}
	return out
}

// TestReplayGolden replays each recorded game with games.Replay and checks
// every move, the outcome, the final view and its text board.
func TestReplayGolden(t *testing.T) {
	for _, name := range []string{"faults_game", "full_game"} {
		t.Run(name, func(t *testing.T) {
			sc := readScript(t, name)
			var moves []games.Move
			s, err := games.Replay(Rules{}, sc.Seed, sc.Names, sc.answers(), func(_ games.State, m []games.Move) {
				moves = append(moves, m...)
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(moves) != len(sc.Answers) {
				t.Errorf("the game ended after %d of the %d answers", len(moves), len(sc.Answers))
			}
			var out bytes.Buffer
			out.WriteString(`{"moves":[`)
			for i, m := range moves {
				if i > 0 {
					out.WriteByte(',')
				}
				b, err := json.Marshal(m)
				if err != nil {
					t.Fatal(err)
				}
				out.Write(b)
			}
			o, err := json.Marshal(s.Outcome())
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, `],"outcome":%s,"view":%s}`, o, s.View())
			golden(t, name+".out.json", out.Bytes())

			board, err := Rules{}.Board(s.View())
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+".board.txt", []byte(board))
		})
	}
}

func TestBoard(t *testing.T) {
	g := newGame(seedSeat0Player1)
	apply(t, g, "[1, 1]")
	got, err := Rules{}.Board(g.View())
	if err != nil {
		t.Fatal(err)
	}
	want := `    0 1 2 3 4 5 6 7 8 9
 0  X . . . . . . . . O
 1  . X . . . . . . . .
 2  . . . . . . . . . .
 3  . . . . . . . . . .
 4  . . . . . . . . . .
 5  . . . . . . . . . .
 6  . . . . . . . . . .
 7  . . . . . . . . . .
 8  . . . . . . . . . .
 9  O . . . . . . . . X
seat 0: X player_1 3   seat 1: O player_2 2   turn 2: seat 1 to move
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if _, err := (Rules{}).Board(json.RawMessage(`{"grid": 3}`)); err == nil {
		t.Error("Board accepted a broken view")
	}
}
