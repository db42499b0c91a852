package arena_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"botjudge/games"
	_ "botjudge/games/all"
	"botjudge/judge/arena"
	"botjudge/judge/arena/arenatest"
	"botjudge/results"
	"botjudge/results/scoring"
)

// ladderOf stores the test class's arena of game and ranks it.
func ladderOf(t *testing.T, game string) (arena.Ladder, map[byte]int64, results.Arena) {
	t.Helper()
	d, err := results.Open(filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ids := arenatest.Class(t, d, game)
	a, err := d.Arena(context.Background(), game)
	if err != nil {
		t.Fatal(err)
	}
	rules, _ := games.Lookup(game)
	return arena.Rank(rules, a, arena.Namer{}), ids, a
}

// The ladder ranks the current versions by rating over their games
// together, marks the example bots, and puts the seed's own score beside,
// replayed over every arena game (bob's first version's too).
func TestLadder(t *testing.T) {
	l, ids, a := ladderOf(t, "battleships")
	if l.Game != "battleships" || l.SeedScore != games.SeedBrainJar || l.Games != 9 || len(l.Rows) != 4 {
		t.Fatalf("ladder %+v, want battleships, BrainJar points, 9 games, 4 bots", l)
	}
	top := l.Rows[0]
	if top.Name != "alice" || top.Rank != 1 || top.Games != 2 || top.Wins != 2 || top.Losses != 0 || top.Examples || top.HandedIn.IsZero() || top.Version != "a10123456789" {
		t.Errorf("first row %+v, want alice, 2 games won against the ladder now", top)
	}
	for k := 1; k < len(l.Rows); k++ {
		if l.Rows[k].Rating > l.Rows[k-1].Rating || l.Rows[k].Rank <= l.Rows[k-1].Rank {
			t.Errorf("row %d (%s, %.0f) is not below row %d (%.0f)", k, l.Rows[k].Name, l.Rows[k].Rating, k-1, l.Rows[k-1].Rating)
		}
		if !(l.Rows[k].Low < l.Rows[k].Rating && l.Rows[k].Rating < l.Rows[k].High) {
			t.Errorf("%s: rating %.0f outside [%.0f, %.0f]", l.Rows[k].Name, l.Rows[k].Rating, l.Rows[k].Low, l.Rows[k].High)
		}
	}
	all := []int64{ids['a'], ids['b'], ids['B'], ids['c'], ids['r']}
	points := scoring.BrainJarPoints(all, a.Games)
	for _, r := range l.Rows {
		if r.Examples != (r.Name == "random") {
			t.Errorf("%s: examples %v", r.Name, r.Examples)
		}
		if r.BotID == ids['a'] && (r.SeedScore == nil || *r.SeedScore != points[0]) {
			t.Errorf("alice's BrainJar points %v, want %.4f (her wins over bob's first version count)", r.SeedScore, points[0])
		}
	}
	if points[0] <= 10.5*1.05 {
		t.Fatalf("the test class is wrong: alice's 4 wins give %.4f points", points[0])
	}
}

// botsArena's games show Elo, the virus (whose seed kept no live score)
// none.
func TestLadderSeedScores(t *testing.T) {
	if l, _, _ := ladderOf(t, "tron"); l.SeedScore != games.SeedElo || l.Rows[0].SeedScore == nil || *l.Rows[0].SeedScore <= 1500 {
		t.Errorf("tron: %q, first row %+v: want Elo above 1500 for alice", l.SeedScore, l.Rows[0])
	}
	if l, _, _ := ladderOf(t, "virus"); l.SeedScore != "" || l.Rows[0].SeedScore != nil {
		t.Errorf("virus: %q, first row %+v: want no seed score", l.SeedScore, l.Rows[0])
	}
}

// With pseudonyms the ladder names each student by theirs, and shows
// nothing that the public tournaments' pages show beside a real name (the
// bot's ID, its version, when it was handed in); the example bot keeps
// its name. The order is the same.
func TestLadderPseudonyms(t *testing.T) {
	ctx := context.Background()
	d, err := results.Open(filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ids := arenatest.Class(t, d, "battleships")
	a, err := d.Arena(ctx, "battleships")
	if err != nil {
		t.Fatal(err)
	}
	rules, _ := games.Lookup("battleships")
	real := arena.Rank(rules, a, arena.Namer{})
	n, err := arena.NewNamer(ctx, d, arena.Pseudonyms)
	if err != nil || !n.Hides() {
		t.Fatalf("namer: %v", err)
	}
	hidden := arena.Rank(rules, a, n)
	pseudonym := regexp.MustCompile(`^[A-Z][a-z]+ [1-9][0-9]$`)
	for k, r := range hidden.Rows {
		if r.Rating != real.Rows[k].Rating || r.Student != real.Rows[k].Student {
			t.Errorf("row %d: %+v, with real names %+v", k, r, real.Rows[k])
		}
		if r.Examples {
			if r.Name != "random" || r.BotID != ids['r'] {
				t.Errorf("the example bot's row %+v, want random as it is", r)
			}
			continue
		}
		if !pseudonym.MatchString(r.Name) || r.BotID != 0 || r.Version != "" || !r.HandedIn.IsZero() || r.Student == 0 {
			t.Errorf("a student's row %+v: want a pseudonym and no bot ID, version or time", r)
		}
	}
	out, _ := json.Marshal(hidden)
	for _, name := range []string{"alice", "bob", "carol", "handed_in", "student"} {
		if strings.Contains(string(out), name) {
			t.Errorf("the JSON rows say %q: %s", name, out)
		}
	}
	// The same database gives the same pseudonyms on every page.
	again, _ := arena.NewNamer(ctx, d, arena.Pseudonyms)
	if l := arena.Rank(rules, a, again); l.Rows[0].Name != hidden.Rows[0].Name {
		t.Errorf("first row %q, then %q", hidden.Rows[0].Name, l.Rows[0].Name)
	}
	if n, err := arena.NewNamer(ctx, d, arena.RealNames); err != nil || n.Hides() || arena.Rank(rules, a, n).Rows[0].Name != "alice" {
		t.Errorf("real names: %v", err)
	}
}
