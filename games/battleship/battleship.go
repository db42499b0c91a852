// Package battleship holds botsArena's battleship (SPEC §3), the parametric
// variant of the game: a Width × Height grid and, for each length from 1 to
// 6, a number of boats; by default 10×10 with one boat of 2, two of 3, one of
// 4 and one of 5. Both bots place their boats at the init, then they shoot
// at each other's grid in strict turns, seat 0 first (no extra shot on a
// hit); the first to sink the whole enemy fleet wins. Any fault of a judged
// answer loses the game, the init's included: its reply carries the boats.
// If both fleets are invalid the game is a draw (as SPEC §2 decides for
// BrainJar's battleships).
//
// Messages (no "you"; numbers in the board are strings, as the site sends
// them):
//
//	init board: {"opponent":name, "width":"10", "height":"10", "ship1":"0", …, "ship6":"0"}
//	reply:      {"name":…, "boats":["x1,y1-x2,y2", …]}
//	play board: the same, plus "your_strikes" and "his_strikes", the shots
//	            of this bot and of its opponent, oldest first, each
//	            {"target":"x,y", "result":""|"hit"|"hit and sunk"}
//	reply:      {"play":"x,y"}
//
// x is the column (0 to width-1) and y the row (0 to height-1). A boat is
// straight, on the grid, given by its two ends in either order ("x,y-x,y"
// for a boat of one cell); boats do not overlap but may touch, and there
// must be exactly as many of each length as the board says, in any order. A
// shot that is not "x,y" is not a move (fault.Malformed); one off the grid is
// fault.Illegal. A cell may be shot again, but the shot is wasted: its
// result is "" whatever the cell holds, as it hits nothing new.
//
// Every game ends: SPEC's Decision makes it a draw after Width × Height × 2
// turns (shots of either seat) without a fleet sunk.
//
// Scores and Outcome.Score are the enemy boat cells each seat has hit.
//
// View JSON, for the screen and the terminal:
//
//	{"names":["a","b"], "width":10, "height":10, "ships":[0,1,2,1,1,0],
//	 "phase":"init"|"play"|"over", "turn":0|1|-1, "turns":n, "max_turns":200,
//	 "boats":[[{"x1":x,"y1":y,"x2":x,"y2":y,"length":n,"sunk":bool},...], [...]],
//	 "shots":[[{"x":x,"y":y,"result":"miss"|"hit"|"sunk"|"repeat"},...], [...]]}
//
// ships[i] is the number of boats of length i+1. boats[i] is seat i's fleet
// ([] until it placed a valid one), each boat from (x1,y1) to (x2,y2) with
// x1 <= x2 and y1 <= y2, sunk once every cell of it is hit. shots[i] are the
// shots that landed on seat i's grid, fired by the other seat, oldest
// first: "sunk" is the shot that sank a boat, "repeat" a wasted shot at a
// cell shot before. turn is the seat to shoot, -1 outside the "play" phase;
// turns counts the shots of both seats, and the game is a draw when it
// reaches max_turns.
//
// Move.Event JSON: {"boats":[[x1,y1,x2,y2],...]} for a valid fleet;
// {"x":x,"y":y,"result":"miss"|"hit"|"sunk"|"repeat"} for a shot, with
// "boat":[x1,y1,x2,y2] when it sank one; nothing for an answer that lost the
// game (its Verdict and Reason say why).
package battleship

import (
	"botjudge/games/phrase"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"botjudge/games"
	"botjudge/games/botsarena"
	"botjudge/games/fault"
)

// Bounds of the parameters, as the site's.
const (
	MaxSide  = 100 // width and height go from 1 to MaxSide
	MaxShips = 10  // boats of one length go from 0 to MaxShips
	// Lengths is the number of boat lengths, 1 to Lengths.
	Lengths = 6
)

// DefaultShips is the site's default fleet: Ships[i] boats of length i+1.
var DefaultShips = [Lengths]int{0, 1, 2, 1, 1, 0}

// Rules is battleship on a Width × Height grid with Ships[i] boats of
// length i+1. Its zero value is the default game (a zero Width or Height is
// 10, all-zero Ships is DefaultShips), registered as "battleship". New
// brings values out of the bounds back into them; Validate tells an
// organiser which ones are.
type Rules struct {
	Width, Height int
	Ships         [Lengths]int
}

func init() { games.Register(Rules{}) }

// Name implements games.Rules.
func (Rules) Name() string { return "battleship" }

// SeedScore implements games.SeedScored: botsArena kept an Elo ladder.
func (Rules) SeedScore() string { return games.SeedElo }

// Protocol implements games.Rules: botsArena bots are programs.
func (Rules) Protocol() string { return games.ProtocolProgram }

// Seats implements games.Rules.
func (Rules) Seats() (min, max int) { return 2, 2 }

// DefaultRounds implements games.Rounder: hidden fleets and random bots need
// several games per pairing to be fair, as in BrainJar's battleships.
func (Rules) DefaultRounds() int { return 5 }

// MaxRequests implements games.Bounded: the init, then half of the turns.
func (r Rules) MaxRequests(int) int {
	r = r.normal()
	return 1 + r.Width*r.Height
}

// Validate says which parameters are out of their bounds, and whether the
// fleet cannot fit: a fleet larger than the grid, or a boat longer than
// both sides (no bot could place it, and the games would all be draws).
func (r Rules) Validate() error {
	if r.Width < 0 || r.Width > MaxSide || r.Height < 0 || r.Height > MaxSide {
		return fmt.Errorf("battleship: a %d×%d grid: width and height go from 1 to %d", r.Width, r.Height, MaxSide)
	}
	for i, n := range r.Ships {
		if n < 0 || n > MaxShips {
			return fmt.Errorf("battleship: %d boats of length %d: from 0 to %d", n, i+1, MaxShips)
		}
	}
	r = r.normal()
	cells := 0
	for i, n := range r.Ships {
		cells += n * (i + 1)
		if n > 0 && i+1 > max(r.Width, r.Height) {
			return fmt.Errorf("battleship: a boat of length %d does not fit on a %d×%d grid", i+1, r.Width, r.Height)
		}
	}
	if cells > r.Width*r.Height {
		return fmt.Errorf("battleship: %d boat cells do not fit on a %d×%d grid", cells, r.Width, r.Height)
	}
	return nil
}

// normal is r with its defaults filled in and its values in bounds.
func (r Rules) normal() Rules {
	side := func(n int) int {
		if n == 0 {
			return 10
		}
		return min(max(n, 1), MaxSide)
	}
	r.Width, r.Height = side(r.Width), side(r.Height)
	for i := range r.Ships {
		r.Ships[i] = min(max(r.Ships[i], 0), MaxShips)
	}
	// After the bounds: a fleet of no boat at all would be won by the
	// first shot.
	if r.Ships == [Lengths]int{} {
		r.Ships = DefaultShips
	}
	return r
}

// New implements games.Rules. The seed only makes the game-id: the game has
// no chance.
func (r Rules) New(seed int64, names []string) games.State {
	r = r.normal()
	g := &game{r: r, names: make([]string, 2), id: botsarena.GameID(seed), turn: -1}
	copy(g.names, names)
	for _, n := range r.Ships {
		g.boats += n
	}
	for i, n := range r.Ships {
		g.cells += n * (i + 1)
	}
	return g
}

type phase int

const (
	initPhase phase = iota
	playPhase
	overPhase
)

var phaseNames = [...]string{initPhase: "init", playPhase: "play", overPhase: "over"}

// Shot results: what the bots read, and the View's words.
const (
	miss   = ""
	hit    = "hit"
	sunk   = "hit and sunk"
	repeat = "repeat" // the View's only: the bots read miss
)

var viewResults = map[string]string{miss: "miss", hit: "hit", sunk: "sunk", repeat: "repeat"}

// boat runs from (x1, y1) to (x2, y2), x1 <= x2 and y1 <= y2.
type boat struct{ x1, y1, x2, y2 int }

func (b boat) length() int { return b.x2 - b.x1 + b.y2 - b.y1 + 1 }

func (b boat) covers(x, y int) bool { return x >= b.x1 && x <= b.x2 && y >= b.y1 && y <= b.y2 }

func (b boat) ends() [4]int { return [4]int{b.x1, b.y1, b.x2, b.y2} }

type shot struct {
	x, y   int
	result string
}

func (s shot) target() string { return fmt.Sprintf("%d,%d", s.x, s.y) }

type game struct {
	r       Rules // normal
	names   []string
	id      string
	boats   int // boats in a fleet
	cells   int // boat cells in a fleet
	phase   phase
	fleets  [2][]boat
	shots   [2][]shot // the shots each seat fired
	turn    int       // the seat to shoot while playing, else -1
	turns   int       // shots of both seats
	outcome games.Outcome
}

func (g *game) maxTurns() int { return g.r.Width * g.r.Height * 2 }

// who names seat in reasons.
func (g *game) who(seat int) string { return fmt.Sprintf("%s (player %d)", g.names[seat], seat) }

// ToMove implements games.State: both seats place their boats at once, then
// they take turns.
func (g *game) ToMove() []int {
	switch g.phase {
	case initPhase:
		return []int{0, 1}
	case playPhase:
		return []int{g.turn}
	}
	return nil
}

type strike struct {
	Target string `json:"target"`
	Result string `json:"result"`
}

// board is the board of a message; the strikes are left out of the init's
// and never null in a play-turn's.
type board struct {
	Opponent    string    `json:"opponent"`
	Width       string    `json:"width"`
	Height      string    `json:"height"`
	Ship1       string    `json:"ship1"`
	Ship2       string    `json:"ship2"`
	Ship3       string    `json:"ship3"`
	Ship4       string    `json:"ship4"`
	Ship5       string    `json:"ship5"`
	Ship6       string    `json:"ship6"`
	YourStrikes *[]strike `json:"your_strikes,omitempty"`
	HisStrikes  *[]strike `json:"his_strikes,omitempty"`
}

func strikes(shots []shot) *[]strike {
	s := make([]strike, len(shots))
	for i, sh := range shots {
		result := sh.result
		if result == repeat {
			result = miss
		}
		s[i] = strike{sh.target(), result}
	}
	return &s
}

// Request implements games.State.
func (g *game) Request(seat int) json.RawMessage {
	n := func(i int) string { return strconv.Itoa(i) }
	s := g.r.Ships
	b := board{Opponent: g.names[1-seat], Width: n(g.r.Width), Height: n(g.r.Height),
		Ship1: n(s[0]), Ship2: n(s[1]), Ship3: n(s[2]), Ship4: n(s[3]), Ship5: n(s[4]), Ship6: n(s[5])}
	m := botsarena.Message{GameID: g.id, Action: botsarena.Init, Game: "battleship", Players: 2, PlayerIndex: seat}
	if g.phase != initPhase {
		m.Action = botsarena.PlayTurn
		b.YourStrikes, b.HisStrikes = strikes(g.shots[seat]), strikes(g.shots[1-seat])
	}
	m.Board = b
	return m.Encode()
}

// Apply implements games.State.
func (g *game) Apply(answers []games.Answer) []games.Move {
	if len(answers) != len(g.ToMove()) {
		panic(fmt.Sprintf("battleship: Apply with %d answers for seats %v", len(answers), g.ToMove()))
	}
	if g.phase == initPhase {
		return g.applyFleets(answers)
	}
	return []games.Move{g.applyShot(answers[0])}
}

func (g *game) applyFleets(answers []games.Answer) []games.Move {
	moves := make([]games.Move, 2)
	var failed [2]string
	for seat, a := range answers {
		m := games.Move{Seat: seat, Answer: botsarena.Recorded(a.Data)}
		if a.Fault != fault.None {
			m.Verdict, m.Reason = a.Fault, botsarena.FaultReason(a)
		} else if fleet, v, why := g.parseFleet(a.Data); v != fault.None {
			m.Verdict, m.Reason = v, "invalid boats: "+why
		} else {
			g.fleets[seat] = fleet
			ends := make([][4]int, len(fleet))
			for i, b := range fleet {
				ends[i] = b.ends()
			}
			m.Event = botsarena.Encode(map[string][][4]int{"boats": ends})
		}
		failed[seat] = m.Reason
		moves[seat] = m
	}
	switch {
	case failed[0] != "" && failed[1] != "":
		g.end(botsarena.Drawn(fmt.Sprintf("both lost at the start, a draw: %s: %s; %s: %s", g.who(0), failed[0], g.who(1), failed[1])))
	case failed[0] != "":
		g.end(botsarena.Won(1, botsarena.Lost.Say(g.who(0), failed[0])))
	case failed[1] != "":
		g.end(botsarena.Won(0, botsarena.Lost.Say(g.who(1), failed[1])))
	default:
		g.phase, g.turn = playPhase, 0
	}
	return moves
}

func (g *game) applyShot(a games.Answer) games.Move {
	seat := g.turn
	m, play, ok := botsarena.Judge(seat, a)
	if ok {
		var x, y int
		if x, y, m.Verdict, m.Reason = g.parseShot(play); m.Verdict == fault.None {
			g.fire(seat, x, y, &m)
			return m
		}
	}
	g.end(botsarena.Won(1-seat, botsarena.Lost.Say(g.who(seat), m.Reason)))
	return m
}

// fire applies seat's shot at (x, y) and records it in m.
func (g *game) fire(seat, x, y int, m *games.Move) {
	s := shot{x: x, y: y, result: miss}
	target := g.boatAt(1-seat, x, y)
	switch {
	case g.shotAlready(seat, x, y):
		s.result = repeat
	case target != nil:
		s.result = hit
		if g.hits(seat, *target) == target.length()-1 {
			s.result = sunk
		}
	}
	g.shots[seat] = append(g.shots[seat], s)
	g.turns++
	ev := struct {
		X      int     `json:"x"`
		Y      int     `json:"y"`
		Result string  `json:"result"`
		Boat   *[4]int `json:"boat,omitempty"`
	}{X: x, Y: y, Result: viewResults[s.result]}
	if s.result == sunk {
		ends := target.ends()
		ev.Boat = &ends
	}
	m.Event = botsarena.Encode(ev)
	switch {
	case g.score(seat) == g.cells:
		g.end(botsarena.Won(seat, sankAll.Say(len(g.shots[seat]), g.who(seat))))
	case g.turns >= g.maxTurns():
		g.end(botsarena.Drawn(noneSunk.Say(g.turns)))
	default:
		g.turn = 1 - seat
	}
}

func (g *game) end(o games.Outcome) {
	g.phase, g.turn, g.outcome = overPhase, -1, o
}

// Outcome implements games.State.
func (g *game) Outcome() games.Outcome {
	o := g.outcome
	if o.Rank != nil {
		o.Score = g.Scores()
	}
	return o
}

// Scores implements games.State: the enemy boat cells each seat has hit.
func (g *game) Scores() []int { return []int{g.score(0), g.score(1)} }

// score counts the enemy boat cells seat has hit; a repeated shot is never
// counted twice.
func (g *game) score(seat int) int {
	n := 0
	for _, s := range g.shots[seat] {
		if s.result == hit || s.result == sunk {
			n++
		}
	}
	return n
}

// boatAt is seat's boat covering (x, y), or nil.
func (g *game) boatAt(seat, x, y int) *boat {
	for i, b := range g.fleets[seat] {
		if b.covers(x, y) {
			return &g.fleets[seat][i]
		}
	}
	return nil
}

// hits counts the cells of the enemy boat t that seat has hit.
func (g *game) hits(seat int, t boat) int {
	n := 0
	for _, s := range g.shots[seat] {
		if s.result != repeat && t.covers(s.x, s.y) {
			n++
		}
	}
	return n
}

func (g *game) shotAlready(seat, x, y int) bool {
	for _, s := range g.shots[seat] {
		if s.x == x && s.y == y {
			return true
		}
	}
	return false
}

// parseFleet checks an init reply {"name": …, "boats": [...]}; the name is
// not judged. The verdict is Malformed when the reply does not have the
// shape of a fleet and Illegal when the boats break the rules.
func (g *game) parseFleet(data []byte) ([]boat, fault.Kind, string) {
	reply, ok := botsarena.Object(data)
	if !ok {
		return nil, fault.Malformed, fmt.Sprintf(`the answer must be a JSON object like {"name": …, "boats": ["x1,y1-x2,y2", …]}, got %s`, botsarena.Quote(data))
	}
	raw, ok := reply["boats"]
	if !ok {
		return nil, fault.Malformed, fmt.Sprintf(`the answer has no "boats": %s`, botsarena.Quote(data))
	}
	var texts []json.RawMessage
	if json.Unmarshal(raw, &texts) != nil || texts == nil {
		return nil, fault.Malformed, fmt.Sprintf(`"boats" must be a list of strings "x1,y1-x2,y2", got %s`, botsarena.Quote(raw))
	}
	if len(texts) != g.boats {
		return nil, fault.Illegal, fmt.Sprintf("%d boats, but the fleet has %d (%s)", len(texts), g.boats, g.fleetText())
	}
	fleet := make([]boat, len(texts))
	owner := make([]int, g.r.Width*g.r.Height) // the boat on each cell, plus one
	var count [Lengths + 1]int
	for i, t := range texts {
		b, v, why := g.parseBoat(t)
		if v != fault.None {
			return nil, v, fmt.Sprintf("boat %s: %s", botsarena.Quote(t), why)
		}
		for x := b.x1; x <= b.x2; x++ {
			for y := b.y1; y <= b.y2; y++ {
				if o := owner[y*g.r.Width+x]; o > 0 {
					return nil, fault.Illegal, fmt.Sprintf("boats %s and %s overlap at %d,%d", botsarena.Quote(texts[o-1]), botsarena.Quote(t), x, y)
				}
				owner[y*g.r.Width+x] = i + 1
			}
		}
		fleet[i] = b
		count[b.length()]++
	}
	for length := 1; length <= Lengths; length++ {
		if want := g.r.Ships[length-1]; count[length] != want {
			return nil, fault.Illegal, fmt.Sprintf("%d boats of length %d, but the fleet has %d (%s)", count[length], length, want, g.fleetText())
		}
	}
	return fleet, fault.None, ""
}

// parseBoat reads one boat "x1,y1-x2,y2": straight, on the grid, ends in
// either order.
func (g *game) parseBoat(raw json.RawMessage) (boat, fault.Kind, string) {
	s, ok := botsarena.String(raw)
	from, to, cut := "", "", false
	if ok {
		from, to, cut = strings.Cut(s, "-")
	}
	x1, y1, ok1 := botsarena.Pair(from, ',')
	x2, y2, ok2 := botsarena.Pair(to, ',')
	switch {
	case !ok || !cut || !ok1 || !ok2:
		return boat{}, fault.Malformed, `a boat must be a string "x1,y1-x2,y2" (its two ends)`
	case !g.inside(x1, y1) || !g.inside(x2, y2):
		return boat{}, fault.Illegal, fmt.Sprintf("off the grid: x goes from 0 to %d and y from 0 to %d", g.r.Width-1, g.r.Height-1)
	case x1 != x2 && y1 != y2:
		return boat{}, fault.Illegal, "not straight: its ends must share x or y"
	}
	b := boat{min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)}
	if b.length() > Lengths {
		return boat{}, fault.Illegal, fmt.Sprintf("%d cells long: boats are 1 to %d long", b.length(), Lengths)
	}
	return b, fault.None, ""
}

// fleetText says the fleet in words: "1 of length 2, 2 of length 3, …".
func (g *game) fleetText() string {
	text := ""
	for i, n := range g.r.Ships {
		if n == 0 {
			continue
		}
		if text != "" {
			text += ", "
		}
		text += fmt.Sprintf("%d of length %d", n, i+1)
	}
	return text
}

// parseShot reads the play of a shot, "x,y" on the grid.
func (g *game) parseShot(play json.RawMessage) (x, y int, v fault.Kind, why string) {
	s, ok := botsarena.String(play)
	if ok {
		x, y, ok = botsarena.Pair(s, ',')
	}
	switch {
	case !ok:
		return 0, 0, fault.Malformed, fmt.Sprintf(`"play" must be a cell "x,y" like "3,4", got %s`, botsarena.Quote(play))
	case !g.inside(x, y):
		return 0, 0, fault.Illegal, fmt.Sprintf("%s is off the grid: x goes from 0 to %d and y from 0 to %d", botsarena.Quote(play), g.r.Width-1, g.r.Height-1)
	}
	return x, y, fault.None, ""
}

func (g *game) inside(x, y int) bool { return x >= 0 && x < g.r.Width && y >= 0 && y < g.r.Height }

// How a game ends, for the screen to translate.
var (
	sankAll  = phrase.Count("{2} sank the whole fleet in {1} shot", "{2} sank the whole fleet in {1} shots", "{2} a coulé toute la flotte en {1} tir", "{2} a coulé toute la flotte en {1} tirs")
	noneSunk = phrase.Count("no fleet sunk after {1} turn: a draw", "no fleet sunk after {1} turns: a draw", "aucune flotte coulée après {1} tour : partie nulle", "aucune flotte coulée après {1} tours : partie nulle")
)
