package screen_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"botjudge/games"
	"botjudge/games/battleship"
	"botjudge/games/battleships"
	"botjudge/games/connectfour"
	"botjudge/games/fault"
	"botjudge/games/tictactoe"
	"botjudge/games/tron"
	"botjudge/games/virus"
	"botjudge/results"
)

// The seed database is made of games really played by the rules, between
// bots written here in Go that read the same requests as the real ones and
// answer the way students' bots do: well, badly, late, or by crashing.

// bot answers one request of a game; turn counts its own answers from 0.
// Virus bots read the View, battleships and tron bots their Request.
type bot struct {
	name   string
	view   bool
	answer func(req json.RawMessage, turn int, rng *rand.Rand) games.Answer
	log    func(turn int) string // what it prints at each answer
}

func data(s string) games.Answer { return games.Answer{Data: json.RawMessage(s)} }

// virusView is the part of the rules' View the bots read: reading the whole
// request (with its history) for every move of 870 games is too slow for a
// test's setup.
type virusView struct {
	Grid  [virus.Size][virus.Size]int `json:"grid"`
	Sides [2]string                   `json:"sides"`
	Turn  int                         `json:"turn"`
}

// virusMoves lists the legal cells of the side to move with the number of
// pieces each would flip.
func virusMoves(view json.RawMessage) (cells [][2]int, flips []int) {
	var v virusView
	if err := json.Unmarshal(view, &v); err != nil {
		panic(err)
	}
	me, grid := 1, v.Grid
	if v.Sides[v.Turn] == "player_2" {
		me = 2
	}
	for i := range virus.Size {
		for j := range virus.Size {
			if grid[i][j] != 0 {
				continue
			}
			mine, theirs := false, 0
			for di := -1; di <= 1; di++ {
				for dj := -1; dj <= 1; dj++ {
					a, b := i+di, j+dj
					if (di == 0 && dj == 0) || a < 0 || b < 0 || a >= virus.Size || b >= virus.Size {
						continue
					}
					switch grid[a][b] {
					case 0:
					case me:
						mine = true
					default:
						theirs++
					}
				}
			}
			if mine {
				cells = append(cells, [2]int{i, j})
				flips = append(flips, theirs)
			}
		}
	}
	return cells, flips
}

func cellAnswer(c [2]int) games.Answer { return data(fmt.Sprintf("[%d, %d]", c[0], c[1])) }

// virusStyles are the ways a virus bot plays; bots cycle through them.
var virusStyles = []struct {
	kind   string
	answer func(req json.RawMessage, turn int, rng *rand.Rand) games.Answer
}{
	{"first", func(req json.RawMessage, turn int, rng *rand.Rand) games.Answer {
		cells, _ := virusMoves(req)
		if len(cells) == 0 {
			return data("false")
		}
		return cellAnswer(cells[0])
	}},
	{"greedy", func(req json.RawMessage, turn int, rng *rand.Rand) games.Answer {
		cells, flips := virusMoves(req)
		best := -1
		for i := range cells {
			if best < 0 || flips[i] > flips[best] {
				best = i
			}
		}
		if best < 0 {
			return data("false")
		}
		return cellAnswer(cells[best])
	}},
	{"random", func(req json.RawMessage, turn int, rng *rand.Rand) games.Answer {
		cells, _ := virusMoves(req)
		if len(cells) == 0 {
			return data("false")
		}
		return cellAnswer(cells[rng.IntN(len(cells))])
	}},
	{"sloppy", func(req json.RawMessage, turn int, rng *rand.Rand) games.Answer {
		cells, flips := virusMoves(req)
		switch {
		case turn%9 == 4:
			return data("[0, 0]") // a corner: always taken
		case turn%13 == 7:
			return data("[3, 4, 5]")
		case len(cells) == 0:
			return data("false")
		}
		best := 0
		for i := range cells {
			if flips[i] > flips[best] {
				best = i
			}
		}
		return cellAnswer(cells[best])
	}},
	{"slow", func(req json.RawMessage, turn int, rng *rand.Rand) games.Answer {
		if turn%11 == 5 {
			return games.Answer{Fault: fault.Timeout, Detail: "no answer within 10s"}
		}
		cells, _ := virusMoves(req)
		if len(cells) == 0 {
			return data("false")
		}
		return cellAnswer(cells[len(cells)-1])
	}},
	{"crashy", func(req json.RawMessage, turn int, rng *rand.Rand) games.Answer {
		if turn == 6 {
			return games.Answer{Fault: fault.Error, Detail: crashTrace}
		}
		cells, flips := virusMoves(req)
		best := -1
		for i := range cells {
			if best < 0 || flips[i] >= flips[best] {
				best = i
			}
		}
		if best < 0 {
			return data("false")
		}
		return cellAnswer(cells[best])
	}},
}

const crashTrace = `Traceback (most recent call last):
  File "/bot/harness.py", line 41, in <module>
    move = ia(game, side)
  File "/bot/bot.py", line 12, in ia
    return best[0]
IndexError: list index out of range`

var firstNames = []string{
	"alice", "bruno", "chloé", "david", "emma", "farid", "gaëlle", "hugo", "inès", "jules",
	"karim", "léa", "marc", "nina", "oscar", "paul", "quentin", "rose", "samir", "théo",
	"ugo", "valentine", "william", "xavier", "yasmine", "zoé", "anaïs", "basile", "camille", "diane",
}

func virusBots(n int) []bot {
	bots := make([]bot, n)
	for i := range bots {
		style := virusStyles[i%len(virusStyles)]
		name := firstNames[i%len(firstNames)]
		if i >= len(firstNames) {
			name = fmt.Sprintf("%s%d", name, i/len(firstNames)+1)
		}
		// Each bot also plays a random move now and then, by its own taste,
		// so that bots of one style do not all finish tied.
		noise := float64(i%7) / 16
		answer := func(req json.RawMessage, turn int, rng *rand.Rand) games.Answer {
			a := style.answer(req, turn, rng)
			if a.Fault == fault.None && rng.Float64() < noise {
				if cells, _ := virusMoves(req); len(cells) > 0 {
					return cellAnswer(cells[rng.IntN(len(cells))])
				}
			}
			return a
		}
		bots[i] = bot{name: name, view: true, answer: answer, log: func(turn int) string {
			if style.kind == "crashy" && turn == 6 {
				return "about to pick the best move\n" + crashTrace + "\n"
			}
			if turn%10 == 0 {
				return fmt.Sprintf("%s: turn %d, thinking\n", style.kind, turn)
			}
			return ""
		}}
	}
	return bots
}

// Battleships bots read {"cmd":"init"} or the shots so far.
type shipsRequest struct {
	Cmd    string   `json:"cmd"`
	Hit    []string `json:"hit"`
	Missed []string `json:"missed"`
}

const (
	fleetA = `{"2":{"point":"00","orientation":"vertical"},"3":{"point":"22","orientation":"vertical"},` +
		`"4":{"point":"42","orientation":"vertical"},"5":{"point":"37","orientation":"horizontal"}}`
	fleetB = `{"2":{"point":"56","orientation":"vertical"},"3":{"point":"05","orientation":"horizontal"},` +
		`"4":{"point":"30","orientation":"horizontal"},"5":{"point":"72","orientation":"vertical"}}`
	fleetC = `{"2":{"point":"66","orientation":"horizontal"},"3":{"point":"10","orientation":"horizontal"},` +
		`"4":{"point":"03","orientation":"vertical"},"5":{"point":"25","orientation":"horizontal"}}`
	fleetBad = `{"2":{"point":"00","orientation":"vertical"},"3":{"point":"00","orientation":"horizontal"},` +
		`"4":{"point":"42","orientation":"vertical"},"5":{"point":"37","orientation":"horizontal"}}`
)

// shooter plays a fleet and then picks a shot among the cells not shot yet.
func shooter(fleet string, pick func(free []string, hit []string, rng *rand.Rand) string) func(json.RawMessage, int, *rand.Rand) games.Answer {
	return func(raw json.RawMessage, turn int, rng *rand.Rand) games.Answer {
		var req shipsRequest
		if err := json.Unmarshal(raw, &req); err != nil {
			panic(err)
		}
		if req.Cmd == "init" {
			return data(fleet)
		}
		shot := map[string]bool{}
		for _, c := range append(append([]string{}, req.Hit...), req.Missed...) {
			shot[c] = true
		}
		var free []string
		for c := range 8 {
			for r := range 8 {
				if cell := fmt.Sprintf("%d%d", c, r); !shot[cell] {
					free = append(free, cell)
				}
			}
		}
		return data(`{"move":"` + pick(free, req.Hit, rng) + `"}`)
	}
}

func inOrder(free, hit []string, rng *rand.Rand) string { return free[0] }

func atRandom(free, hit []string, rng *rand.Rand) string { return free[rng.IntN(len(free))] }

// hunting shoots next to its hits first.
func hunting(free, hit []string, rng *rand.Rand) string {
	open := map[string]bool{}
	for _, c := range free {
		open[c] = true
	}
	for _, h := range hit {
		c, r := int(h[0]-'0'), int(h[1]-'0')
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			if n := fmt.Sprintf("%d%d", c+d[0], r+d[1]); open[n] {
				return n
			}
		}
	}
	for _, c := range free {
		if (c[0]+c[1])%2 == 0 {
			return c
		}
	}
	return free[0]
}

func shipsBots() []bot {
	quiet := func(int) string { return "" }
	return []bot{
		{name: "amiral", answer: shooter(fleetA, hunting), log: func(turn int) string { return fmt.Sprintf("shot %d\n", turn) }},
		{name: "balayeur", answer: shooter(fleetB, inOrder), log: quiet},
		{name: "hasard", answer: shooter(fleetC, atRandom), log: quiet},
		{name: "tortue", log: quiet, answer: func(raw json.RawMessage, turn int, rng *rand.Rand) games.Answer {
			if turn == 12 {
				return games.Answer{Fault: fault.Timeout, Detail: "no answer within 2s"}
			}
			return shooter(fleetB, hunting)(raw, turn, rng)
		}},
		{name: "cassé", answer: shooter(fleetBad, inOrder), log: quiet},
	}
}

// inRowView is the part of a marks-in-a-row View the bots read.
type inRowView struct {
	Phase   string     `json:"phase"`
	Gravity bool       `json:"gravity"`
	Cells   [][]string `json:"cells"`
}

// inRowBots play marks in a row from the View: the first free cell, or one
// at random; one of them, "distrait", names a taken cell at its third move
// and loses by it.
func inRowBots() []bot {
	quiet := func(int) string { return "" }
	pick := func(random bool, careless bool) func(json.RawMessage, int, *rand.Rand) games.Answer {
		return func(raw json.RawMessage, turn int, rng *rand.Rand) games.Answer {
			var v inRowView
			if err := json.Unmarshal(raw, &v); err != nil || v.Phase != "play" {
				return data(`{}`)
			}
			var free []string
			for r, row := range v.Cells {
				for c, m := range row {
					switch {
					case v.Gravity && r == len(v.Cells)-1 && m == "":
						free = append(free, strconv.Itoa(c))
					case !v.Gravity && m == "":
						free = append(free, fmt.Sprintf(`"%d-%d"`, r, c))
					case !v.Gravity && careless && turn == 3:
						return data(fmt.Sprintf(`{"play":"%d-%d"}`, r, c))
					}
				}
			}
			if len(free) == 0 {
				return data(`{}`)
			}
			k := 0
			if random {
				k = rng.IntN(len(free))
			}
			return data(`{"play":` + free[k] + `}`)
		}
	}
	return []bot{
		{name: "rangée", view: true, answer: pick(false, false), log: quiet},
		{name: "hasard", view: true, answer: pick(true, false), log: quiet},
		{name: "distrait", view: true, answer: pick(true, true), log: quiet},
		{name: "dé", view: true, answer: pick(true, false), log: quiet},
	}
}

// podiumBots are marks-in-a-row bots with names longer than a podium's
// step: the first three play the first free cell, so that whoever starts
// wins (a diagonal by the fifth move), and they tie for the first place;
// the last one names a taken cell and loses every game.
func podiumBots() []bot {
	row := inRowBots()
	named := func(b bot, name string) bot { b.name = name; return b }
	return []bot{
		named(row[0], "anticonstitutionnellement"),
		named(row[0], "premier-de-la-classe-ex-aequo"),
		named(row[0], "troisième larron du podium"),
		named(row[2], "le distrait du fond de la salle"),
	}
}

// boatsView is the part of a botsArena battleship View the bots read.
type boatsView struct {
	Phase  string `json:"phase"`
	Turn   int    `json:"turn"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Shots  [2][]struct {
		X int `json:"x"`
		Y int `json:"y"`
	} `json:"shots"`
}

// boatsBot places fleet (the default ships) and fires at the cells it has
// not shot yet, in order or at random, reading the View.
func boatsBot(name, fleet string, random bool) bot {
	return bot{name: name, view: true, log: func(int) string { return "" }, answer: func(raw json.RawMessage, turn int, rng *rand.Rand) games.Answer {
		var v boatsView
		if err := json.Unmarshal(raw, &v); err != nil {
			return data(`{}`)
		}
		if v.Phase == "init" {
			return data(`{"boats":` + fleet + `}`)
		}
		shot := map[[2]int]bool{}
		for _, s := range v.Shots[1-v.Turn] {
			shot[[2]int{s.X, s.Y}] = true
		}
		var free [][2]int
		for y := range v.Height {
			for x := range v.Width {
				if !shot[[2]int{x, y}] {
					free = append(free, [2]int{x, y})
				}
			}
		}
		k := 0
		if random {
			k = rng.IntN(len(free))
		}
		return data(fmt.Sprintf(`{"play":"%d,%d"}`, free[k][0], free[k][1]))
	}}
}

// boatsBots are botsArena battleship bots; "cassé" places one boat too
// few and loses at the init.
func boatsBots() []bot {
	return []bot{
		boatsBot("ligne", `["0,0-1,0","0,2-2,2","0,4-2,4","0,6-3,6","0,8-4,8"]`, false),
		boatsBot("hasard", `["9,0-9,1","5,2-7,2","2,9-4,9","6,5-6,8","1,1-1,5"]`, true),
		boatsBot("dé", `["3,3-4,3","8,2-8,4","0,9-2,9","5,5-8,5","2,0-6,0"]`, true),
		boatsBot("cassé", `["0,0-1,0","0,2-2,2"]`, false),
	}
}

// Tron bots read the request's board (every trail, head first) and turn
// away from walls and trails, now and then at random, until their patience
// runs out; then they go straight on to their end. One of them is too slow
// once, which puts it out.
type tronRequest struct {
	Action string          `json:"action"`
	Board  json.RawMessage `json:"board"`
	Me     int             `json:"player-index"`
	Width  int             `json:"width"`
	Height int             `json:"height"`
}

var tronDirs = []struct {
	name   string
	dx, dy int
}{{"x+", 1, 0}, {"y+", 0, 1}, {"x-", -1, 0}, {"y-", 0, -1}}

func tronBot(name string, patience, slowAt int) bot {
	return bot{name: name, log: func(int) string { return "" }, answer: func(raw json.RawMessage, turn int, rng *rand.Rand) games.Answer {
		var req tronRequest
		if err := json.Unmarshal(raw, &req); err != nil {
			panic(err)
		}
		if req.Action == "init" {
			return data(`{"name":"` + name + `"}`)
		}
		if turn == slowAt {
			return games.Answer{Fault: fault.Timeout, Detail: "no answer within 1s"}
		}
		var trails [][][2]int
		if err := json.Unmarshal(req.Board, &trails); err != nil {
			panic(err)
		}
		taken := map[[2]int]bool{}
		for _, trail := range trails {
			for _, c := range trail {
				taken[c] = true
			}
		}
		me := trails[req.Me]
		head, d := me[0], req.Me%len(tronDirs)
		for i, x := range tronDirs {
			if len(me) > 1 && me[1][0]+x.dx == head[0] && me[1][1]+x.dy == head[1] {
				d = i
			}
		}
		free := func(d int) bool {
			x, y := head[0]+tronDirs[d].dx, head[1]+tronDirs[d].dy
			return x >= 0 && y >= 0 && x < req.Width && y < req.Height && !taken[[2]int{x, y}]
		}
		if turn <= patience && (!free(d) || rng.IntN(8) == 0) {
			for _, by := range []int{1 + 2*rng.IntN(2), 2, 1} {
				if free((d + by) % 4) {
					d = (d + by) % 4
					break
				}
			}
		}
		return data(`{"play":"` + tronDirs[d].name + `"}`)
	}}
}

// tronBots are n Tron bots (up to twelve), more patient one after the
// other; the third is too slow once.
func tronBots(n int) []bot {
	names := []string{"éclair", "foudre", "comète", "zigzag", "prudent", "orage",
		"tempête", "brise", "aurore", "nova", "quasar", "pulsar"}
	bots := make([]bot, n)
	for i := range bots {
		slowAt := -1
		if i == 2 {
			slowAt = 40
		}
		bots[i] = tronBot(names[i], 60+i*30, slowAt)
	}
	return bots
}

// sweeper is a Tron bot that lasts: it climbs its start column to the top,
// then sweeps the columns on its side (side -1 the left, 1 the right) one
// after the other, down and up, until it runs into the wall. It reads its
// start from its first board and then keeps track of where it is.
func sweeper(name string, side int) bot {
	var x, y, dir int // dir: 0 climbing, else the way it sweeps a column
	return bot{name: name, log: func(int) string { return "" }, answer: func(raw json.RawMessage, turn int, rng *rand.Rand) games.Answer {
		switch turn {
		case 0: // the init
			return data(`{"name":"` + name + `"}`)
		case 1:
			var full tronRequest
			var trails [][][2]int
			if err := json.Unmarshal(raw, &full); err != nil || json.Unmarshal(full.Board, &trails) != nil {
				panic(fmt.Sprint(err))
			}
			x, y, dir = trails[full.Me][0][0], trails[full.Me][0][1], 0
		}
		// Later boards are not read: they hold thousands of cells.
		move := func(dx, dy int, play string) games.Answer {
			x, y = x+dx, y+dy
			return data(`{"play":"` + play + `"}`)
		}
		switch {
		case dir == 0 && y > 0:
			return move(0, -1, "y-")
		case dir == 0 || (dir == 1 && y == tron.DefaultHeight-1) || (dir == -1 && y == 0):
			dir = 1 - 2*(y/(tron.DefaultHeight-1))
			if side < 0 {
				return move(-1, 0, "x-")
			}
			return move(1, 0, "x+")
		case dir == 1:
			return move(0, 1, "y+")
		}
		return move(0, -1, "y-")
	}}
}

// longSeed is a tournament seed whose first game (seed × 1000) starts two
// sweepers where each has some forty columns to sweep on its side: a game
// of about four thousand turns.
func longSeed() int64 {
	for seed := int64(3); ; seed++ {
		var v struct {
			Trails [][][2]int `json:"trails"`
		}
		if err := json.Unmarshal(tron.Rules{}.New(seed*1000, []string{"a", "b"}).View(), &v); err != nil {
			panic(err)
		}
		if a, b := v.Trails[0][0][0], v.Trails[1][0][0]; a >= 40 && a < 50 && b >= 50 && b < 60 {
			return seed
		}
	}
}

// play plays one game of rules between bots (one per seat) and returns its
// record, as the judge would store it.
func play(rules games.Rules, tid int64, key string, round int, seed int64, bots []bot, ids []int64, at time.Time) results.Game {
	names := make([]string, len(bots))
	for i, b := range bots {
		names[i] = b.name
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	s := rules.New(seed, names)
	turns := make([]int, len(bots))
	logs := make([]strings.Builder, len(bots))
	var moves []results.Move
	// A ply is a step of the game, which the seats that answer at once
	// share, as the judge stores it.
	for ply := 0; len(s.ToMove()) > 0; ply++ {
		seats := s.ToMove()
		answers := make([]games.Answer, len(seats))
		for i, seat := range seats {
			req := s.View()
			if !bots[seat].view {
				req = s.Request(seat)
			}
			answers[i] = bots[seat].answer(req, turns[seat], rng)
			logs[seat].WriteString(bots[seat].log(turns[seat]))
			turns[seat]++
		}
		for i, m := range s.Apply(answers) {
			// A sandboxed answer is charged its CPU, less than its wall
			// time (SPEC §5).
			wall := time.Duration(5+rng.IntN(300)) * time.Millisecond
			cpu := wall * 3 / 4
			m.Answer = answers[i].Data // what the bot said, as the judge records it
			moves = append(moves, results.Move{Move: m, Ply: ply, Detail: answers[i].Detail, Elapsed: wall, CPU: &cpu})
		}
	}
	o := s.Outcome()
	out, _ := json.Marshal(o)
	g := results.Game{TournamentID: tid, Key: key, Round: round, Seed: seed, Reason: o.Reason, Outcome: out,
		Started: at, Finished: at.Add(time.Duration(len(moves)) * 100 * time.Millisecond),
		Image: "sha256:test", Limits: json.RawMessage(`{"move_ms":10000}`), Moves: moves}
	for i := range bots {
		p := results.Player{Seat: i, BotID: ids[i], Name: bots[i].name, Rank: o.Rank[i], Log: logs[i].String()}
		if i < len(o.Score) {
			p.Score = o.Score[i]
		}
		g.Players = append(g.Players, p)
	}
	return g
}

// seeded is a tournament of the seed database.
type seeded struct {
	t    results.Tournament
	bots []bot
	ids  []int64
	// pending are the scheduled games not stored (for the live test).
	pending []pendingGame
	// live are its games in progress (a tournament in progress).
	live []results.Live
}

type pendingGame struct {
	key   string
	seed  int64
	seats []int // indexes in the tournament's bots, one per seat
}

// seated are the bots of a game and their ids, one per seat.
func (sd seeded) seated(seats []int) ([]bot, []int64) {
	bots, ids := make([]bot, len(seats)), make([]int64, len(seats))
	for i, b := range seats {
		bots[i], ids[i] = sd.bots[b], sd.ids[b]
	}
	return bots, ids
}

// duels is a round robin of n bots: each pair twice, each bot first once.
func duels(n int) [][]int {
	var plan [][]int
	for i := range n {
		for j := i + 1; j < n; j++ {
			plan = append(plan, []int{i, j}, []int{j, i})
		}
	}
	return plan
}

// freeForAll is the games of n bots of a free-for-all: every three of
// them, then all at once.
func freeForAll(n int) [][]int {
	var plan [][]int
	for i := range n {
		for j := i + 1; j < n; j++ {
			for k := j + 1; k < n; k++ {
				plan = append(plan, []int{i, j, k})
			}
		}
	}
	return append(plan, everyone(n))
}

// everyone is the seats of a game of all n bots.
func everyone(n int) []int {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return all
}

// submissions is where the fixture's bots were found: an absolute path,
// as `judge run` records it, which the screen must not show.
var submissions = filepath.Join(os.TempDir(), "organiser", "submissions")

// enter adds bots to the database, checked (a bot named cassé… fails its
// check), and returns their ids.
func enter(ctx context.Context, db *results.DB, rules games.Rules, seed int64, bots []bot) ([]int64, error) {
	var ids []int64
	for _, b := range bots {
		sum := fmt.Sprintf("%x", sha256.Sum256([]byte(fmt.Sprint(b.name, seed))))
		row, err := db.AddBot(ctx, results.Bot{Game: rules.Name(), Name: b.name, SHA256: sum, Path: filepath.Join(submissions, rules.Name(), b.name+".py")})
		if err != nil {
			return nil, err
		}
		ids = append(ids, row.ID)
		check := results.Check{BotID: row.ID, OK: true}
		if strings.HasPrefix(b.name, "cassé") {
			check = results.Check{BotID: row.ID, OK: false, Verdict: "illegal", Detail: "invalid fleet: ships 2 and 3 overlap at 00", Log: "placing ships\n"}
		}
		if err := db.SaveCheck(ctx, check); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// tournament plays the games of plan (the bots of each game, by seat) of
// rules between bots and stores the first `store` games; store < 0 stores
// them all and marks the run finished.
func tournament(ctx context.Context, db *results.DB, rules games.Rules, seed int64, bots []bot, plan [][]int, store int) (seeded, error) {
	const set = `{"rounds":1,"scheme":"1-0.5-0","limits":{"move_ms":10000}}`
	t, err := db.EnsureTournament(ctx, rules.Name(), seed, json.RawMessage(set))
	if err != nil {
		return seeded{}, err
	}
	sd := seeded{bots: bots}
	if sd.ids, err = enter(ctx, db, rules, seed, bots); err != nil {
		return sd, err
	}
	if err := db.StartRun(ctx, t.ID, results.Run{BotIDs: sd.ids, Planned: len(plan), Rounds: 1}); err != nil {
		return sd, err
	}
	start := time.Now().Add(-time.Duration(len(plan)) * 10 * time.Second)
	for n, seats := range plan {
		key := "r1"
		for _, b := range seats {
			key += "/" + bots[b].name
		}
		p := pendingGame{key: key, seed: seed*1000 + int64(n), seats: seats}
		if store >= 0 && n >= store {
			sd.pending = append(sd.pending, p)
			continue
		}
		gbots, ids := sd.seated(seats)
		g := play(rules, t.ID, p.key, 1, p.seed, gbots, ids, start.Add(time.Duration(n)*10*time.Second))
		if _, err := db.SaveGame(ctx, g); err != nil {
			return sd, err
		}
	}
	if store < 0 {
		if err := db.FinishRun(ctx, t.ID); err != nil {
			return sd, err
		}
	}
	sd.t, err = db.Tournament(ctx, t.ID)
	return sd, err
}

// swissTournament is a finished swiss tournament of rounds rounds between
// bots (an odd number: one sits out each round), paired by the circle
// method so that no pair meets twice, each pairing in both seats, as
// `judge run --format swiss` stores it: the rounds' games and byes.
func swissTournament(ctx context.Context, db *results.DB, rules games.Rules, seed int64, bots []bot, rounds int) (seeded, error) {
	const set = `{"format":"swiss","limits":{"move_ms":10000}}`
	t, err := db.EnsureTournament(ctx, rules.Name(), seed, json.RawMessage(set))
	if err != nil {
		return seeded{}, err
	}
	sd := seeded{bots: bots}
	if sd.ids, err = enter(ctx, db, rules, seed, bots); err != nil {
		return sd, err
	}
	n := len(bots)
	if err := db.StartRun(ctx, t.ID, results.Run{BotIDs: sd.ids, Planned: rounds * (n / 2) * 2, Rounds: rounds, Format: results.FormatSwiss}); err != nil {
		return sd, err
	}
	m := n + n%2 // with a ghost bot n, whose partner sits out
	start := time.Now().Add(-time.Duration(rounds*n) * 10 * time.Second)
	k := 0
	for r := 1; r <= rounds; r++ {
		pos := []int{0}
		for i := range m - 1 {
			pos = append(pos, 1+(i+r-1)%(m-1))
		}
		for i := range m / 2 {
			a, b := pos[i], pos[m-1-i]
			if a == n || b == n {
				if err := db.SetBye(ctx, t.ID, results.Bye{Round: r, BotID: sd.ids[a+b-n], Games: 2}); err != nil {
					return sd, err
				}
				continue
			}
			for _, seats := range [][]int{{a, b}, {b, a}} {
				key := fmt.Sprintf("r%d/swiss1/%s/%s", r, bots[seats[0]].name, bots[seats[1]].name)
				gbots, ids := sd.seated(seats)
				g := play(rules, t.ID, key, r, seed*1000+int64(k), gbots, ids, start.Add(time.Duration(k)*10*time.Second))
				k++
				if _, err := db.SaveGame(ctx, g); err != nil {
					return sd, err
				}
			}
		}
	}
	if err := db.FinishRun(ctx, t.ID); err != nil {
		return sd, err
	}
	sd.t, err = db.Tournament(ctx, t.ID)
	return sd, err
}

// fixture is the seed database shared by the tests.
type fixture struct {
	path  string
	db    *results.DB
	virus seeded // 30 bots, finished
	ships seeded // battleships, 5 bots, finished
	tron  seeded // 5 bots in games of 3 and of 5 seats, finished
	ffa   seeded // tron, one free-for-all of 12 bots (a long name), finished
	long  seeded // tron, one game of about 4000 turns, finished
	live  seeded // virus, 4 bots, half played, "running"
	ttt   seeded // tictactoe, 4 bots, finished
	c4    seeded // connectfour, 4 bots, finished
	boats seeded // battleship, 4 bots, finished
	// podium is tictactoe between bots of long names, three of which tie
	// for the first place (each wins its games as first player).
	podium seeded
	// swiss is virus, 29 bots in 5 swiss rounds (a bye each round).
	swiss seeded
	// run are tournaments in progress.
	run running
}

// all are the fixture's tournaments.
func (f *fixture) all() []seeded {
	return []seeded{f.virus, f.ships, f.tron, f.ffa, f.long, f.live, f.ttt, f.c4, f.boats, f.podium, f.swiss}
}

func newFixture(dir string) (*fixture, error) {
	ctx := context.Background()
	f := &fixture{path: filepath.Join(dir, "judge.db")}
	db, err := results.Open(f.path)
	if err != nil {
		return nil, err
	}
	f.db = db
	if f.virus, err = tournament(ctx, db, virus.Rules{}, 1, virusBots(30), duels(30), -1); err != nil {
		return nil, err
	}
	if f.ships, err = tournament(ctx, db, battleships.Rules{}, 1, shipsBots(), duels(5), -1); err != nil {
		return nil, err
	}
	if f.tron, err = tournament(ctx, db, tron.Rules{}, 1, tronBots(5), freeForAll(5), -1); err != nil {
		return nil, err
	}
	// A name of words joined by underscores, longer than the replay's
	// list of twelve has room for on one line.
	twelve := tronBots(tron.MaxSeats)
	twelve[tron.MaxSeats-1].name = "mallory_the_magnificent_cycler"
	if f.ffa, err = tournament(ctx, db, tron.Rules{}, 2, twelve, [][]int{everyone(tron.MaxSeats)}, -1); err != nil {
		return nil, err
	}
	sweepers := []bot{sweeper("gauche", -1), sweeper("droite", 1)}
	if f.long, err = tournament(ctx, db, tron.Rules{}, longSeed(), sweepers, [][]int{{0, 1}}, -1); err != nil {
		return nil, err
	}
	if f.live, err = tournament(ctx, db, virus.Rules{}, 2, virusBots(4), duels(4), 5); err != nil {
		return nil, err
	}
	if f.ttt, err = tournament(ctx, db, tictactoe.Rules, 1, inRowBots(), duels(4), -1); err != nil {
		return nil, err
	}
	if f.c4, err = tournament(ctx, db, connectfour.Rules, 1, inRowBots(), duels(4), -1); err != nil {
		return nil, err
	}
	if f.boats, err = tournament(ctx, db, battleship.Rules{}, 1, boatsBots(), duels(4), -1); err != nil {
		return nil, err
	}
	if f.podium, err = tournament(ctx, db, tictactoe.Rules, 2, podiumBots(), duels(4), -1); err != nil {
		return nil, err
	}
	if f.swiss, err = swissTournament(ctx, db, virus.Rules{}, 3, virusBots(29), 5); err != nil {
		return nil, err
	}
	if f.run, err = newRunning(ctx, db, f.path); err != nil {
		return nil, err
	}
	return f, nil
}

var fix *fixture

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "screen-test-")
	if err != nil {
		panic(err)
	}
	start := time.Now()
	fix, err = newFixture(dir)
	if err != nil {
		panic(err)
	}
	if testing.Verbose() {
		fmt.Printf("seed database built in %s\n", time.Since(start).Round(time.Millisecond))
	}
	code := m.Run()
	fix.db.Close()
	os.RemoveAll(dir)
	os.Exit(code)
}
