// Package battleships holds the rules of BrainJar battleships (SPEC §2): each
// player hides one ship of each size 2, 3, 4 and 5 on an 8×8 grid, then the
// players shoot at each other's grid; a hit lets the shooter shoot again, and
// the first to sink the whole enemy fleet wins. Any error loses the game.
//
// The rules are deterministic: seat 0 always shoots first and the seed is
// unused, because the judge alternates the seats across the games of a pairing.
//
// Every game ends: a seat that shoots a cell twice loses, so each seat fires
// at most 64 shots, and a seat that has fired at all 64 cells has sunk the
// whole enemy fleet. No turn limit is needed.
//
// Outcome.Score is, per seat, the number of enemy ship cells it hit (0 to 14).
//
// View JSON, for the web page and Board:
//
//	{"names":["a","b"], "phase":"init"|"play"|"over", "turn":0|1|-1,
//	 "ships":[[[c,r,size,"h"|"v"],...], [...]],
//	 "shots":[[{"c":c,"r":r,"result":"miss"|"hit"|"sunk"},...], [...]]}
//
// ships[i] is seat i's fleet (empty until it placed a valid one) and shots[i]
// the shots that landed on seat i's grid, fired by the other seat, oldest
// first. turn is the seat to shoot, -1 outside the "play" phase.
//
// Move.Event JSON: {"fleet":[[c,r,size,"h"|"v"],...]} for a valid fleet,
// {"shot":"CR","result":"miss"|"hit"|"sunk","size":n,"again":bool} for a shot
// (size only when sunk; again when the same seat shoots next), and
// {"error":reason} for an answer that lost the game.
package battleships

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"botjudge/games"
	"botjudge/games/fault"
)

// side is the width and height of a grid.
const side = 8

// sizes are the ships of a fleet, one of each, in the order they are checked
// and listed.
var sizes = [...]int{2, 3, 4, 5}

// Shot results as the original engine writes them in the moves log.
const (
	miss = 1
	hit  = 3
	sunk = 4
)

var resultNames = map[int]string{miss: "miss", hit: "hit", sunk: "sunk"}

// Rules is BrainJar battleships, registered as "battleships".
type Rules struct{}

func init() { games.Register(Rules{}) }

// Name implements games.Rules.
func (Rules) Name() string { return "battleships" }

// SeedScore implements games.SeedScored: BrainJar ranked by points.
func (Rules) SeedScore() string { return games.SeedBrainJar }

// Protocol implements games.Rules: one process per request.
func (Rules) Protocol() string { return games.ProtocolProgram }

// Seats implements games.Rules.
func (Rules) Seats() (min, max int) { return 2, 2 }

// DefaultRounds implements games.Rounder: hidden fleets and random bots need
// several games per pairing to be fair.
func (Rules) DefaultRounds() int { return 5 }

// MaxRequests implements games.Bounded: the fleet, then at most one shot
// per cell since a repeated shot loses.
func (Rules) MaxRequests(int) int { return 1 + side*side }

// Version implements games.Versioned: version 2 lists "destroyed" in the
// order the ships were sunk, as the original engine does (version 1 sorted
// it), which bots may read.
func (Rules) Version() string { return "2" }

// New implements games.Rules. The seed is unused: the game has no chance.
func (Rules) New(seed int64, names []string) games.State {
	g := &game{names: make([]string, 2), turn: -1}
	copy(g.names, names)
	return g
}

type phase int

const (
	setup phase = iota // waiting for both fleets
	playing
	over
)

var phaseNames = [...]string{setup: "init", playing: "play", over: "over"}

// ship is one placed ship; it encodes as [c, r, size, "h"|"v"].
type ship struct {
	c, r, size int
	vertical   bool
}

func (s ship) covers(c, r int) bool {
	if s.vertical {
		return c == s.c && r >= s.r && r < s.r+s.size
	}
	return r == s.r && c >= s.c && c < s.c+s.size
}

// cells lists the cells of s, from its point on.
func (s ship) cells() [][2]int {
	cells := make([][2]int, s.size)
	for i := range cells {
		if s.vertical {
			cells[i] = [2]int{s.c, s.r + i}
		} else {
			cells[i] = [2]int{s.c + i, s.r}
		}
	}
	return cells
}

func (s ship) MarshalJSON() ([]byte, error) {
	o := "h"
	if s.vertical {
		o = "v"
	}
	return json.Marshal([]any{s.c, s.r, s.size, o})
}

func (s *ship) UnmarshalJSON(b []byte) error {
	var o string
	// Decoding into interfaces that hold pointers fills the pointed values.
	if err := json.Unmarshal(b, &[4]any{&s.c, &s.r, &s.size, &o}); err != nil {
		return err
	}
	s.vertical = o == "v"
	return nil
}

// shot is one applied shot, in the order of the game.
type shot struct {
	seat, c, r, result int
}

type game struct {
	names   []string
	phase   phase
	fleets  [2][]ship
	shots   []shot
	turn    int // the seat to shoot while playing, else -1
	outcome games.Outcome
}

func (g *game) ToMove() []int {
	switch g.phase {
	case setup:
		return []int{0, 1}
	case playing:
		return []int{g.turn}
	}
	return nil
}

// moveRequest is the snapshot a seat gets before each shot; its lists are
// never null, as the original engine sends [].
type moveRequest struct {
	Cmd       string   `json:"cmd"`
	Moves     []string `json:"moves"`
	Hit       []string `json:"hit"`
	Missed    []string `json:"missed"`
	Destroyed []int    `json:"destroyed"`
	You       int      `json:"you"`
}

func (g *game) Request(seat int) json.RawMessage {
	if g.phase == setup {
		return json.RawMessage(`{"cmd":"init"}`)
	}
	req := moveRequest{Cmd: "move", Moves: []string{}, Hit: []string{}, Missed: []string{}, Destroyed: []int{}, You: seat}
	for _, s := range g.shots {
		req.Moves = append(req.Moves, fmt.Sprintf("%d%s%d", s.seat, cell(s.c, s.r), s.result))
		if s.seat != seat {
			continue
		}
		if s.result == miss {
			req.Missed = append(req.Missed, cell(s.c, s.r))
		} else {
			req.Hit = append(req.Hit, cell(s.c, s.r))
		}
		if s.result == sunk {
			req.Destroyed = append(req.Destroyed, g.shipAt(1-seat, s.c, s.r).size)
		}
	}
	// "CR" strings sort column first, then row: the original engine's order.
	// Destroyed stays in the order the ships were sunk, as the engine's.
	sort.Strings(req.Hit)
	sort.Strings(req.Missed)
	return encode(req)
}

func (g *game) Apply(answers []games.Answer) []games.Move {
	switch g.phase {
	case setup:
		return g.applyFleets(answers)
	case playing:
		return []games.Move{g.applyShot(answers[0])}
	}
	return nil
}

func (g *game) applyFleets(answers []games.Answer) []games.Move {
	moves := make([]games.Move, 2)
	var failed [2]string // each seat's reason to lose, as the outcome says it
	for seat := range moves {
		a := answers[seat]
		m := games.Move{Seat: seat, Answer: recorded(a.Data)}
		if a.Fault != fault.None {
			m.Verdict, m.Reason, failed[seat] = a.Fault, faultDetail(a), faultReason(a)
		} else if fleet, v, why := parseFleet(a.Data); v != fault.None {
			m.Verdict, m.Reason = v, "invalid fleet: "+why
			failed[seat] = m.Reason
		} else {
			g.fleets[seat] = fleet
			m.Event = encode(map[string][]ship{"fleet": fleet})
		}
		if failed[seat] != "" {
			m.Event = encode(map[string]string{"error": m.Reason})
		}
		moves[seat] = m
	}
	switch {
	case failed[0] != "" && failed[1] != "":
		g.end([]int{1, 1}, fmt.Sprintf("both fleets invalid (player 0: %s; player 1: %s)", failed[0], failed[1]))
	case failed[0] != "":
		g.end([]int{2, 1}, failed[0])
	case failed[1] != "":
		g.end([]int{1, 2}, failed[1])
	default:
		g.phase, g.turn = playing, 0
	}
	return moves
}

func (g *game) applyShot(a games.Answer) games.Move {
	seat := g.turn
	m := games.Move{Seat: seat, Answer: recorded(a.Data)}
	lose := func(reason string) games.Move {
		m.Event = encode(map[string]string{"error": m.Reason})
		rank := []int{1, 1}
		rank[seat] = 2
		g.end(rank, reason)
		return m
	}
	if a.Fault != fault.None {
		m.Verdict, m.Reason = a.Fault, faultDetail(a)
		return lose(faultReason(a))
	}
	c, r, v, why := g.parseShot(seat, a.Data)
	if v != fault.None {
		m.Verdict, m.Reason = v, why
		return lose(string(v) + ": " + why)
	}

	s := shot{seat: seat, c: c, r: r, result: miss}
	target := g.shipAt(1-seat, c, r)
	if target != nil {
		s.result = hit
		if g.hits(seat, *target) == target.size-1 {
			s.result = sunk
		}
	}
	g.shots = append(g.shots, s)

	type event struct {
		Shot   string `json:"shot"`
		Result string `json:"result"`
		Size   int    `json:"size,omitempty"`
		Again  bool   `json:"again"`
	}
	ev := event{Shot: cell(c, r), Result: resultNames[s.result]}
	if s.result == sunk {
		ev.Size = target.size
	}
	switch {
	case g.score(seat) == fleetCells():
		rank := []int{2, 2}
		rank[seat] = 1
		g.end(rank, "fleet sunk")
	case s.result == miss:
		g.turn = 1 - seat
	default:
		ev.Again = true
	}
	m.Event = encode(ev)
	return m
}

func (g *game) end(rank []int, reason string) {
	g.phase, g.turn = over, -1
	g.outcome = games.Outcome{Rank: rank, Reason: reason}
}

func (g *game) Outcome() games.Outcome {
	o := g.outcome
	if o.Rank != nil {
		o.Score = g.Scores()
	}
	return o
}

// Scores implements games.State: the enemy ship cells each seat has hit.
func (g *game) Scores() []int { return []int{g.score(0), g.score(1)} }

// shipAt returns seat's ship covering cell (c, r), or nil.
func (g *game) shipAt(seat, c, r int) *ship {
	for i, s := range g.fleets[seat] {
		if s.covers(c, r) {
			return &g.fleets[seat][i]
		}
	}
	return nil
}

// hits counts the shots of seat that hit the enemy ship t.
func (g *game) hits(seat int, t ship) int {
	n := 0
	for _, s := range g.shots {
		if s.seat == seat && t.covers(s.c, s.r) {
			n++
		}
	}
	return n
}

// score is the number of enemy ship cells seat has hit; shots never repeat,
// so every hit is a different cell.
func (g *game) score(seat int) int {
	n := 0
	for _, s := range g.shots {
		if s.seat == seat && s.result != miss {
			n++
		}
	}
	return n
}

func fleetCells() int {
	n := 0
	for _, size := range sizes {
		n += size
	}
	return n
}

func (g *game) shotAlready(seat, c, r int) bool {
	for _, s := range g.shots {
		if s.seat == seat && s.c == c && s.r == r {
			return true
		}
	}
	return false
}

type shotView struct {
	C      int    `json:"c"`
	R      int    `json:"r"`
	Result string `json:"result"`
}

type view struct {
	Names []string      `json:"names"`
	Phase string        `json:"phase"`
	Turn  int           `json:"turn"`
	Ships [2][]ship     `json:"ships"`
	Shots [2][]shotView `json:"shots"`
}

func (g *game) View() json.RawMessage {
	v := view{Names: g.names, Phase: phaseNames[g.phase], Turn: g.turn}
	for seat := range v.Ships {
		v.Ships[seat] = append([]ship{}, g.fleets[seat]...)
		v.Shots[seat] = []shotView{}
	}
	for _, s := range g.shots {
		// The shot lands on the grid of the seat that did not fire it.
		v.Shots[1-s.seat] = append(v.Shots[1-s.seat], shotView{s.c, s.r, resultNames[s.result]})
	}
	return encode(v)
}

// parseFleet checks an init answer. The verdict is Malformed when the answer
// does not have the shape of a fleet and Illegal when the ships break the
// rules; why says it in plain words.
func parseFleet(data []byte) (fleet []ship, v fault.Kind, why string) {
	obj, ok := object(data)
	if !ok {
		return nil, fault.Malformed, fmt.Sprintf(`the answer must be a JSON object with ships "2", "3", "4" and "5", got %s`, quote(data))
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.ContainsFunc(sizes[:], func(size int) bool { return strconv.Itoa(size) == k }) {
			return nil, fault.Malformed, fmt.Sprintf(`unknown key %q: the only ships are "2", "3", "4" and "5"`, k)
		}
	}
	for _, size := range sizes {
		raw, ok := obj[strconv.Itoa(size)]
		if !ok {
			return nil, fault.Malformed, fmt.Sprintf("ship %d is missing", size)
		}
		s, v, why := parseShip(size, raw)
		if v != fault.None {
			return nil, v, fmt.Sprintf("ship %d: %s", size, why)
		}
		for _, other := range fleet {
			for _, p := range s.cells() {
				if other.covers(p[0], p[1]) {
					return nil, fault.Illegal, fmt.Sprintf("ships %d and %d overlap at %s", other.size, size, cell(p[0], p[1]))
				}
			}
		}
		fleet = append(fleet, s)
	}
	return fleet, fault.None, ""
}

func parseShip(size int, raw json.RawMessage) (ship, fault.Kind, string) {
	obj, ok := object(raw)
	if !ok {
		return ship{}, fault.Malformed, fmt.Sprintf(`must be an object with "point" and "orientation", got %s`, quote(raw))
	}
	point, ok := str(obj["point"])
	if !ok {
		return ship{}, fault.Malformed, fmt.Sprintf(`"point" must be a string of two digits like "34", got %s`, quote(obj["point"]))
	}
	c, r, v, why := parseCell(point)
	if v != fault.None {
		return ship{}, v, "point " + why
	}
	s := ship{c: c, r: r, size: size}
	switch o, _ := str(obj["orientation"]); o {
	case "vertical":
		s.vertical = true
	case "horizontal":
	default:
		return ship{}, fault.Malformed, fmt.Sprintf(`"orientation" must be "horizontal" or "vertical", got %s`, quote(obj["orientation"]))
	}
	if end := s.c + size - 1; !s.vertical && end >= side {
		return ship{}, fault.Illegal, fmt.Sprintf("starting at %s horizontally it runs off the grid (columns %d to %d)", point, s.c, end)
	}
	if end := s.r + size - 1; s.vertical && end >= side {
		return ship{}, fault.Illegal, fmt.Sprintf("starting at %s vertically it runs off the grid (rows %d to %d)", point, s.r, end)
	}
	return s, fault.None, ""
}

// parseShot checks a move answer of seat.
func (g *game) parseShot(seat int, data []byte) (c, r int, v fault.Kind, why string) {
	obj, ok := object(data)
	if !ok {
		return 0, 0, fault.Malformed, fmt.Sprintf(`the answer must be a JSON object like {"move":"34"}, got %s`, quote(data))
	}
	raw, ok := obj["move"]
	if !ok {
		return 0, 0, fault.Malformed, fmt.Sprintf(`the answer has no "move" field: %s`, quote(data))
	}
	m, ok := str(raw)
	if !ok {
		return 0, 0, fault.Malformed, fmt.Sprintf(`"move" must be a string of two digits like "34", got %s`, quote(raw))
	}
	if c, r, v, why = parseCell(m); v != fault.None {
		return 0, 0, v, "the move " + why
	}
	if g.shotAlready(seat, c, r) {
		return 0, 0, fault.Illegal, fmt.Sprintf("cell %s was already shot", m)
	}
	return c, r, fault.None, ""
}

// parseCell reads "CR" strictly: exactly two digits, column then row.
func parseCell(s string) (c, r int, v fault.Kind, why string) {
	if len(s) != 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return 0, 0, fault.Malformed, fmt.Sprintf(`%s is not two digits (column then row, like "34")`, quote([]byte(strconv.Quote(s))))
	}
	c, r = int(s[0]-'0'), int(s[1]-'0')
	if c >= side || r >= side {
		return 0, 0, fault.Illegal, fmt.Sprintf("%q is off the grid (columns and rows go from 0 to 7)", s)
	}
	return c, r, fault.None, ""
}

func cell(c, r int) string { return fmt.Sprintf("%d%d", c, r) }

// object decodes a JSON object, telling it apart from null, arrays and others
// that json.Unmarshal would accept or turn into a nil map.
func object(raw []byte) (map[string]json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	var obj map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &obj) != nil {
		return nil, false
	}
	return obj, true
}

// str decodes a JSON string, refusing null which json.Unmarshal turns into "".
func str(raw []byte) (string, bool) {
	raw = bytes.TrimSpace(raw)
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// quote shows a bot's answer in a reason, shortened: it may be 64 KiB long.
func quote(raw []byte) string {
	const limit = 60
	s := strings.TrimSpace(string(raw))
	if s == "" {
		return "nothing"
	}
	if len(s) > limit {
		// An answer that is not UTF-8 may have no rune start at all.
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return s[:cut] + "…"
	}
	return s
}

// recorded is the answer as a Move keeps it: a Move must always encode, so an
// answer that is not JSON is kept as a JSON string of its text.
func recorded(data []byte) json.RawMessage {
	if len(data) == 0 || json.Valid(data) {
		return data
	}
	return encode(string(data))
}

// faultDetail is the Move's reason for a fault: the sandbox's detail.
func faultDetail(a games.Answer) string {
	if a.Detail == "" {
		return string(a.Fault)
	}
	return a.Detail
}

// faultReason is the game's reason when a fault loses it.
func faultReason(a games.Answer) string {
	if a.Detail == "" {
		return string(a.Fault)
	}
	return string(a.Fault) + ": " + a.Detail
}

// encode marshals values built by this package, which always encode.
func encode(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("battleships: " + err.Error())
	}
	return b
}
