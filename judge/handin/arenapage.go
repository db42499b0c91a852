package handin

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"botjudge/games"
	"botjudge/judge/arena"
	"botjudge/results"
	"botjudge/results/scoring"
)

// pathPoints bound the points of a version's rating path: each is a fit of
// the ladder, and a sparkline has no room for more.
const pathPoints = 40

// listedGames bound the arena games a version's page lists, newest first.
const listedGames = 50

// gameArena is one game's arena (SPEC §7) as a student's pages show it:
// the ladder with the student's row, and how each of their versions did.
type gameArena struct {
	Game   string
	Ladder arena.Ladder
	// Mine is the student's row, nil while none of their versions is on
	// the ladder; Hides says the ladder shows pseudonyms.
	Mine  *arena.Row
	Hides bool
	// Versions are the student's versions that played, by hand-in ID.
	Versions map[int64]*versionArena
}

// versionArena is one version's arena: its rating path and its games.
type versionArena struct {
	Path  []arena.Point
	Last  arena.Point
	Spark sparkline
	// Games are its arena games, newest first, at most listedGames of
	// Played.
	Games  []Spar
	Played int
}

// arenaOf is game's arena for student's versions, nil when the game never
// had one.
func (s *Server) arenaOf(ctx context.Context, game string, student int64, versions []results.HandIn) (*gameArena, error) {
	rules, ok := games.Lookup(game)
	if !ok {
		return nil, fmt.Errorf("unknown game %q", game)
	}
	a, err := s.db.Arena(ctx, game)
	if err != nil || len(a.Joined) == 0 {
		return nil, err
	}
	n, err := arena.NewNamer(ctx, s.db, s.opt.ArenaNames)
	if err != nil {
		return nil, err
	}
	ga := &gameArena{Game: game, Ladder: arena.Rank(rules, a, n), Hides: n.Hides(), Versions: map[int64]*versionArena{}}
	for i, r := range ga.Ladder.Rows {
		if !r.Examples && r.Student == student {
			ga.Mine = &ga.Ladder.Rows[i]
		}
	}
	bots := map[int64]int64{} // hand-in ID by bot ID
	for _, b := range a.Joined {
		if b.Student == student && slices.ContainsFunc(versions, func(h results.HandIn) bool { return h.ID == b.HandIn }) {
			bots[b.BotID] = b.HandIn
		}
	}
	paths := arena.Paths(a, slices.Collect(maps.Keys(bots)), pathPoints)
	for bot, path := range paths {
		all := arenaGames(a, bot, n)
		ga.Versions[bots[bot]] = &versionArena{Path: path, Last: path[len(path)-1], Games: all[:min(len(all), listedGames)], Played: len(all)}
	}
	return ga, nil
}

// arenaGames are bot's arena games, newest first, as its version's page
// lists them: the opponents named as the ladder names them, never the
// reason the rules gave, which names the bots by their files.
func arenaGames(a results.Arena, bot int64, n arena.Namer) []Spar {
	var out []Spar
	for _, g := range slices.Backward(a.Games) {
		k := slices.IndexFunc(g.Seats, func(s scoring.Seat) bool { return s.BotID == bot })
		if k < 0 {
			continue
		}
		// sparOf reads the version in the first seat.
		seats := append([]scoring.Seat{g.Seats[k]}, slices.Delete(slices.Clone(g.Seats), k, k+1)...)
		players := make([]results.Player, len(seats))
		for i, s := range seats {
			name := "?"
			if b, ok := a.Joined[s.BotID]; ok {
				name = n.Name(b)
			}
			players[i] = results.Player{Name: name, Rank: s.Rank, Faults: s.Timeouts + s.Crashes + s.Illegal}
		}
		out = append(out, sparOf(g.ID, "", players))
	}
	return out
}

// drawPaths draws each version's path in w×h pixels, all on one scale: a
// version's line beside the one before says whether the change helped.
func (ga *gameArena) drawPaths(w, h int) {
	var all []arena.Point
	for _, v := range ga.Versions {
		all = append(all, v.Path...)
	}
	sc := scaleOf(all)
	for _, v := range ga.Versions {
		v.Spark = sc.draw(v.Path, w, h)
	}
}

// sparkline is a rating path as an inline SVG: a polyline, the average
// rating (1500) as a guide, and the last point.
type sparkline struct {
	W, H         int
	Line         string
	Avg          float64
	LastX, LastY float64
	First, Last  float64
}

// scale is the ratings a sparkline spans, the average always in view.
type scale struct{ lo, hi float64 }

func scaleOf(points []arena.Point) scale {
	sc := scale{1500, 1500}
	for _, p := range points {
		sc.lo, sc.hi = min(sc.lo, p.Rating), max(sc.hi, p.Rating)
	}
	const margin = 25
	return scale{sc.lo - margin, sc.hi + margin}
}

// draw fits path in w×h pixels.
func (sc scale) draw(path []arena.Point, w, h int) sparkline {
	const pad = 3
	// A tenth of a pixel is finer than any screen draws.
	tenth := func(v float64) float64 { return math.Round(v*10) / 10 }
	y := func(r float64) float64 {
		return tenth(pad + (sc.hi-r)/(sc.hi-sc.lo)*float64(h-2*pad))
	}
	x := func(i int) float64 {
		if len(path) == 1 {
			return float64(w - pad)
		}
		return tenth(pad + float64(i)*float64(w-2*pad)/float64(len(path)-1))
	}
	var b strings.Builder
	for i, p := range path {
		fmt.Fprintf(&b, "%g,%g ", x(i), y(p.Rating))
	}
	last := len(path) - 1
	return sparkline{W: w, H: h, Line: strings.TrimSpace(b.String()), Avg: y(1500), LastX: x(last), LastY: y(path[last].Rating),
		First: path[0].Rating, Last: path[last].Rating}
}
