package arena_test

import (
	"slices"
	"testing"

	"botjudge/judge/arena"
	"botjudge/results"
	"botjudge/results/scoring"
)

// A version's path is its rating after each of its games as the ladder
// stood then: bob's first version rated among the bots of its time, his
// second one without the first one's games, and ending on its rating on
// the ladder now, since it played the arena's last game.
func TestPaths(t *testing.T) {
	l, ids, a := ladderOf(t, "battleships")
	b, B := ids['b'], ids['B']
	paths := arena.Paths(a, []int64{b, B}, 40)
	// The class's games: ab ab aB Bc Bc cr cr ar rB.
	if got := gamesOf(paths[b]); !slices.Equal(got, idsOf(a, 0, 1)) {
		t.Errorf("bob's first version rated after games %v, want %v", got, idsOf(a, 0, 1))
	}
	if got := gamesOf(paths[B]); !slices.Equal(got, idsOf(a, 2, 3, 4, 8)) {
		t.Fatalf("bob's second version rated after games %v, want %v", got, idsOf(a, 2, 3, 4, 8))
	}
	first := scoring.Ratings([]int64{ids['a'], b}, a.Games[:1])[1]
	if p := paths[b][0]; p.Rating != first.Rating || p.Low != first.Low || p.High != first.High || p.Rating >= 1500 {
		t.Errorf("after its first game (lost to alice) bob's first version is %+v, want %+v below 1500", p, first)
	}
	// Once bob's second version played, his first one's games are no
	// longer the ladder's.
	second := scoring.Ratings([]int64{ids['a'], B}, a.Games[2:3])[1]
	if p := paths[B][0]; p.Rating != second.Rating {
		t.Errorf("after its first game bob's second version is %.1f, want %.1f (alice's win over it alone)", p.Rating, second.Rating)
	}
	var now arena.Row
	for _, r := range l.Rows {
		if r.BotID == B {
			now = r
		}
	}
	if p := paths[B][3]; p.Rating != now.Rating || p.Low != now.Low || p.High != now.High {
		t.Errorf("after the arena's last game bob's second version is %+v, the ladder says %+v", p, now)
	}
	// At most two points: spread over its games, the last one kept.
	if got := gamesOf(arena.Paths(a, []int64{B}, 2)[B]); !slices.Equal(got, idsOf(a, 3, 8)) {
		t.Errorf("two points of bob's path: after games %v, want %v", got, idsOf(a, 3, 8))
	}
	if p := arena.Paths(a, []int64{ids['c']}, 40); len(p) != 1 || len(p[ids['c']]) != 4 {
		t.Errorf("carol's path %+v, want her 4 games", p)
	}
}

func gamesOf(path []arena.Point) []int64 {
	var out []int64
	for _, p := range path {
		out = append(out, p.Game)
	}
	return out
}

// idsOf are the IDs of the arena's games at these indexes.
func idsOf(a results.Arena, ks ...int) []int64 {
	var out []int64
	for _, k := range ks {
		out = append(out, a.Games[k].ID)
	}
	return out
}
