package battleships_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"botjudge/games"
	"botjudge/games/battleships"
	"botjudge/games/fault"
	"botjudge/games/gamestest"
)

func TestRegistered(t *testing.T) {
	gamestest.Registered(t, "battleships", gamestest.Registration{Protocol: games.ProtocolProgram, Seats: [2]int{2, 2}, Rounds: 5, MaxRequests: 65})
}

func TestInitRequest(t *testing.T) {
	g := battleships.Rules{}.New(1, names)
	if got := g.ToMove(); !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("ToMove = %v, want [0 1]", got)
	}
	for seat := range 2 {
		if got := string(g.Request(seat)); got != `{"cmd":"init"}` {
			t.Errorf("Request(%d) = %s", seat, got)
		}
	}
}

// fleetWith is fleetB with ship key replaced by value, or removed if value is
// empty.
func fleetWith(key, value string) string {
	var f map[string]json.RawMessage
	if err := json.Unmarshal([]byte(fleetB), &f); err != nil {
		panic(err)
	}
	if value == "" {
		delete(f, key)
	} else {
		f[key] = json.RawMessage(value)
	}
	b, err := json.Marshal(f)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestFleetValidation(t *testing.T) {
	tests := []struct {
		name, fleet string
		verdict     fault.Kind
		why         string // part of the reason after "invalid fleet: "
	}{
		{"valid", fleetB, fault.None, ""},
		{"touching", `{"2":{"point":"00","orientation":"horizontal"},"3":{"point":"01","orientation":"horizontal"},` +
			`"4":{"point":"02","orientation":"horizontal"},"5":{"point":"03","orientation":"horizontal"}}`, fault.None, ""},
		{"on the edges", `{"2":{"point":"00","orientation":"vertical"},"3":{"point":"10","orientation":"vertical"},` +
			`"4":{"point":"73","orientation":"vertical"},"5":{"point":"37","orientation":"horizontal"}}`, fault.None, ""},
		{"extra field in a ship", fleetWith("2", `{"point":"56","orientation":"vertical","color":"red"}`), fault.None, ""},
		{"missing ship", fleetWith("5", ""), fault.Malformed, "ship 5 is missing"},
		{"empty object", `{}`, fault.Malformed, "ship 2 is missing"},
		{"extra ship", fleetWith("6", `{"point":"00","orientation":"vertical"}`), fault.Malformed, `unknown key "6"`},
		{"extra key", fleetWith("comment", `"hi"`), fault.Malformed, `unknown key "comment"`},
		{"key with a zero", fleetWith("02", `{"point":"00","orientation":"vertical"}`), fault.Malformed, `unknown key "02"`},
		{"bad orientation", fleetWith("2", `{"point":"56","orientation":"diagonal"}`), fault.Malformed,
			`ship 2: "orientation" must be "horizontal" or "vertical", got "diagonal"`},
		{"capital orientation", fleetWith("2", `{"point":"56","orientation":"Vertical"}`), fault.Malformed, `"orientation" must be`},
		{"no orientation", fleetWith("2", `{"point":"56"}`), fault.Malformed, `"orientation" must be "horizontal" or "vertical", got nothing`},
		{"point with a space", fleetWith("2", `{"point":"8 0","orientation":"vertical"}`), fault.Malformed, `ship 2: point "8 0" is not two digits`},
		{"point of one digit", fleetWith("2", `{"point":"0","orientation":"vertical"}`), fault.Malformed, `point "0" is not two digits`},
		{"point of three digits", fleetWith("2", `{"point":"123","orientation":"vertical"}`), fault.Malformed, `point "123" is not two digits`},
		{"point with a letter", fleetWith("2", `{"point":"a1","orientation":"vertical"}`), fault.Malformed, `point "a1" is not two digits`},
		{"point off the grid", fleetWith("2", `{"point":"88","orientation":"vertical"}`), fault.Illegal, `ship 2: point "88" is off the grid`},
		{"point as a number", fleetWith("2", `{"point":12,"orientation":"vertical"}`), fault.Malformed, `"point" must be a string of two digits like "34", got 12`},
		{"point null", fleetWith("2", `{"point":null,"orientation":"vertical"}`), fault.Malformed, `"point" must be a string`},
		{"capital point", fleetWith("2", `{"Point":"56","orientation":"vertical"}`), fault.Malformed, `"point" must be a string of two digits like "34", got nothing`},
		{"ship not an object", fleetWith("2", `"56"`), fault.Malformed, `ship 2: must be an object`},
		{"ship null", fleetWith("2", `null`), fault.Malformed, `ship 2: must be an object`},
		{"runs off horizontally", fleetWith("5", `{"point":"40","orientation":"horizontal"}`), fault.Illegal,
			"ship 5: starting at 40 horizontally it runs off the grid (columns 4 to 8)"},
		{"runs off vertically", fleetWith("4", `{"point":"16","orientation":"vertical"}`), fault.Illegal,
			"ship 4: starting at 16 vertically it runs off the grid (rows 6 to 9)"},
		{"overlap", fleetWith("2", `{"point":"14","orientation":"vertical"}`), fault.Illegal, "ships 2 and 3 overlap at 15"},
		{"array", `[1,2]`, fault.Malformed, "must be a JSON object"},
		{"string", `"hello"`, fault.Malformed, "must be a JSON object"},
		{"number", `42`, fault.Malformed, "must be a JSON object"},
		{"null", `null`, fault.Malformed, "must be a JSON object"},
		{"nothing", ``, fault.Malformed, "got nothing"},
		{"broken JSON", `{"2":`, fault.Malformed, "must be a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := battleships.Rules{}.New(1, names)
			moves := g.Apply([]games.Answer{ok(fleetA), ok(tt.fleet)})
			if len(moves) != 2 || moves[0].Verdict != fault.None {
				t.Fatalf("moves = %+v", moves)
			}
			m := moves[1]
			if _, err := json.Marshal(m); err != nil {
				t.Errorf("the move cannot be recorded: %v", err)
			}
			if m.Verdict != tt.verdict {
				t.Fatalf("verdict %q (%s), want %q", m.Verdict, m.Reason, tt.verdict)
			}
			if tt.verdict == fault.None {
				if got := g.ToMove(); !slices.Equal(got, []int{0}) {
					t.Errorf("ToMove = %v, want [0]", got)
				}
				if e := decodeEvent(t, m); len(e.Fleet) != 4 {
					t.Errorf("event %s, want a fleet of 4 ships", m.Event)
				}
				return
			}
			if !strings.HasPrefix(m.Reason, "invalid fleet: ") || !strings.Contains(m.Reason, tt.why) {
				t.Errorf("reason %q, want invalid fleet: ...%s...", m.Reason, tt.why)
			}
			if e := decodeEvent(t, m); e.Error != m.Reason {
				t.Errorf("event %s, want the reason as error", m.Event)
			}
			if len(g.ToMove()) != 0 {
				t.Errorf("ToMove = %v after an invalid fleet", g.ToMove())
			}
			o := g.Outcome()
			if !slices.Equal(o.Rank, []int{1, 2}) || o.Reason != m.Reason {
				t.Errorf("outcome %+v, want seat 1 losing with %q", o, m.Reason)
			}
		})
	}
}

func TestInvalidFleetOfSeat0(t *testing.T) {
	g := battleships.Rules{}.New(1, names)
	g.Apply([]games.Answer{ok(`{}`), ok(fleetB)})
	if o := g.Outcome(); !slices.Equal(o.Rank, []int{2, 1}) || o.Reason != "invalid fleet: ship 2 is missing" {
		t.Errorf("outcome %+v", o)
	}
}

func TestBothInvalidIsDraw(t *testing.T) {
	g := battleships.Rules{}.New(1, names)
	g.Apply([]games.Answer{{Fault: fault.Timeout, Detail: "no answer within 10s"}, ok(`{}`)})
	o := g.Outcome()
	want := "both fleets invalid (player 0: timeout: no answer within 10s; player 1: invalid fleet: ship 2 is missing)"
	if !slices.Equal(o.Rank, []int{1, 1}) || o.Reason != want {
		t.Errorf("outcome %+v, want a draw because %s", o, want)
	}
	if o.Points(0, 1) != 0.5 || len(g.ToMove()) != 0 {
		t.Errorf("points %v, ToMove %v", o.Points(0, 1), g.ToMove())
	}
}

var faults = []fault.Kind{fault.Timeout, fault.Crash, fault.Error, fault.Output, fault.Malformed, fault.OOM}

func TestFaultAtInitLoses(t *testing.T) {
	for _, f := range faults {
		t.Run(string(f), func(t *testing.T) {
			g := battleships.Rules{}.New(1, names)
			moves := g.Apply([]games.Answer{ok(fleetA), {Fault: f, Detail: "the detail"}})
			if m := moves[1]; m.Verdict != f || m.Reason != "the detail" {
				t.Errorf("move %+v, want verdict %s with the detail", m, f)
			}
			if o := g.Outcome(); !slices.Equal(o.Rank, []int{1, 2}) || o.Reason != string(f)+": the detail" {
				t.Errorf("outcome %+v", o)
			}
		})
	}
}

func TestFaultAtMoveLoses(t *testing.T) {
	for _, f := range faults {
		for seat := range 2 {
			t.Run(string(f), func(t *testing.T) {
				g := started(t)
				if seat == 1 {
					shoot(t, g, "11") // a miss hands the turn to seat 1
				}
				moves := g.Apply([]games.Answer{{Fault: f, Detail: "the detail"}})
				if m := moves[0]; m.Seat != seat || m.Verdict != f || m.Reason != "the detail" {
					t.Errorf("move %+v, want seat %d with verdict %s and the detail", m, seat, f)
				}
				want := []int{1, 1}
				want[seat] = 2
				if o := g.Outcome(); !slices.Equal(o.Rank, want) || o.Reason != string(f)+": the detail" {
					t.Errorf("outcome %+v, want rank %v", o, want)
				}
				if len(g.ToMove()) != 0 {
					t.Errorf("ToMove = %v after a fault", g.ToMove())
				}
			})
		}
	}
}

func TestHitShootsAgain(t *testing.T) {
	g := started(t)
	m := shoot(t, g, "30")
	if e := decodeEvent(t, m); e.Shot != "30" || e.Result != "hit" || !e.Again || e.Size != 0 {
		t.Errorf("event %s, want a hit and shoot again", m.Event)
	}
	if got := g.ToMove(); !slices.Equal(got, []int{0}) {
		t.Fatalf("ToMove = %v after a hit, want [0]", got)
	}
	m = shoot(t, g, "31")
	if e := decodeEvent(t, m); e.Result != "miss" || e.Again {
		t.Errorf("event %s, want a miss", m.Event)
	}
	if got := g.ToMove(); !slices.Equal(got, []int{1}) {
		t.Errorf("ToMove = %v after a miss, want [1]", got)
	}
}

func TestSinking(t *testing.T) {
	g := started(t)
	shoot(t, g, "76") // ship 5
	shoot(t, g, "56") // ship 2
	m := shoot(t, g, "57")
	if e := decodeEvent(t, m); e.Result != "sunk" || e.Size != 2 || !e.Again {
		t.Errorf("event %s, want ship 2 sunk and shoot again", m.Event)
	}
	for _, cell := range []string{"72", "73", "74", "75"} {
		shoot(t, g, cell)
	}
	req := decodeRequest(t, g.Request(0))
	if want := []string{"0763", "0563", "0574", "0723", "0733", "0743", "0754"}; !slices.Equal(req.Moves, want) {
		t.Errorf("moves %q, want %q", req.Moves, want)
	}
	if !slices.Equal(req.Destroyed, []int{2, 5}) {
		t.Errorf("destroyed %v, want [2 5] sorted", req.Destroyed)
	}
	if other := decodeRequest(t, g.Request(1)); len(other.Destroyed) != 0 || len(other.Hit) != 0 {
		t.Errorf("seat 1 sees %+v, want nothing of seat 0's shots", other)
	}
}

func TestRequestLists(t *testing.T) {
	g := started(t)
	if got := string(g.Request(0)); got != `{"cmd":"move","moves":[],"hit":[],"missed":[],"destroyed":[],"you":0}` {
		t.Errorf("first request %s", got)
	}
	for _, cell := range []string{"72", "30", "05", "40", "11", "33", "76", "66", "34"} {
		shoot(t, g, cell)
	}
	r0 := decodeRequest(t, g.Request(0))
	want := request{
		Cmd:   "move",
		Moves: []string{"0723", "0303", "0053", "0403", "0111", "1331", "0763", "0661", "1341"},
		// Column-major: row-major would put 05 after 40.
		Hit:       []string{"05", "30", "40", "72", "76"},
		Missed:    []string{"11", "66"},
		Destroyed: []int{},
		You:       0,
	}
	if !reflect.DeepEqual(r0, want) {
		t.Errorf("request for seat 0\n got %+v\nwant %+v", r0, want)
	}
	r1 := decodeRequest(t, g.Request(1))
	if r1.You != 1 || len(r1.Hit) != 0 || !slices.Equal(r1.Missed, []string{"33", "34"}) || !slices.Equal(r1.Moves, want.Moves) {
		t.Errorf("request for seat 1: %+v", r1)
	}
}

func TestShotsAreCountedPerSeat(t *testing.T) {
	g := started(t)
	shoot(t, g, "00") // seat 0 misses at 00 on fleet B
	// Seat 1 may shoot the same cell on the other grid: a hit on fleet A.
	if e := decodeEvent(t, shoot(t, g, "00")); e.Result != "hit" {
		t.Errorf("seat 1 at 00: %+v, want a hit", e)
	}
}

func TestRepeatedShotLoses(t *testing.T) {
	g := started(t)
	shoot(t, g, "30")
	m := shoot(t, g, "30")
	if m.Verdict != fault.Illegal || m.Reason != "cell 30 was already shot" {
		t.Errorf("move %+v, want illegal repeated shot", m)
	}
	if o := g.Outcome(); !slices.Equal(o.Rank, []int{2, 1}) || o.Reason != "illegal: cell 30 was already shot" {
		t.Errorf("outcome %+v", o)
	}
}

func TestBadMoves(t *testing.T) {
	tests := []struct {
		answer  string
		verdict fault.Kind
		why     string
	}{
		{`{"move":"00","comment":"extra fields are fine"}`, fault.None, ""},
		{" {\"move\":\"00\"}\n", fault.None, ""},
		{`{"move":"88"}`, fault.Illegal, `the move "88" is off the grid`},
		{`{"move":"08"}`, fault.Illegal, "off the grid"},
		{`{"move":"90"}`, fault.Illegal, "off the grid"},
		{`{"move":"8 0"}`, fault.Malformed, `the move "8 0" is not two digits`},
		{`{"move":"0"}`, fault.Malformed, "not two digits"},
		{`{"move":"000"}`, fault.Malformed, "not two digits"},
		{`{"move":" 00"}`, fault.Malformed, "not two digits"},
		{`{"move":"-1"}`, fault.Malformed, "not two digits"},
		{`{"move":"a0"}`, fault.Malformed, "not two digits"},
		{`{"move":0}`, fault.Malformed, `"move" must be a string of two digits like "34", got 0`},
		{`{"move":12}`, fault.Malformed, `"move" must be a string`},
		{`{"move":null}`, fault.Malformed, `"move" must be a string`},
		{`{"move":["0","0"]}`, fault.Malformed, `"move" must be a string`},
		{`{}`, fault.Malformed, `the answer has no "move" field`},
		{`{"Move":"00"}`, fault.Malformed, `no "move" field`},
		{`"00"`, fault.Malformed, `must be a JSON object like {"move":"34"}, got "00"`},
		{`[]`, fault.Malformed, "must be a JSON object"},
		{`null`, fault.Malformed, "must be a JSON object"},
		{``, fault.Malformed, "got nothing"},
		{`{"move":"00"`, fault.Malformed, "must be a JSON object"},
		{`{"move":"` + strings.Repeat("9", 200) + `"}`, fault.Malformed, "not two digits"},
	}
	for _, tt := range tests {
		t.Run(tt.answer, func(t *testing.T) {
			g := started(t)
			m := g.Apply([]games.Answer{ok(tt.answer)})[0]
			if m.Verdict != tt.verdict || !strings.Contains(m.Reason, tt.why) {
				t.Fatalf("move %+v, want %q with %q", m, tt.verdict, tt.why)
			}
			if _, err := json.Marshal(m); err != nil {
				t.Errorf("the move cannot be recorded: %v", err)
			}
			if tt.verdict == fault.None {
				return
			}
			if o := g.Outcome(); !slices.Equal(o.Rank, []int{2, 1}) || o.Reason != string(tt.verdict)+": "+m.Reason {
				t.Errorf("outcome %+v", o)
			}
			if len(m.Reason) > 200 {
				t.Errorf("reason of %d bytes: a long answer must be shortened", len(m.Reason))
			}
		})
	}
}

func TestWinOnLastShip(t *testing.T) {
	g := started(t)
	shoot(t, g, "11") // seat 0 misses
	for _, cell := range []string{"00", "01", "22", "23", "24", "42", "43", "44", "45", "37", "47", "57", "67"} {
		if len(g.ToMove()) == 0 {
			t.Fatalf("game over before %s", cell)
		}
		shoot(t, g, cell)
	}
	if len(g.ToMove()) != 1 || g.Outcome().Rank != nil {
		t.Fatal("game over with one cell of ship 5 left")
	}
	m := shoot(t, g, "77")
	if e := decodeEvent(t, m); e.Result != "sunk" || e.Size != 5 || e.Again {
		t.Errorf("event %s, want the last ship sunk and no more shots", m.Event)
	}
	if len(g.ToMove()) != 0 {
		t.Fatalf("ToMove = %v after the last ship", g.ToMove())
	}
	o := g.Outcome()
	if !slices.Equal(o.Rank, []int{2, 1}) || o.Reason != "fleet sunk" || !slices.Equal(o.Score, []int{0, 14}) {
		t.Errorf("outcome %+v, want seat 1 winning 14 to 0", o)
	}
}

// TestGameAlwaysEnds plays the longest possible game: both seats scan every
// cell, and one of them must sink the other's fleet within its 64 shots.
func TestGameAlwaysEnds(t *testing.T) {
	g, steps := play(t, [2]gamestest.Bot{script(fleetA, scan()...), script(fleetB, scan()...)})
	if o := g.Outcome(); o.Reason != "fleet sunk" {
		t.Fatalf("outcome %+v, want a sunk fleet", o)
	}
	if len(steps) > 1+2*64 {
		t.Errorf("%d steps", len(steps))
	}
}

func TestView(t *testing.T) {
	g := started(t)
	shoot(t, g, "30")
	var v struct {
		Names []string
		Phase string
		Turn  int
		Ships [2][][4]any
		Shots [2][]struct {
			C, R   int
			Result string
		}
	}
	if err := json.Unmarshal(g.View(), &v); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v.Names, names) || v.Phase != "play" || v.Turn != 0 {
		t.Errorf("view %s", g.View())
	}
	if got := v.Ships[1]; len(got) != 4 || !reflect.DeepEqual(got[2], [4]any{3.0, 0.0, 4.0, "h"}) {
		t.Errorf("ships of seat 1: %v", got)
	}
	if len(v.Shots[0]) != 0 || len(v.Shots[1]) != 1 || v.Shots[1][0].C != 3 || v.Shots[1][0].R != 0 || v.Shots[1][0].Result != "hit" {
		t.Errorf("shots %+v, want the hit at 30 on seat 1's grid", v.Shots)
	}
}

func TestBoardRefusesOtherViews(t *testing.T) {
	if _, err := (battleships.Rules{}).Board(json.RawMessage(`[1,2]`)); err == nil {
		t.Error("Board accepted a view that is not one")
	}
}

func TestBoardMarksSunkShips(t *testing.T) {
	g := started(t)
	shoot(t, g, "56")
	shoot(t, g, "57")
	shoot(t, g, "30")
	shoot(t, g, "00")
	text, err := battleships.Rules{}.Board(g.View())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text, "\n")
	// Rows 0, 6 and 7 of seat 1's grid, the right half of the lines.
	for row, want := range map[int]string{0: "0  o . . x # # # .", 6: "6  . . . . . X . #", 7: "7  . . . . . X . ."} {
		if got := lines[2+row][24:]; got != want {
			t.Errorf("row %d of seat 1: %q, want %q\n%s", row, got, want, text)
		}
	}
}

func TestFaultWithoutDetail(t *testing.T) {
	g := started(t)
	m := g.Apply([]games.Answer{{Fault: fault.Crash}})[0]
	if m.Reason != "crash" || g.Outcome().Reason != "crash" {
		t.Errorf("move %+v, outcome %+v, want the fault named", m, g.Outcome())
	}
	if moves := g.Apply([]games.Answer{ok(`{"move":"00"}`)}); moves != nil {
		t.Errorf("a finished game applied %+v", moves)
	}
}

func TestBoardBeforeTheFleets(t *testing.T) {
	text, err := battleships.Rules{}.Board(battleships.Rules{}.New(1, names).View())
	lines := strings.Split(text, "\n")
	if err != nil || len(lines) < 11 || lines[10] != "waiting for the fleets" || strings.ContainsAny(strings.Join(lines[2:10], ""), "#xXo") {
		t.Errorf("board of a new game (%v):\n%s", err, text)
	}
}
