package battleship_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"botjudge/games"
	"botjudge/games/battleship"
	"botjudge/games/fault"
	"botjudge/games/gamestest"
)

var names = []string{"alice", "bob"}

var data = gamestest.Data

// fleetA and fleetB are default fleets: one boat of 2, two of 3, one of 4,
// one of 5. fleetA's ends are in every order.
const (
	fleetA = `{"name":"a","boats":["0,0-0,1","3,0-1,0","9,9-9,7","5,5-5,8","4,9-8,9"]}`
	fleetB = `{"name":"b","boats":["2,2-3,2","0,0-0,2","9,0-9,2","0,9-3,9","5,5-9,5"]}`
)

// boatsA are fleetA's cells, boat by boat.
var boatsA = [][]string{{"0,0", "0,1"}, {"1,0", "2,0", "3,0"}, {"9,7", "9,8", "9,9"}, {"5,5", "5,6", "5,7", "5,8"}, {"4,9", "5,9", "6,9", "7,9", "8,9"}}

func shot(cell string) games.Answer { return data(`{"play":"` + cell + `"}`) }

// started is a default game where seat 0 placed fleetA and seat 1 fleetB.
func started(t *testing.T) games.State {
	t.Helper()
	return gamestest.Setup(t, battleship.Rules{}.New(1609, names), data(fleetA), data(fleetB))
}

type request struct {
	GameID      string `json:"game-id"`
	Action      string `json:"action"`
	PlayerIndex *int   `json:"player-index"`
	You         any    `json:"you"`
	Board       struct {
		Opponent    string `json:"opponent"`
		Width       string `json:"width"`
		YourStrikes []struct {
			Target string `json:"target"`
			Result string `json:"result"`
		} `json:"your_strikes"`
		HisStrikes []struct {
			Target string `json:"target"`
			Result string `json:"result"`
		} `json:"his_strikes"`
	} `json:"board"`
}

func decodeRequest(t *testing.T, raw json.RawMessage) request {
	t.Helper()
	var r request
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("request %s: %v", raw, err)
	}
	return r
}

func TestRegistered(t *testing.T) {
	gamestest.Registered(t, "battleship", gamestest.Registration{Protocol: games.ProtocolProgram, Seats: [2]int{2, 2}, Rounds: 5, MaxRequests: 101})
}

func TestRequests(t *testing.T) {
	s := battleship.Rules{}.New(1609, names)
	want := `{"game-id":"1609","action":"init","game":"battleship","players":2,"board":{"opponent":"stupidIA","width":"10","height":"10",` +
		`"ship1":"0","ship2":"1","ship3":"2","ship4":"1","ship5":"1","ship6":"0"},"player-index":0}`
	s = battleship.Rules{}.New(1609, []string{"gnieark", "stupidIA"})
	if got := string(s.Request(0)); got != want {
		t.Errorf("init:\n got %s\nwant %s", got, want)
	}
	if got := string(s.Request(1)); !strings.Contains(got, `"opponent":"gnieark"`) || !strings.HasSuffix(got, `"player-index":1}`) {
		t.Errorf("init of seat 1: %s", got)
	}
	s = started(t)
	want = `{"game-id":"1609","action":"play-turn","game":"battleship","players":2,"board":{"opponent":"bob","width":"10","height":"10",` +
		`"ship1":"0","ship2":"1","ship3":"2","ship4":"1","ship5":"1","ship6":"0","your_strikes":[],"his_strikes":[]},"player-index":0}`
	if got := string(s.Request(0)); got != want {
		t.Errorf("first play-turn:\n got %s\nwant %s", got, want)
	}
	gamestest.Take(t, s, shot("0,0"), shot("4,9"), shot("2,2"), shot("0,0"))
	r := decodeRequest(t, s.Request(0))
	if r.You != nil || r.PlayerIndex == nil || *r.PlayerIndex != 0 || r.GameID != "1609" || r.Action != "play-turn" {
		t.Errorf("request %s", s.Request(0))
	}
	got := fmt.Sprint(r.Board.YourStrikes, r.Board.HisStrikes)
	if want := "[{0,0 hit} {2,2 hit}] [{4,9 hit} {0,0 hit}]"; got != want {
		t.Errorf("strikes of seat 0: %s, want %s", got, want)
	}
}

func TestFleets(t *testing.T) {
	small := battleship.Rules{Width: 4, Height: 3, Ships: [6]int{2, 1}}
	tests := []struct {
		name    string
		rules   battleship.Rules
		fleet   string
		verdict fault.Kind
		why     string
	}{
		{"default", battleship.Rules{}, fleetA, fault.None, ""},
		{"the site's example", battleship.Rules{}, `{"name":"gnieark","boats":["4,2-4,6","3,3-3,0","2,3-2,1","7,9-5,9","6,8-6,7"]}`, fault.None, ""},
		{"no name", battleship.Rules{}, `{"boats":["4,2-4,6","3,3-3,0","2,3-2,1","7,9-5,9","6,8-6,7"]}`, fault.None, ""},
		{"touching", small, `{"boats":["0,0-0,0","1,0-1,0","2,0-3,0"]}`, fault.None, ""},
		{"boats of one cell", small, `{"boats":["3,2-3,2","0,2-0,2","0,0-1,0"]}`, fault.None, ""},
		{"corners", battleship.Rules{Width: 1, Height: 6, Ships: [6]int{0, 0, 0, 0, 0, 1}}, `{"boats":["0,5-0,0"]}`, fault.None, ""},
		{"off the grid", small, `{"boats":["0,0-0,0","1,0-1,0","3,2-4,2"]}`, fault.Illegal, `boat "3,2-4,2": off the grid: x goes from 0 to 3 and y from 0 to 2`},
		{"off the bottom", small, `{"boats":["0,0-0,0","1,3-1,3","2,0-3,0"]}`, fault.Illegal, "off the grid"},
		{"diagonal", small, `{"boats":["0,0-0,0","1,0-1,0","2,1-3,2"]}`, fault.Illegal, `boat "2,1-3,2": not straight`},
		{"overlap", small, `{"boats":["0,0-0,0","1,0-1,0","0,0-1,0"]}`, fault.Illegal, `boats "0,0-0,0" and "0,0-1,0" overlap at 0,0`},
		{"overlap in the middle", battleship.Rules{}, `{"boats":["0,0-0,1","0,5-4,5","2,3-2,7","5,5-5,8","4,9-8,9"]}`, fault.Illegal, "overlap at 2,5"},
		{"too few", small, `{"boats":["0,0-0,0","2,0-3,0"]}`, fault.Illegal, "2 boats, but the fleet has 3 (2 of length 1, 1 of length 2)"},
		{"too many", small, `{"boats":["0,0-0,0","1,0-1,0","2,0-3,0","0,2-0,2"]}`, fault.Illegal, "4 boats, but the fleet has 3"},
		{"wrong lengths", small, `{"boats":["0,0-0,0","1,0-1,1","2,0-3,0"]}`, fault.Illegal, "1 boats of length 1, but the fleet has 2"},
		{"too long", battleship.Rules{Width: 8, Height: 8, Ships: [6]int{0, 0, 0, 0, 0, 1}}, `{"boats":["0,0-6,0"]}`, fault.Illegal, "7 cells long: boats are 1 to 6 long"},
		{"one end", small, `{"boats":["0,0","1,0-1,0","2,0-3,0"]}`, fault.Malformed, `boat "0,0": a boat must be a string "x1,y1-x2,y2"`},
		{"three ends", small, `{"boats":["0,0-0,0-0,0","1,0-1,0","2,0-3,0"]}`, fault.Malformed, "must be a string"},
		{"spaces", small, `{"boats":["0, 0-0, 0","1,0-1,0","2,0-3,0"]}`, fault.Malformed, "must be a string"},
		{"negative", small, `{"boats":["-1,0-0,0","1,0-1,0","2,0-3,0"]}`, fault.Malformed, "must be a string"},
		{"numbers", small, `{"boats":[[0,0,0,0],"1,0-1,0","2,0-3,0"]}`, fault.Malformed, "boat [0,0,0,0]: a boat must be"},
		{"not a list", small, `{"boats":"0,0-0,0 1,0-1,0 2,0-3,0"}`, fault.Malformed, `"boats" must be a list of strings`},
		{"null boats", small, `{"boats":null}`, fault.Malformed, `"boats" must be a list`},
		{"no boats", small, `{"name":"me"}`, fault.Malformed, `the answer has no "boats": {"name":"me"}`},
		{"BrainJar's fleet", battleship.Rules{}, `{"2":{"point":"00","orientation":"vertical"}}`, fault.Malformed, `has no "boats"`},
		{"a list", small, `["0,0-0,0","1,0-1,0","2,0-3,0"]`, fault.Malformed, "must be a JSON object like"},
		{"not JSON", small, "\x80\x80", fault.Malformed, "must be a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.rules.New(1, names)
			moves := s.Apply([]games.Answer{data(tt.fleet), data(tt.fleet)})
			m := moves[0]
			if m.Verdict != tt.verdict || !strings.Contains(m.Reason, tt.why) || m.Unjudged {
				t.Fatalf("got %s %q, want %s %q", m.Verdict, m.Reason, tt.verdict, tt.why)
			}
			if tt.verdict == fault.None {
				if !slices.Equal(s.ToMove(), []int{0}) {
					t.Errorf("ToMove %v after two valid fleets", s.ToMove())
				}
				return
			}
			if !strings.HasPrefix(m.Reason, "invalid boats: ") {
				t.Errorf("reason %q", m.Reason)
			}
			if o := s.Outcome(); !reflect.DeepEqual(o.Rank, []int{1, 1}) || !strings.HasPrefix(o.Reason, "both lost at the start, a draw: alice (player 0): invalid boats: ") {
				t.Errorf("both fleets invalid: %+v", o)
			}
		})
	}
}

func TestInvalidFleetLoses(t *testing.T) {
	for seat := range 2 {
		answers := []games.Answer{data(fleetA), data(fleetB)}
		answers[seat] = data(`{"name":"lazy"}`)
		s := battleship.Rules{}.New(1, names)
		s.Apply(answers)
		want := []int{1, 1}
		want[seat] = 2
		if o := s.Outcome(); len(s.ToMove()) != 0 || !reflect.DeepEqual(o.Rank, want) ||
			o.Reason != fmt.Sprintf(`%s (player %d) lost: invalid boats: the answer has no "boats": {"name":"lazy"}`, names[seat], seat) {
			t.Errorf("seat %d without boats: %+v", seat, o)
		}
	}
	s := battleship.Rules{}.New(1, names)
	m := s.Apply([]games.Answer{{Fault: fault.Timeout, Detail: "no answer within 10s"}, data(fleetB)})[0]
	if o := s.Outcome(); m.Verdict != fault.Timeout || o.Reason != "alice (player 0) lost: timeout: no answer within 10s" || !reflect.DeepEqual(o.Rank, []int{2, 1}) {
		t.Errorf("a timeout at the init: %+v, %+v", m, o)
	}
}

type event struct {
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Result string `json:"result"`
	Boat   []int  `json:"boat"`
}

var decodeEvent = gamestest.Event[event]

func TestShots(t *testing.T) {
	s := started(t)
	// Seat 0 sinks fleetB's boat of 2 (2,2-3,2), seat 1 shoots fleetA.
	for i, tt := range []struct {
		cell, result string
		boat         []int
	}{
		{"2,2", "hit", nil}, {"0,0", "hit", nil}, // a hit gives no extra shot
		{"3,2", "sunk", []int{2, 2, 3, 2}}, {"5,0", "miss", nil},
		{"3,2", "repeat", nil}, {"5,0", "repeat", nil}, // repeated shots are wasted
		{"4,4", "miss", nil}, {"0,1", "sunk", []int{0, 0, 0, 1}},
	} {
		seat := s.ToMove()[0]
		if seat != i%2 {
			t.Fatalf("shot %d by seat %d, turns must alternate", i, seat)
		}
		m := s.Apply([]games.Answer{shot(tt.cell)})[0]
		e := decodeEvent(t, m)
		if m.Verdict != fault.None || e.Result != tt.result || !slices.Equal(e.Boat, tt.boat) || fmt.Sprintf("%d,%d", e.X, e.Y) != tt.cell {
			t.Errorf("shot %d at %s: %+v %+v, want %s %v", i, tt.cell, m, e, tt.result, tt.boat)
		}
	}
	if got := s.Scores(); !slices.Equal(got, []int{2, 2}) {
		t.Errorf("scores %v: a repeated shot must not count", got)
	}
	r := decodeRequest(t, s.Request(0))
	var results []string
	for _, st := range r.Board.YourStrikes {
		results = append(results, st.Target+" "+st.Result)
	}
	if want := []string{"2,2 hit", "3,2 hit and sunk", "3,2 ", "4,4 "}; !slices.Equal(results, want) {
		t.Errorf("your_strikes %q, want %q", results, want)
	}
	var v struct {
		Boats [2][]struct {
			Sunk bool `json:"sunk"`
		} `json:"boats"`
		Shots [2][]struct {
			Result string `json:"result"`
		} `json:"shots"`
	}
	if err := json.Unmarshal(s.View(), &v); err != nil {
		t.Fatal(err)
	}
	if !v.Boats[0][0].Sunk || v.Boats[0][1].Sunk || !v.Boats[1][0].Sunk || len(v.Shots[1]) != 4 || v.Shots[1][2].Result != "repeat" {
		t.Errorf("view %s", s.View())
	}
}

func TestBadShots(t *testing.T) {
	tests := []struct {
		name    string
		answer  games.Answer
		verdict fault.Kind
		why     string
	}{
		{"off the grid", shot("10,0"), fault.Illegal, `"10,0" is off the grid: x goes from 0 to 9 and y from 0 to 9`},
		{"far off", shot("0,999999999"), fault.Illegal, "off the grid"},
		{"semicolon", shot("3;4"), fault.Malformed, `"play" must be a cell "x,y" like "3,4", got "3;4"`},
		{"space", shot("3, 4"), fault.Malformed, `got "3, 4"`},
		{"negative", shot("-1,0"), fault.Malformed, `got "-1,0"`},
		{"three numbers", shot("1,2,3"), fault.Malformed, `got "1,2,3"`},
		{"a list", data(`{"play":[3,4]}`), fault.Malformed, "got [3,4]"},
		{"BrainJar's move", data(`{"move":"34"}`), fault.Malformed, `has no "play"`},
		{"bare cell", data(`"3,4"`), fault.Malformed, "must be a JSON object"},
		{"oom", games.Answer{Fault: fault.OOM, Detail: "killed: over 256 MiB"}, fault.OOM, "out of memory: killed: over 256 MiB"},
		{"output", games.Answer{Fault: fault.Output}, fault.Output, "answer too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := started(t)
			gamestest.Take(t, s, shot("0,0"))
			m := s.Apply([]games.Answer{tt.answer})[0]
			if m.Verdict != tt.verdict || !strings.Contains(m.Reason, tt.why) {
				t.Fatalf("got %s %q, want %s %q", m.Verdict, m.Reason, tt.verdict, tt.why)
			}
			if o := s.Outcome(); !reflect.DeepEqual(o.Rank, []int{1, 2}) || o.Reason != "bob (player 1) lost: "+m.Reason || len(s.ToMove()) != 0 {
				t.Errorf("outcome %+v", o)
			}
		})
	}
}

func TestWin(t *testing.T) {
	s := started(t)
	var answers []games.Answer
	misses := 0
	for _, b := range boatsA {
		for _, c := range b {
			answers = append(answers, shot(fmt.Sprintf("%d,4", misses%10)), shot(c)) // seat 0 misses, seat 1 hits
			misses++
		}
	}
	moves := gamestest.Take(t, s, answers...)
	o := s.Outcome()
	if len(s.ToMove()) != 0 || !reflect.DeepEqual(o.Rank, []int{2, 1}) || !reflect.DeepEqual(o.Score, []int{0, 17}) ||
		o.Reason != "bob (player 1) sank the whole fleet in 17 shots" {
		t.Errorf("outcome %+v", o)
	}
	if e := decodeEvent(t, moves[len(moves)-1]); e.Result != "sunk" {
		t.Errorf("the last shot: %+v", e)
	}
}

func TestDrawAfterMaxTurns(t *testing.T) {
	r := battleship.Rules{Width: 2, Height: 1, Ships: [6]int{1}}
	s := r.New(1, names)
	gamestest.Take(t, s, data(`{"boats":["0,0-0,0"]}`), data(`{"boats":["1,0-1,0"]}`))
	// Each seat shoots where its own boat is: a miss on the enemy grid.
	for turn := range 4 {
		if len(s.ToMove()) != 1 {
			t.Fatalf("over after %d turns: %+v", turn, s.Outcome())
		}
		s.Apply([]games.Answer{shot([]string{"0,0", "1,0"}[turn%2])})
	}
	if o := s.Outcome(); len(s.ToMove()) != 0 || !reflect.DeepEqual(o.Rank, []int{1, 1}) || o.Reason != "no fleet sunk after 4 turns: a draw" {
		t.Errorf("ToMove %v, outcome %+v", s.ToMove(), o)
	}
}

func TestParameters(t *testing.T) {
	s := battleship.Rules{Width: 3, Height: 7, Ships: [6]int{1, 0, 0, 0, 0, 10}}.New(1, names)
	if got := string(s.Request(1)); !strings.Contains(got, `"width":"3","height":"7","ship1":"1","ship2":"0","ship3":"0","ship4":"0","ship5":"0","ship6":"10"`) {
		t.Errorf("request %s", got)
	}
	if err := (battleship.Rules{}).Validate(); err != nil {
		t.Errorf("the default game: %v", err)
	}
	for _, r := range []battleship.Rules{
		{Width: 101}, {Height: -1}, {Ships: [6]int{11}}, {Ships: [6]int{0, -1, 1}},
		{Width: 5, Height: 5, Ships: [6]int{0, 0, 0, 0, 0, 1}}, {Width: 2, Height: 2, Ships: [6]int{5}},
	} {
		if err := r.Validate(); err == nil {
			t.Errorf("%+v is valid", r)
		}
	}
	// Out of bounds, the values are brought back in.
	v := battleship.Rules{Width: 1000, Height: -5, Ships: [6]int{-1, 99}}.New(1, names).View()
	if !strings.Contains(string(v), `"width":100,"height":1,"ships":[0,10,0,0,0,0]`) {
		t.Errorf("view %s", v)
	}
	v = battleship.Rules{Ships: [6]int{-1}}.New(1, names).View()
	if !strings.Contains(string(v), `"width":10,"height":10,"ships":[0,1,2,1,1,0]`) {
		t.Errorf("a fleet of no boat is the default one: view %s", v)
	}
	if got := (battleship.Rules{Width: 3, Height: 4}).MaxRequests(2); got != 13 {
		t.Errorf("MaxRequests %d", got)
	}
}

func TestBoard(t *testing.T) {
	s := started(t)
	gamestest.Take(t, s, shot("2,2"), shot("0,0"), shot("3,2"), shot("9,9"), shot("0,0"))
	board, err := games.Board(battleship.Rules{}, s.View())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"player 0: alice           player 1: bob\n",
		" 0  x # # # . . . . . .    0  x . . . . . . . . #\n",
		" 2  . . . . . . . . . .    2  # . X X . . . . . #\n",
		"turn 6 of 200: player 1 to shoot\n",
	} {
		if !strings.Contains(board, want) {
			t.Errorf("board lacks %q:\n%s", want, board)
		}
	}
	if _, err := games.Board(battleship.Rules{}, json.RawMessage(`{"width":0}`)); err == nil {
		t.Error("a board of an empty view")
	}
}

func TestGolden(t *testing.T) {
	tiny := battleship.Rules{Width: 3, Height: 2, Ships: [6]int{1, 1}}
	gamestest.GoldenGames(t, battleship.Rules{}, 1609, names, []gamestest.Scenario{
		{Name: "game", Rules: tiny, Answers: [][]games.Answer{
			{data(`{"name":"a","boats":["2,1-2,1","1,0-0,0"]}`), shot("0,0"), shot("1,1"), shot("0,1"), shot("2,0")},
			{data(`{"name":"b","boats":["0,1-1,1","2,0-2,0"]}`), shot("0,0"), shot("0,0"), shot("1,0")}}},
		{Name: "draw", Rules: battleship.Rules{Width: 1, Height: 2, Ships: [6]int{1}}, Answers: [][]games.Answer{
			{data(`{"boats":["0,0-0,0"]}`), shot("0,0"), shot("0,0")},
			{data(`{"boats":["0,1-0,1"]}`), shot("0,1"), shot("0,1")}}},
		{Name: "invalid_fleet", Rules: tiny, Answers: [][]games.Answer{
			{data(`{"name":"a","boats":["2,1-2,1","1,0-0,0"]}`)},
			{data(`{"name":"b","boats":["0,0-1,1","2,0-2,0"]}`)}}},
		{Name: "timeout", Answers: [][]games.Answer{
			{data(fleetA), shot("5,5"), {Fault: fault.Timeout, Detail: "no answer within 10s"}},
			{data(fleetB), shot("5,5")}}},
	})
}

// player places a random fleet and shoots random cells, now and then one it
// shot before.
func player(rng *rand.Rand, req json.RawMessage) json.RawMessage {
	var r struct {
		Action string         `json:"action"`
		Board  map[string]any `json:"board"`
	}
	if json.Unmarshal(req, &r) != nil {
		return nil
	}
	num := func(key string) int {
		s, _ := r.Board[key].(string)
		n, _ := strconv.Atoi(s)
		return n
	}
	w, h := num("width"), num("height")
	if r.Action == "init" {
		var ships [6]int
		for i := range ships {
			ships[i] = num(fmt.Sprintf("ship%d", i+1))
		}
		return randomFleet(rng, w, h, ships)
	}
	return json.RawMessage(fmt.Sprintf(`{"play":"%d,%d"}`, rng.IntN(w), rng.IntN(h)))
}

// randomFleet places ships at random, or gives up (nil) on a crowded grid.
func randomFleet(rng *rand.Rand, w, h int, ships [6]int) json.RawMessage {
	taken := map[[2]int]bool{}
	var boats []string
	for length := 6; length >= 1; length-- {
		for range ships[length-1] {
			placed := false
			for try := 0; try < 200 && !placed; try++ {
				dx, dy := 1, 0
				if rng.IntN(2) == 0 {
					dx, dy = 0, 1
				}
				x, y := rng.IntN(w), rng.IntN(h)
				x2, y2 := x+dx*(length-1), y+dy*(length-1)
				if x2 >= w || y2 >= h {
					continue
				}
				free := true
				for i := range length {
					free = free && !taken[[2]int{x + dx*i, y + dy*i}]
				}
				if !free {
					continue
				}
				for i := range length {
					taken[[2]int{x + dx*i, y + dy*i}] = true
				}
				boats = append(boats, fmt.Sprintf("%d,%d-%d,%d", x2, y2, x, y))
				placed = true
			}
			if !placed {
				return nil
			}
		}
	}
	b, _ := json.Marshal(map[string]any{"name": "random", "boats": boats})
	return b
}

func TestConformance(t *testing.T) {
	gamestest.Conformance(t, battleship.Rules{}, player)
	gamestest.Conformance(t, battleship.Rules{Width: 4, Height: 3, Ships: [6]int{2, 1, 1}}, player)
}

// FuzzFleet judges any init reply on a small grid: nothing panics, the
// move encodes, and a fleet accepted is exactly the one asked for, straight,
// on the grid and without overlap, as the View shows it.
func FuzzFleet(f *testing.F) {
	r := battleship.Rules{Width: 4, Height: 3, Ships: [6]int{2, 1}}
	for _, s := range []string{
		`{"boats":["0,0-0,0","1,0-1,0","2,0-3,0"]}`, `{"boats":["3,2-3,2","0,2-0,2","0,0-1,0"]}`, `{"boats":["0,0-0,0","0,0-0,0","2,0-3,0"]}`,
		`{"boats":["0,0-1,1"]}`, `{"boats":["9,9-9,9","1,0-1,0","2,0-3,0"]}`, `{"boats":[1,2,3]}`, `{"boats":null}`, `{}`, "\x80",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, answer []byte) {
		s := r.New(1, names)
		m := s.Apply([]games.Answer{{Data: answer}, data(`{"boats":["0,0-0,0","1,0-1,0","2,0-3,0"]}`)})[0]
		if _, err := json.Marshal(m); err != nil {
			t.Fatalf("%q: the move does not encode: %v", answer, err)
		}
		if m.Verdict != fault.None {
			if m.Reason == "" || len(s.ToMove()) != 0 {
				t.Fatalf("%q refused: %+v", answer, m)
			}
			return
		}
		var v struct {
			Boats [2][]struct{ X1, Y1, X2, Y2, Length int } `json:"boats"`
		}
		if err := json.Unmarshal(s.View(), &v); err != nil {
			t.Fatal(err)
		}
		taken := map[[2]int]bool{}
		var lengths []int
		for _, b := range v.Boats[0] {
			if b.X1 != b.X2 && b.Y1 != b.Y2 || b.X1 < 0 || b.Y1 < 0 || b.X2 >= 4 || b.Y2 >= 3 || b.X1 > b.X2 || b.Y1 > b.Y2 {
				t.Fatalf("%q accepted with the boat %+v", answer, b)
			}
			for x := b.X1; x <= b.X2; x++ {
				for y := b.Y1; y <= b.Y2; y++ {
					if taken[[2]int{x, y}] {
						t.Fatalf("%q accepted with boats overlapping at %d,%d", answer, x, y)
					}
					taken[[2]int{x, y}] = true
				}
			}
			lengths = append(lengths, b.Length)
		}
		if slices.Sort(lengths); !slices.Equal(lengths, []int{1, 1, 2}) {
			t.Fatalf("%q accepted with boats of lengths %v", answer, lengths)
		}
	})
}

// FuzzShot judges any play-turn reply: nothing panics, the move encodes,
// and a shot accepted is on the grid.
func FuzzShot(f *testing.F) {
	seeds := []string{`{"play":"3,4"}`, `{"play":"0,0"}`, `{"play":"10,0"}`, `{"play":"3, 4"}`, `{"play":"-1,0"}`, `{"play":[3,4]}`, `{"move":"34"}`, `{}`, "\x80"}
	gamestest.FuzzAnswer(f, seeds, started, []int{2, 1}, func(t *testing.T, answer []byte, s games.State, m games.Move) {
		if e := decodeEvent(t, m); e.X < 0 || e.X > 9 || e.Y < 0 || e.Y > 9 || e.Result == "" || !slices.Equal(s.ToMove(), []int{1}) {
			t.Fatalf("%q accepted as %+v", answer, e)
		}
	})
}
