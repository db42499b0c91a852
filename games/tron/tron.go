// Package tron holds the rules of botsArena's Tron (SPEC §3): 2 to 12 bots
// on one grid move at the same time, each growing a trail from a start cell
// drawn from the game's seed; a bot dies when it answers wrongly, crashes or
// times out, leaves the grid, moves into a cell that was taken at the start
// of the turn (its own trail included), or enters the same cell as another
// head. Dead trails are erased, and the game ends when fewer than two bots
// are alive.
//
// Scoring is per turn, as botsArena's: bots that die on the same turn draw
// with each other, and a bot that dies loses to every bot still alive. The
// Outcome's ranks say exactly that (the survivors first, then by the turn of
// death, latest first), Score is the turns each bot survived, and Fates say
// when, why and against whom each bot died.
//
// The bots' messages are botsArena's: an init (whose reply is not judged),
// then one play-turn per turn whose board is the list of trails, one per
// player index, head first, [] for the dead; this judge adds the grid's
// "width" and "height" (original bots ignore them). A bot replies
// {"play":"x+"|"x-"|"y+"|"y-"}.
//
// View JSON, for the screen and the terminal:
//
//	{"width":w, "height":h, "turn":t, "trails":[[[x,y],...], ...], "fates":[...]}
//
// trails[i] is seat i's trail tail first (its head last), [] once dead;
// fates[i] is a games.Fate ({"turn":0} while alive). Move.Event JSON: {"to":
// [x,y]} for a move, {"died": cause, "at": [x,y], "by": [seats]} for a
// death (at is the cell it died in: the one it entered, or its head when it
// answered wrongly or left the grid; by when it hit other seats), nothing
// for an init.
package tron

import (
	"botjudge/games/phrase"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"botjudge/games"
	"botjudge/games/botsarena"
	"botjudge/games/fault"
)

// Default grid, as botsArena's.
const (
	DefaultWidth  = 100
	DefaultHeight = 100
	// MaxSeats is botsArena's largest game.
	MaxSeats = 12
)

// Causes of death besides faults (a fault's cause is its kind).
const (
	Wall   = "wall"    // it left the grid
	Trail  = "trail"   // it moved into a cell taken at the start of the turn
	HeadOn = "head-on" // another head entered the same cell
	NoRoom = "no room" // the grid has fewer cells than seats
)

// Rules is Tron on a Width × Height grid; the zero value is the default
// 100×100 grid. It is registered as "tron".
type Rules struct {
	Width, Height int
}

func init() { games.Register(Rules{}) }

// Name implements games.Rules.
func (Rules) Name() string { return "tron" }

// SeedScore implements games.SeedScored: botsArena kept an Elo ladder,
// Tron scored pairwise.
func (Rules) SeedScore() string { return games.SeedElo }

// Protocol implements games.Rules: botsArena bots are programs.
func (Rules) Protocol() string { return games.ProtocolProgram }

// Seats implements games.Rules.
func (Rules) Seats() (min, max int) { return 2, MaxSeats }

// DefaultRounds implements games.Rounder: start cells are random, so a pair
// needs more than its two seat orders to be fair.
func (Rules) DefaultRounds() int { return 2 }

func (r Rules) size() (w, h int) {
	w, h = r.Width, r.Height
	if w <= 0 || h <= 0 {
		w, h = DefaultWidth, DefaultHeight
	}
	return w, h
}

// IncrementalView implements games.Incremental: a move's event is the cell
// its trail grows by, a death's erases the trail and says where and why, so
// a screen folds them instead of receiving a board of the grid's size at
// every turn.
func (Rules) IncrementalView() bool { return true }

// MaxRequests implements games.Bounded: the init, then one turn per cell a
// trail can take at most.
func (r Rules) MaxRequests(int) int {
	w, h := r.size()
	return 1 + w*h
}

// seedStream keeps the start cells independent of other uses of the seed.
const seedStream = 0x74726f6e // "tron"

// New implements games.Rules: one start cell per seat, distinct, drawn from
// the seed. Seats beyond the grid's cells (on a tiny grid) have no room:
// they are out from the first turn.
func (r Rules) New(seed int64, names []string) games.State {
	w, h := r.size()
	g := &game{w: w, h: h, names: names, id: botsarena.GameID(seed),
		grid: make([]int, w*h), trails: make([][]cell, len(names)), fates: make([]games.Fate, len(names))}
	for i := range g.grid {
		g.grid[i] = free
	}
	rng := rand.New(rand.NewPCG(uint64(seed), seedStream))
	for seat := range names {
		if seat >= w*h {
			g.fates[seat] = games.Fate{Turn: 1, Cause: NoRoom}
			continue
		}
		for {
			c := cell{rng.IntN(w), rng.IntN(h)}
			if g.at(c) == free {
				g.trails[seat] = []cell{c}
				g.grid[g.index(c)] = seat
				break
			}
		}
	}
	return g
}

const free = -1

type cell struct{ x, y int }

type game struct {
	w, h   int
	names  []string
	id     string // game-id, the same for every seat
	inited bool   // the init messages are answered
	turn   int    // play turns applied
	grid   []int  // the seat whose trail takes a cell, or free
	// trails are tail first (the head is last), nil once dead.
	trails [][]cell
	fates  []games.Fate
	over   string // why the game ended, empty while it runs

	// board caches the play-turn board of the current turn: every seat's
	// request holds the same one.
	board     []byte
	boardTurn int
}

func (g *game) index(c cell) int { return c.y*g.w + c.x }

func (g *game) at(c cell) int { return g.grid[g.index(c)] }

func (g *game) inside(c cell) bool { return c.x >= 0 && c.x < g.w && c.y >= 0 && c.y < g.h }

func (g *game) alive(seat int) bool { return g.fates[seat].Turn == 0 }

// ToMove implements games.State: every seat alive answers each turn.
func (g *game) ToMove() []int {
	if g.over != "" {
		return nil
	}
	var seats []int
	for seat := range g.names {
		if g.alive(seat) {
			seats = append(seats, seat)
		}
	}
	return seats
}

// Request implements games.State. It is written by hand: a board holds up
// to width × height cells, and every seat gets it every turn.
func (g *game) Request(seat int) json.RawMessage {
	b := make([]byte, 0, 160+len(g.board))
	b = append(b, `{"game-id":`...)
	b = strconv.AppendQuote(b, g.id)
	if g.inited {
		b = append(b, `,"action":"play-turn","game":"tron","board":`...)
		b = append(b, g.playBoard()...)
	} else {
		b = append(b, `,"action":"init","game":"tron","board":""`...)
	}
	b = fmt.Appendf(b, `,"players":%d,"player-index":%d,"width":%d,"height":%d}`, len(g.names), seat, g.w, g.h)
	return b
}

// playBoard is the trails head first, [] for the dead, encoded once a turn.
func (g *game) playBoard() []byte {
	if g.board != nil && g.boardTurn == g.turn {
		return g.board
	}
	b := g.board[:0]
	b = append(b, '[')
	for seat, t := range g.trails {
		if seat > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for i := len(t) - 1; i >= 0; i-- {
			if i < len(t)-1 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(t[i].x), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(t[i].y), 10)
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	b = append(b, ']')
	g.board, g.boardTurn = b, g.turn
	return b
}

// step is one seat's move in a turn, until the turn is settled.
type step struct {
	seat  int
	to    cell   // where it moves
	cause string // why it dies this turn, "" while it lives
	at    cell   // where it dies
	by    []int
	move  games.Move
}

// Apply implements games.State.
func (g *game) Apply(answers []games.Answer) []games.Move {
	seats := g.ToMove()
	if len(answers) != len(seats) {
		panic(fmt.Sprintf("tron: Apply with %d answers for %d seats", len(answers), len(seats)))
	}
	if !g.inited {
		g.inited = true
		moves := make([]games.Move, len(seats))
		for i, seat := range seats {
			moves[i] = botsarena.InitMove(seat, answers[i])
		}
		return moves
	}
	g.turn++
	steps := make([]*step, len(seats))
	for i, seat := range seats {
		steps[i] = g.aim(seat, answers[i])
	}
	headOn(steps)
	moves := make([]games.Move, len(steps))
	var died []int
	for i, s := range steps {
		if s.cause == "" {
			g.trails[s.seat] = append(g.trails[s.seat], s.to)
			g.grid[g.index(s.to)] = s.seat
			s.move.Event = botsarena.Encode(map[string][]int{"to": {s.to.x, s.to.y}})
		} else {
			died = append(died, s.seat)
			g.die(s)
		}
		moves[i] = s.move
	}
	// Dead trails are erased once the turn is settled: a cell taken at the
	// start of the turn kills whoever enters it, even if its owner dies.
	for _, seat := range died {
		for _, c := range g.trails[seat] {
			g.grid[g.index(c)] = free
		}
		g.trails[seat] = nil
	}
	g.checkEnd(len(died))
	return moves
}

// headOn kills the heads that enter the same free cell, each by the others.
func headOn(steps []*step) {
	entering := map[cell][]*step{}
	for _, s := range steps {
		if s.cause == "" {
			entering[s.to] = append(entering[s.to], s)
		}
	}
	for _, group := range entering {
		if len(group) < 2 {
			continue
		}
		for _, s := range group {
			s.cause, s.at = HeadOn, s.to
			for _, o := range group {
				if o != s {
					s.by = append(s.by, o.seat)
				}
			}
		}
	}
}

// aim reads seat's answer and finds the cell it moves to, or why it dies
// trying.
func (g *game) aim(seat int, a games.Answer) *step {
	t := g.trails[seat]
	head := t[len(t)-1]
	m, play, ok := botsarena.Judge(seat, a)
	s := &step{seat: seat, at: head, move: m}
	var d cell
	if ok {
		var why string
		if d, why = direction(play); why != "" {
			s.move.Verdict, s.move.Reason, ok = fault.Malformed, why, false
		}
	}
	if !ok {
		s.cause = string(s.move.Verdict)
		return s
	}
	s.to = cell{head.x + d.x, head.y + d.y}
	switch {
	case !g.inside(s.to):
		s.cause = Wall
		s.move.Reason = fmt.Sprintf("left the grid at [%d,%d]: x goes from 0 to %d and y from 0 to %d", s.to.x, s.to.y, g.w-1, g.h-1)
	case g.at(s.to) != free:
		owner := g.at(s.to)
		s.cause, s.at, s.by = Trail, s.to, []int{owner}
		s.move.Reason = fmt.Sprintf("moved into [%d,%d], taken by the trail of %s", s.to.x, s.to.y, g.whose(seat, owner))
	}
	return s
}

// whose names owner's trail as seat sees it.
func (g *game) whose(seat, owner int) string {
	if owner == seat {
		return "its own trail"
	}
	return fmt.Sprintf("%s (player %d)", g.names[owner], owner)
}

// die records s's death on this turn.
func (g *game) die(s *step) {
	f := games.Fate{Turn: g.turn, Cause: s.cause, By: s.by, At: []int{s.at.x, s.at.y}}
	g.fates[s.seat] = f
	if s.cause == HeadOn {
		names := make([]string, len(s.by))
		for i, o := range s.by {
			names[i] = fmt.Sprintf("%s (player %d)", g.names[o], o)
		}
		s.move.Reason = fmt.Sprintf("collided head on at [%d,%d] with %s", s.to.x, s.to.y, strings.Join(names, " and "))
	}
	ev := map[string]any{"died": s.cause, "at": f.At}
	if len(f.By) > 0 {
		ev["by"] = f.By
	}
	s.move.Event = botsarena.Encode(ev)
}

// How a game ends, for the screen to translate.
var (
	lastAlive    = phrase.Count("{2} is the last one alive, after {1} turn", "{2} is the last one alive, after {1} turns", "{2} est le dernier en vie, après {1} tour", "{2} est le dernier en vie, après {1} tours")
	diedTogether = phrase.Of("the last {1} died together on turn {2}", "les {1} derniers sont morts ensemble au tour {2}")
	lastDied     = phrase.Of("the last one died on turn {1}", "le dernier est mort au tour {1}")
)

func (g *game) checkEnd(died int) {
	alive := g.ToMove()
	switch {
	case len(alive) == 1:
		g.over = lastAlive.Say(g.turn, g.names[alive[0]])
	case len(alive) == 0 && died > 1:
		g.over = diedTogether.Say(died, g.turn)
	case len(alive) == 0:
		g.over = lastDied.Say(g.turn)
	}
}

// Outcome implements games.State. A bot ranks before every bot that died
// before it; bots that died on the same turn, or are both alive, share a
// rank.
func (g *game) Outcome() games.Outcome {
	o := games.Outcome{Rank: make([]int, len(g.names)), Score: g.Scores(), Reason: g.over, Fates: slices.Clone(g.fates)}
	last := func(seat int) int {
		if g.alive(seat) {
			return g.turn + 1
		}
		return g.fates[seat].Turn
	}
	for seat := range g.names {
		o.Rank[seat] = 1
		for other := range g.names {
			if last(other) > last(seat) {
				o.Rank[seat]++
			}
		}
	}
	return o
}

// Scores implements games.State: the turns each seat has survived.
func (g *game) Scores() []int {
	s := make([]int, len(g.names))
	for seat := range s {
		s[seat] = g.turn
		if !g.alive(seat) {
			s[seat] = g.fates[seat].Turn - 1
		}
	}
	return s
}

type view struct {
	Width  int          `json:"width"`
	Height int          `json:"height"`
	Turn   int          `json:"turn"`
	Trails [][][2]int   `json:"trails"`
	Fates  []games.Fate `json:"fates"`
}

// View implements games.State.
func (g *game) View() json.RawMessage {
	v := view{Width: g.w, Height: g.h, Turn: g.turn, Trails: make([][][2]int, len(g.trails)), Fates: g.fates}
	for seat, t := range g.trails {
		v.Trails[seat] = make([][2]int, len(t))
		for i, c := range t {
			v.Trails[seat][i] = [2]int{c.x, c.y}
		}
	}
	return botsarena.Encode(v)
}

// directions are the moves of a reply.
var directions = map[string]cell{"x+": {1, 0}, "x-": {-1, 0}, "y+": {0, 1}, "y-": {0, -1}}

// direction reads a reply's play: "x+", "x-", "y+" or "y-".
func direction(play json.RawMessage) (cell, string) {
	dir, ok := botsarena.String(play)
	if d, known := directions[dir]; ok && known {
		return d, ""
	}
	return cell{}, fmt.Sprintf(`"play" must be one of "x+", "x-", "y+", "y-", got %s`, botsarena.Quote(play))
}

// Board implements games.Boarder: the grid as text, y growing downwards,
// each seat a letter (A for player 0...), its head in capitals and its trail
// in small letters, and a line per seat.
func (Rules) Board(position json.RawMessage) (string, error) {
	var v view
	if err := json.Unmarshal(position, &v); err != nil {
		return "", fmt.Errorf("tron: not a view: %w", err)
	}
	if v.Width <= 0 || v.Height <= 0 || v.Width*v.Height > 1<<20 {
		return "", fmt.Errorf("tron: a view of %d×%d cells", v.Width, v.Height)
	}
	grid := make([][]byte, v.Height)
	for y := range grid {
		grid[y] = []byte(strings.Repeat(".", v.Width))
	}
	for seat, t := range v.Trails {
		for i, c := range t {
			if c[0] < 0 || c[0] >= v.Width || c[1] < 0 || c[1] >= v.Height {
				continue
			}
			mark := byte('a' + seat%26)
			if i == len(t)-1 {
				mark = byte('A' + seat%26)
			}
			grid[c[1]][c[0]] = mark
		}
	}
	var b strings.Builder
	for _, row := range grid {
		b.Write(row)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "turn %d\n", v.Turn)
	for seat, f := range v.Fates {
		state := "alive"
		if f.Turn > 0 {
			state = fmt.Sprintf("died on turn %d: %s", f.Turn, f.Cause)
		}
		fmt.Fprintf(&b, "%c player %d: %s\n", 'A'+seat%26, seat, state)
	}
	return b.String(), nil
}
