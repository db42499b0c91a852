package connectfour_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"botjudge/games"
	"botjudge/games/connectfour"
	"botjudge/games/fault"
	"botjudge/games/gamestest"
)

var names = []string{"alice", "bob"}

var data = gamestest.Data

func drop(col int) games.Answer { return data(fmt.Sprintf(`{"play":%d}`, col)) }

func dropAll(cols []int) []games.Answer {
	answers := make([]games.Answer, len(cols))
	for i, c := range cols {
		answers[i] = drop(c)
	}
	return answers
}

// started is a game past its init, with pieces dropped in cols in order,
// X first.
func started(t *testing.T, cols ...int) games.State {
	t.Helper()
	answers := append([]games.Answer{data(`{"name":"alice"}`), data(`{"name":"bob"}`)}, dropAll(cols)...)
	return gamestest.Setup(t, connectfour.Rules.New(9916, names), answers...)
}

type event struct {
	Row   int        `json:"row"`
	Col   int        `json:"col"`
	Mark  string     `json:"mark"`
	Lines [][][2]int `json:"lines"`
}

var decodeEvent = gamestest.Event[event]

func TestRegistered(t *testing.T) {
	gamestest.Registered(t, "connectfour", gamestest.Registration{Protocol: games.ProtocolProgram, Seats: [2]int{2, 2}, Rounds: 1, MaxRequests: 22})
}

func TestRequests(t *testing.T) {
	s := connectfour.Rules.New(1126, names)
	for seat, want := range []string{
		`{"game-id":"1126","action":"init","game":"connectfour","players":2,"board":"","player-index":0}`,
		`{"game-id":"1126","action":"init","game":"connectfour","players":2,"board":"","player-index":1}`,
	} {
		if got := string(s.Request(seat)); got != want {
			t.Errorf("init of seat %d:\n got %s\nwant %s", seat, got, want)
		}
	}
	s = started(t, 3, 3, 4)
	want := `{"game-id":"9916","action":"play-turn","game":"connectfour","players":2,"board":[` +
		`["","","","X","X","",""],["","","","O","","",""],["","","","","","",""],["","","","","","",""],["","","","","","",""],["","","","","","",""]` +
		`],"you":"O","player-index":1}`
	if got := string(s.Request(1)); got != want {
		t.Errorf("play-turn:\n got %s\nwant %s", got, want)
	}
	if got := string(started(t).Request(0)); !strings.HasSuffix(got, `"you":"X","player-index":0}`) {
		t.Errorf("the first play-turn: %s", got)
	}
}

func TestInitNotJudged(t *testing.T) {
	s := connectfour.Rules.New(1, names)
	for _, m := range s.Apply([]games.Answer{data(`   `), {Fault: fault.Crash, Detail: "killed by signal 9"}}) {
		if !m.Unjudged || m.Verdict != fault.None {
			t.Errorf("init: %+v", m)
		}
	}
	if got := s.ToMove(); !slices.Equal(got, []int{0}) {
		t.Errorf("ToMove %v after the init", got)
	}
}

func TestGravity(t *testing.T) {
	s := started(t)
	for i, want := range []int{0, 1, 2, 3} {
		m := s.Apply([]games.Answer{drop(5)})[0]
		if e := decodeEvent(t, m); e.Row != want || e.Col != 5 || e.Mark != []string{"X", "O"}[i%2] {
			t.Errorf("piece %d landed at %+v, want row %d", i, e, want)
		}
	}
	var v struct {
		Cells [][]string `json:"cells"`
		Moves [][2]int   `json:"moves"`
	}
	if err := json.Unmarshal(s.View(), &v); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v.Moves, [][2]int{{0, 5}, {1, 5}, {2, 5}, {3, 5}}) || v.Cells[0][5] != "X" || v.Cells[3][5] != "O" || v.Cells[4][5] != "" {
		t.Errorf("view %s", s.View())
	}
}

func TestAnswers(t *testing.T) {
	tests := []struct {
		name    string
		answer  games.Answer
		verdict fault.Kind
		why     string
		col     int
	}{
		{"number", data(`{"play":3}`), fault.None, "", 3},
		{"numeric string", data(`{"play":"3"}`), fault.None, "", 3},
		{"first column", data(`{"play":0}`), fault.None, "", 0},
		{"last column", data(`{"play":"6"}`), fault.None, "", 6},
		{"whole float", data(`{"play":2.0}`), fault.None, "", 2},
		{"exponent", data(`{"play":"5e0"}`), fault.None, "", 5},
		{"a comment", data(`{"comment":"centre","play":3}`), fault.None, "", 3},
		{"full column", data(`{"play":1}`), fault.Illegal, "column 1 is full", 0},
		{"full column as a string", data(`{"play":"1"}`), fault.Illegal, "column 1 is full", 0},
		{"column 7", data(`{"play":7}`), fault.Illegal, "there is no column 7: columns go from 0 to 6", 0},
		{"column -1", data(`{"play":"-1"}`), fault.Illegal, "there is no column -1", 0},
		{"huge", data(`{"play":1e300}`), fault.Illegal, "there is no column 1e300", 0},
		{"too huge", data(`{"play":1e400}`), fault.Malformed, "got 1e400", 0},
		{"half", data(`{"play":3.5}`), fault.Malformed, `"play" must be a column number from 0 to 6, like 3 or "3", got 3.5`, 0},
		{"word", data(`{"play":"three"}`), fault.Malformed, `got "three"`, 0},
		{"space", data(`{"play":" 3"}`), fault.Malformed, `got " 3"`, 0},
		{"leading zero", data(`{"play":"03"}`), fault.Malformed, `got "03"`, 0},
		{"hex", data(`{"play":"0x3"}`), fault.Malformed, `got "0x3"`, 0},
		{"infinity", data(`{"play":"Inf"}`), fault.Malformed, `got "Inf"`, 0},
		{"empty string", data(`{"play":""}`), fault.Malformed, `got ""`, 0},
		{"bool", data(`{"play":true}`), fault.Malformed, "got true", 0},
		{"null", data(`{"play":null}`), fault.Malformed, "got null", 0},
		{"list", data(`{"play":[3]}`), fault.Malformed, "got [3]", 0},
		{"no play", data(`{"column":3}`), fault.Malformed, `has no "play"`, 0},
		{"bare number", data(`3`), fault.Malformed, "must be a JSON object", 0},
		{"timeout", games.Answer{Fault: fault.Timeout}, fault.Timeout, "too slow", 0},
		{"crash", games.Answer{Fault: fault.Crash, Detail: "killed by signal 9"}, fault.Crash, "crash: killed by signal 9", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := started(t, 1, 1, 1, 1, 1, 1) // column 1 is full, X to play
			m := s.Apply([]games.Answer{tt.answer})[0]
			if m.Verdict != tt.verdict || !strings.Contains(m.Reason, tt.why) {
				t.Fatalf("got %s %q, want %s %q", m.Verdict, m.Reason, tt.verdict, tt.why)
			}
			if tt.verdict == fault.None {
				if e := decodeEvent(t, m); e.Col != tt.col || e.Row != 0 {
					t.Errorf("the piece landed at %+v, want column %d row 0", e, tt.col)
				}
				return
			}
			o := s.Outcome()
			if len(s.ToMove()) != 0 || !reflect.DeepEqual(o.Rank, []int{2, 1}) || o.Reason != "alice (X) lost: "+m.Reason {
				t.Errorf("after a fault: ToMove %v, outcome %+v", s.ToMove(), o)
			}
		})
	}
}

func TestLines(t *testing.T) {
	tests := []struct {
		name   string
		cols   []int
		winner int
		lines  [][][2]int
	}{
		{"across, bottom left", []int{0, 0, 1, 1, 2, 2, 3}, 0, [][][2]int{{{0, 0}, {0, 1}, {0, 2}, {0, 3}}}},
		{"across, bottom right", []int{6, 6, 5, 5, 4, 4, 3}, 0, [][][2]int{{{0, 3}, {0, 4}, {0, 5}, {0, 6}}}},
		{"across, top row", []int{3, 2, 6, 1, 2, 3, 2, 3, 0, 1, 3, 2, 2, 1, 0, 0, 0, 3, 2, 6, 6, 4, 3, 5, 1, 1, 1, 0, 0}, 0,
			[][][2]int{{{5, 0}, {5, 1}, {5, 2}, {5, 3}}}},
		{"up, first column", []int{0, 1, 0, 1, 0, 1, 0}, 0, [][][2]int{{{0, 0}, {1, 0}, {2, 0}, {3, 0}}}},
		{"up, last column to the top", []int{0, 6, 0, 6, 6, 1, 6, 1, 6, 2, 6}, 0, [][][2]int{{{2, 6}, {3, 6}, {4, 6}, {5, 6}}}},
		{"up, for O", []int{0, 1, 2, 1, 3, 1, 5, 1}, 1, [][][2]int{{{0, 1}, {1, 1}, {2, 1}, {3, 1}}}},
		{"diagonal from the bottom left corner", []int{0, 1, 1, 2, 3, 2, 2, 3, 6, 3, 3}, 0, [][][2]int{{{0, 0}, {1, 1}, {2, 2}, {3, 3}}}},
		{"diagonal to the top right corner", []int{4, 5, 6, 4, 5, 3, 4, 1, 2, 1, 6, 2, 4, 4, 5, 5, 5, 1, 1, 5, 0, 6, 6, 6, 6, 2, 3, 0, 1, 2, 3}, 0,
			[][][2]int{{{2, 3}, {3, 4}, {4, 5}, {5, 6}}}},
		{"anti-diagonal from the bottom right corner", []int{6, 5, 5, 4, 3, 4, 4, 3, 0, 3, 3}, 0, [][][2]int{{{0, 6}, {1, 5}, {2, 4}, {3, 3}}}},
		{"anti-diagonal to the top left corner", []int{6, 0, 1, 3, 2, 3, 2, 5, 1, 0, 0, 1, 2, 2, 1, 3, 3, 6, 3, 2, 2, 5, 0, 1, 0, 1, 6, 4, 3, 0}, 1,
			[][][2]int{{{2, 3}, {3, 2}, {4, 1}, {5, 0}}}},
		{"five across, the gap filled", []int{6, 0, 2, 2, 4, 6, 6, 0, 4, 2, 3, 2, 5}, 0, [][][2]int{{{0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}}}},
		{"five on an anti-diagonal", []int{4, 2, 0, 6, 6, 3, 4, 2, 0, 6, 1, 4, 3, 4, 0, 2, 4, 0, 2, 0, 0, 1, 1, 1, 5, 1, 6, 6, 4, 5, 6, 3, 5, 2, 1, 3}, 1,
			[][][2]int{{{0, 6}, {1, 5}, {2, 4}, {3, 3}, {4, 2}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := started(t, tt.cols[:len(tt.cols)-1]...)
			if len(s.ToMove()) != 1 {
				t.Fatalf("over before the last piece: %+v", s.Outcome())
			}
			m := s.Apply([]games.Answer{drop(tt.cols[len(tt.cols)-1])})[0]
			if e := decodeEvent(t, m); !reflect.DeepEqual(e.Lines, tt.lines) {
				t.Errorf("lines %v, want %v", e.Lines, tt.lines)
			}
			o := s.Outcome()
			want := []int{2, 2}
			want[tt.winner] = 1
			if len(s.ToMove()) != 0 || !reflect.DeepEqual(o.Rank, want) || o.Score[tt.winner] != len(tt.lines[0]) ||
				!strings.Contains(o.Reason, fmt.Sprintf("has %d in a row", len(tt.lines[0]))) {
				t.Errorf("outcome %+v", o)
			}
		})
	}
}

func TestFullBoard(t *testing.T) {
	s := started(t, 1, 4, 2, 1, 4, 0, 3, 3, 0, 6, 1, 2, 2, 2, 6, 6, 6, 0, 0, 3, 2, 1, 6, 1, 1, 6, 4, 3, 2, 5, 3, 3, 0, 5, 4, 5, 5, 5, 5, 4, 0, 4)
	if o := s.Outcome(); len(s.ToMove()) != 0 || !reflect.DeepEqual(o.Rank, []int{1, 1}) || o.Reason != "the board is full: a draw" {
		t.Errorf("ToMove %v, outcome %+v", s.ToMove(), o)
	}
}

func TestBoard(t *testing.T) {
	s := started(t, 3, 3, 4)
	board, err := games.Board(connectfour.Rules, s.View())
	want := " 5  . . . . . . .\n 4  . . . . . . .\n 3  . . . . . . .\n 2  . . . . . . .\n" +
		" 1  . . . O . . .\n 0  . . . X x . .\n    0 1 2 3 4 5 6\nX alice   O bob\nO to play\n"
	if err != nil || board != want {
		t.Errorf("board %v:\n%s\nwant\n%s", err, board, want)
	}
}

func TestGolden(t *testing.T) {
	gamestest.GoldenGames(t, connectfour.Rules, 9916, names, []gamestest.Scenario{
		{Name: "diagonal", Answers: [][]games.Answer{
			append([]games.Answer{data(`{"name":"x"}`)}, dropAll([]int{0, 1, 3, 2, 6, 3})...),
			append([]games.Answer{data(``)}, append(dropAll([]int{1, 2, 2, 3}), data(`{"play":"3"}`))...)}},
		{Name: "full_column", Answers: [][]games.Answer{
			append([]games.Answer{data(`{"name":"x"}`)}, dropAll([]int{0, 0, 0, 0})...),
			append([]games.Answer{data(`{"name":"o"}`)}, dropAll([]int{0, 0, 0})...)}},
		{Name: "crash", Answers: [][]games.Answer{
			{data(`{"name":"x"}`), drop(3), {Fault: fault.Error, Detail: "exit status 1: Traceback (most recent call last): …"}},
			{data(`{"name":"o"}`), drop(3)}}},
	})
}

// player drops a piece in a random column that is not full, written as a
// number or a string.
func player(rng *rand.Rand, req json.RawMessage) json.RawMessage {
	var r struct {
		Action string     `json:"action"`
		Board  [][]string `json:"board"`
	}
	if json.Unmarshal(req, &r) != nil || r.Action == "init" || len(r.Board) == 0 {
		return json.RawMessage(`{"name":"random"}`)
	}
	var open []int
	for c, v := range r.Board[len(r.Board)-1] {
		if v == "" {
			open = append(open, c)
		}
	}
	if len(open) == 0 {
		return nil
	}
	c := open[rng.IntN(len(open))]
	if rng.IntN(2) == 0 {
		return json.RawMessage(fmt.Sprintf(`{"play":"%d"}`, c))
	}
	return json.RawMessage(fmt.Sprintf(`{"play":%d}`, c))
}

func TestConformance(t *testing.T) { gamestest.Conformance(t, connectfour.Rules, player) }

// FuzzAnswer plays any reply in a game under way: nothing panics, the move
// encodes, and a reply is either a piece on the lowest free row of a column
// that was not full, or a fault that ends the game with a reason.
func FuzzAnswer(f *testing.F) {
	seeds := []string{`{"play":3}`, `{"play":"3"}`, `{"play":1}`, `{"play":7}`, `{"play":"-0"}`, `{"play":2.5}`, `{"play":"1e0"}`, `{"play":1e400}`, `{}`, "\x80"}
	start := func(t *testing.T) games.State { return started(t, 1, 1, 1, 1, 1, 1, 2) }
	gamestest.FuzzAnswer(f, seeds, start, []int{1, 2}, func(t *testing.T, answer []byte, s games.State, m games.Move) {
		e := decodeEvent(t, m)
		want := 0
		if e.Col == 2 {
			want = 1
		}
		if e.Col < 0 || e.Col > 6 || e.Col == 1 || e.Row != want {
			t.Fatalf("%q accepted as %s", answer, m.Event)
		}
	})
}
