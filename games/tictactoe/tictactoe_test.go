package tictactoe_test

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"botjudge/games"
	"botjudge/games/botsarena"
	"botjudge/games/fault"
	"botjudge/games/gamestest"
	"botjudge/games/tictactoe"
)

var names = []string{"alice", "bob"}

var data = gamestest.Data

func play(cell string) games.Answer { return data(`{"play":"` + cell + `"}`) }

// started is a game past its init, with cells played in order, X first.
func started(t *testing.T, cells ...string) games.State {
	t.Helper()
	answers := []games.Answer{data(`{"name":"alice"}`), data(`{"name":"bob"}`)}
	for _, c := range cells {
		answers = append(answers, play(c))
	}
	return gamestest.Setup(t, tictactoe.Rules.New(7, names), answers...)
}

func TestRegistered(t *testing.T) {
	gamestest.Registered(t, "tictactoe", gamestest.Registration{Protocol: games.ProtocolProgram, Seats: [2]int{2, 2}, Rounds: 1, MaxRequests: 6})
}

func TestRequests(t *testing.T) {
	s := tictactoe.Rules.New(1126, names)
	for seat, want := range []string{
		`{"game-id":"1126","action":"init","game":"tictactoe","players":2,"board":"","player-index":0}`,
		`{"game-id":"1126","action":"init","game":"tictactoe","players":2,"board":"","player-index":1}`,
	} {
		if got := string(s.Request(seat)); got != want {
			t.Errorf("init of seat %d:\n got %s\nwant %s", seat, got, want)
		}
	}
	s = started(t, "0-1")
	want := `{"game-id":"7","action":"play-turn","game":"tictactoe","players":2,"board":{"0-0":"","0-1":"X","0-2":"","1-0":"","1-1":"","1-2":"","2-0":"","2-1":"","2-2":""},"you":"O","player-index":1}`
	if got := string(s.Request(1)); got != want {
		t.Errorf("play-turn:\n got %s\nwant %s", got, want)
	}
	if got := string(started(t).Request(0)); !strings.Contains(got, `"you":"X","player-index":0}`) {
		t.Errorf("the first play-turn of seat 0 must say player-index 0 and you X: %s", got)
	}
	// The game-id depends on the seed only: replays rebuild the requests.
	if a, b := tictactoe.Rules.New(5, names).Request(0), tictactoe.Rules.New(5, []string{"x", "y"}).Request(0); string(a) != string(b) {
		t.Errorf("the same seed gives other requests: %s %s", a, b)
	}
	if a, b := tictactoe.Rules.New(5, names).Request(0), tictactoe.Rules.New(6, names).Request(0); string(a) == string(b) {
		t.Errorf("two seeds give the same game-id: %s", a)
	}
}

func TestInitNotJudged(t *testing.T) {
	for _, a := range []games.Answer{
		data(`{"name":"alice"}`), data(`{}`), data(`""`), data(`   `), data(`{"play":"1-1"}`), data("not json at all \xff"),
		{Fault: fault.Timeout, Detail: "no answer within 10s"}, {Fault: fault.Crash}, {Fault: fault.Malformed, Detail: "the answer is not JSON"},
	} {
		s := tictactoe.Rules.New(1, names)
		moves := s.Apply([]games.Answer{a, a})
		for _, m := range moves {
			if !m.Unjudged || m.Verdict != fault.None || !strings.HasPrefix(m.Reason, "init, not judged") {
				t.Errorf("init answered %+v: move %+v", a, m)
			}
			if a.Fault != fault.None && !strings.HasSuffix(m.Reason, botsarena.FaultReason(a)) {
				t.Errorf("the fault of an init must be told to the author: %q", m.Reason)
			}
			if _, err := json.Marshal(m); err != nil {
				t.Errorf("init answered %q: %v", a.Data, err)
			}
		}
		if got := s.ToMove(); !slices.Equal(got, []int{0}) {
			t.Errorf("init answered %+v: ToMove %v, want the game to go on with X", a, got)
		}
	}
}

func TestAnswers(t *testing.T) {
	tests := []struct {
		name    string
		answer  games.Answer
		verdict fault.Kind
		why     string
	}{
		{"a free cell", play("2-2"), fault.None, ""},
		{"a comment", data(`{"play":"2-2","comment":"I win soon","name":7}`), fault.None, ""},
		{"occupied", play("1-1"), fault.Illegal, "cell 1-1 is taken by X"},
		{"own mark", play("0-0"), fault.Illegal, "cell 0-0 is taken by O"},
		{"off the board", play("3-0"), fault.Illegal, `"3-0" is off the board`},
		{"far off", play("0-99"), fault.Illegal, "off the board"},
		{"leading zero", play("01-2"), fault.Malformed, `"01-2" is not one of the board's keys`},
		{"space", play(" 1-2"), fault.Malformed, `must be a cell "row-col"`},
		{"comma", play("1,2"), fault.Malformed, `got "1,2"`},
		{"negative", play("-1-1"), fault.Malformed, `must be a cell`},
		{"number", data(`{"play":4}`), fault.Malformed, "got 4"},
		{"list", data(`{"play":[1,2]}`), fault.Malformed, "got [1,2]"},
		{"null", data(`{"play":null}`), fault.Malformed, "got null"},
		{"no play", data(`{"move":"1-2"}`), fault.Malformed, `the answer has no "play": {"move":"1-2"}`},
		{"not an object", data(`"1-2"`), fault.Malformed, `must be a JSON object like {"play": …}, got "1-2"`},
		{"not JSON", data(`1-2`), fault.Malformed, "got 1-2"},
		{"long", data(`{"play":"` + strings.Repeat("é", 100) + `"}`), fault.Malformed, "…"},
		{"timeout", games.Answer{Fault: fault.Timeout, Detail: "no answer within 10s"}, fault.Timeout, "timeout: no answer within 10s"},
		{"crash", games.Answer{Fault: fault.Crash}, fault.Crash, "your bot crashed"},
		{"error", games.Answer{Fault: fault.Error, Detail: "exit status 1"}, fault.Error, "error: exit status 1"},
		{"oom", games.Answer{Fault: fault.OOM}, fault.OOM, "out of memory"},
		{"output", games.Answer{Fault: fault.Output, Detail: "an answer line of more than 65536 bytes"}, fault.Output, "answer too long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := started(t, "1-1", "0-0") // X to play
			moves := s.Apply([]games.Answer{tt.answer})
			m := moves[0]
			if m.Verdict != tt.verdict || !strings.Contains(m.Reason, tt.why) {
				t.Fatalf("got %s %q, want %s %q", m.Verdict, m.Reason, tt.verdict, tt.why)
			}
			if tt.verdict == fault.None {
				if got := s.ToMove(); !slices.Equal(got, []int{1}) {
					t.Errorf("ToMove %v after a legal move, want [1]", got)
				}
				return
			}
			// Any fault loses, and the outcome says why in the same words.
			o := s.Outcome()
			if len(s.ToMove()) != 0 || !reflect.DeepEqual(o.Rank, []int{2, 1}) || o.Reason != "alice (X) lost: "+m.Reason {
				t.Errorf("after a fault: ToMove %v, outcome %+v", s.ToMove(), o)
			}
		})
	}
}

func TestLines(t *testing.T) {
	// X plays the first three cells, O the others, in turns.
	tests := []struct {
		name string
		x, o []string
	}{
		{"row 0", []string{"0-0", "0-1", "0-2"}, []string{"1-0", "1-1"}},
		{"row 1", []string{"1-0", "1-2", "1-1"}, []string{"0-0", "2-2"}},
		{"row 2", []string{"2-2", "2-0", "2-1"}, []string{"0-0", "1-1"}},
		{"column 0", []string{"0-0", "1-0", "2-0"}, []string{"0-1", "1-1"}},
		{"column 1", []string{"0-1", "2-1", "1-1"}, []string{"0-0", "2-2"}},
		{"column 2", []string{"0-2", "1-2", "2-2"}, []string{"0-0", "1-1"}},
		{"diagonal", []string{"0-0", "2-2", "1-1"}, []string{"0-1", "1-0"}},
		{"anti-diagonal", []string{"0-2", "2-0", "1-1"}, []string{"0-0", "1-0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := started(t, tt.x[0], tt.o[0], tt.x[1], tt.o[1])
			m := s.Apply([]games.Answer{play(tt.x[2])})[0]
			o := s.Outcome()
			if len(s.ToMove()) != 0 || !reflect.DeepEqual(o.Rank, []int{1, 2}) || !reflect.DeepEqual(o.Score, []int{3, 2}) &&
				!reflect.DeepEqual(o.Score, []int{3, 1}) || !strings.HasPrefix(o.Reason, "alice (X) has 3 in a row") {
				t.Fatalf("outcome %+v", o)
			}
			var ev struct {
				Lines [][][2]int `json:"lines"`
			}
			if err := json.Unmarshal(m.Event, &ev); err != nil || len(ev.Lines) != 1 || len(ev.Lines[0]) != 3 {
				t.Errorf("event %s: %v", m.Event, err)
			}
		})
	}
}

func TestOWins(t *testing.T) {
	s := started(t, "0-0", "1-1", "0-1", "0-2", "2-2", "2-0")
	o := s.Outcome()
	if !reflect.DeepEqual(o.Rank, []int{2, 1}) || !strings.HasPrefix(o.Reason, "bob (O) has 3 in a row, from row 0 col 2 to row 2 col 0") {
		t.Errorf("outcome %+v", o)
	}
}

func TestTwoLinesAtOnce(t *testing.T) {
	// X's last piece, in the centre, completes both diagonals.
	s := started(t, "0-0", "0-1", "2-2", "1-0", "0-2", "1-2", "2-0", "2-1")
	m := s.Apply([]games.Answer{play("1-1")})[0]
	var ev struct {
		Lines [][][2]int `json:"lines"`
	}
	if err := json.Unmarshal(m.Event, &ev); err != nil || len(ev.Lines) != 2 {
		t.Errorf("event %s: %v", m.Event, err)
	}
	var v struct {
		Lines  [][][2]int `json:"lines"`
		Winner int        `json:"winner"`
	}
	if err := json.Unmarshal(s.View(), &v); err != nil || !reflect.DeepEqual(v.Lines, ev.Lines) || v.Winner != 0 {
		t.Errorf("view %s: %v", s.View(), err)
	}
	if o := s.Outcome(); !reflect.DeepEqual(o.Rank, []int{1, 2}) {
		t.Errorf("outcome %+v", o)
	}
}

func TestFullBoard(t *testing.T) {
	// The site's example game: a draw.
	s := started(t, "0-1", "1-1", "0-0", "0-2", "2-0", "1-0", "1-2", "2-1", "2-2")
	o := s.Outcome()
	if !reflect.DeepEqual(o.Rank, []int{1, 1}) || o.Reason != "the board is full: a draw" {
		t.Errorf("outcome %+v", o)
	}
}

func TestWinOnTheLastCell(t *testing.T) {
	// X's ninth piece, on 2-2, fills the board and completes column 2.
	s := started(t, "0-1", "0-0", "0-2", "1-1", "1-0", "2-0", "1-2", "2-1")
	s.Apply([]games.Answer{play("2-2")})
	if o := s.Outcome(); !reflect.DeepEqual(o.Rank, []int{1, 2}) || !strings.Contains(o.Reason, "from row 0 col 2 to row 2 col 2") {
		t.Errorf("a line on the ninth cell: outcome %+v", o)
	}
}

func TestView(t *testing.T) {
	s := started(t, "1-1", "0-0")
	want := `{"names":["alice","bob"],"marks":["X","O"],"rows":3,"cols":3,"k":3,"gravity":false,"phase":"play","turn":0,` +
		`"cells":[["O","",""],["","X",""],["","",""]],"moves":[[1,1],[0,0]],"winner":-1,"lines":[]}`
	if got := string(s.View()); got != want {
		t.Errorf("view\n got %s\nwant %s", got, want)
	}
	if got := s.Scores(); !slices.Equal(got, []int{1, 1}) {
		t.Errorf("scores %v", got)
	}
	board, err := games.Board(tictactoe.Rules, s.View())
	if err != nil || !strings.Contains(board, " 0  o . .\n 1  . X .\n") || !strings.Contains(board, "X to play") {
		t.Errorf("board %v:\n%s", err, board)
	}
	if _, err := games.Board(tictactoe.Rules, json.RawMessage(`[1]`)); err == nil {
		t.Error("a board of a view that is not one")
	}
}

func TestGolden(t *testing.T) {
	gamestest.GoldenGames(t, tictactoe.Rules, 1126, names, []gamestest.Scenario{
		{Name: "draw", Answers: [][]games.Answer{ // the site's example game
			{data(`{"name":"moul-tictactoe"}`), play("0-1"), play("0-0"), play("2-0"), play("1-2"), play("2-2")},
			{data(`{"name":"moul-tictactoe"}`), play("1-1"), play("0-2"), play("1-0"), play("2-1")}}},
		{Name: "diagonal", Answers: [][]games.Answer{
			{{Fault: fault.Timeout, Detail: "no answer within 10s"}, play("0-0"), data(`{"play":"1-1","comment":"hm"}`), play("2-2")},
			{data(``), play("0-1"), play("0-2")}}},
		{Name: "occupied", Answers: [][]games.Answer{{data(`{"name":"x"}`), play("1-1")}, {data(`{"name":"o"}`), play("1-1")}}},
		{Name: "timeout", Answers: [][]games.Answer{
			{data(`{"name":"x"}`), play("1-1"), {Fault: fault.Timeout, Detail: "no answer within 10s"}},
			{data(`{"name":"o"}`), play("0-0")}}},
	})
}

// player plays a random free cell.
func player(rng *rand.Rand, req json.RawMessage) json.RawMessage {
	var r struct {
		Action string            `json:"action"`
		Board  map[string]string `json:"board"`
	}
	if json.Unmarshal(req, &r) != nil || r.Action == "init" {
		return json.RawMessage(`{"name":"random"}`)
	}
	var free []string
	for k, v := range r.Board {
		if v == "" {
			free = append(free, k)
		}
	}
	if len(free) == 0 {
		return nil
	}
	slices.Sort(free)
	return json.RawMessage(`{"play":"` + free[rng.IntN(len(free))] + `"}`)
}

func TestConformance(t *testing.T) { gamestest.Conformance(t, tictactoe.Rules, player) }

// FuzzAnswer plays any reply in a game under way: nothing panics, the move
// encodes, and a reply is either a piece on a cell that was free or a
// fault that ends the game with a reason.
func FuzzAnswer(f *testing.F) {
	seeds := []string{`{"play":"2-2"}`, `{"play":"1-1"}`, `{"play":"3-0"}`, `{"play":"01-2"}`, `{"play":4}`, `{"play":null}`, `{}`, `[]`, "\x80", `{"play":"0-0","comment":1}`}
	start := func(t *testing.T) games.State { return started(t, "1-1", "0-0") }
	gamestest.FuzzAnswer(f, seeds, start, []int{2, 1}, func(t *testing.T, answer []byte, s games.State, m games.Move) {
		var e struct{ Row, Col int }
		if err := json.Unmarshal(m.Event, &e); err != nil || e.Row < 0 || e.Row > 2 || e.Col < 0 || e.Col > 2 || e.Row == e.Col && e.Row != 2 {
			t.Fatalf("%q accepted as %s", answer, m.Event)
		}
	})
}
