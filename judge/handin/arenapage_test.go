package handin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"botjudge/games"
	"botjudge/games/fault"
	"botjudge/judge/arena"
	"botjudge/judge/arena/arenatest"
	"botjudge/results"
)

// arenaClass is a class of alice, bob and carol whose virus arena is
// arenatest's: its games, in order, ab ab aB Bc Bc cr cr ar rB (bob's
// first version b, his second B, the example bot r).
func arenaClass(t *testing.T, names arena.Names) (*class, map[byte]int64, results.Arena) {
	t.Helper()
	c := newClass(t, Options{Games: []string{"virus"}, ArenaNames: names}, "alice", "bob", "carol")
	ids := arenatest.Class(t, c.db, "virus")
	a, err := c.db.Arena(context.Background(), "virus")
	if err != nil {
		t.Fatal(err)
	}
	return c, ids, a
}

// ladder is the class's ladder as names shows it.
func (c *class) ladder(a results.Arena, names arena.Names) arena.Ladder {
	c.t.Helper()
	n, err := arena.NewNamer(context.Background(), c.db, names)
	if err != nil {
		c.t.Fatal(err)
	}
	rules, _ := games.Lookup("virus")
	return arena.Rank(rules, a, n)
}

// rowOf is student's row of l.
func rowOf(l arena.Ladder, student int64) arena.Row {
	for _, r := range l.Rows {
		if !r.Examples && r.Student == student {
			return r
		}
	}
	return arena.Row{}
}

// part is the page from the element of id to the end of its line.
func part(page, id string) string {
	i := strings.Index(page, `id="`+id+`"`)
	if i < 0 {
		return ""
	}
	end := strings.IndexByte(page[i:], '\n')
	if end < 0 {
		return page[i:]
	}
	return page[i : i+end]
}

var pointsRe = regexp.MustCompile(`<polyline points="([^"]*)"`)

// points counts the points of the sparkline in s.
func points(s string) int {
	m := pointsRe.FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	return len(strings.Fields(m[1]))
}

// A student's page shows the arena: their row on the ladder, marked as
// theirs, and beside each of their versions its rating path ("did my
// change help?"), all on one scale; a version's page lists its arena games,
// newest first, with their replays. In French too.
func TestArenaOnStudentPages(t *testing.T) {
	c, _, a := arenaClass(t, arena.RealNames)
	bob := c.student("bob")
	versions := c.versions("bob", "virus") // newest first
	v2, v1 := versions[0], versions[1]
	me := rowOf(c.ladder(a, arena.RealNames), v2.StudentID)

	st, page := bob.get("/hand-in/")
	if st != http.StatusOK {
		t.Fatalf("%d %s", st, page)
	}
	if want := fmt.Sprintf("rank %d of 4, rating %.0f (%.0f–%.0f)", me.Rank, me.Rating, me.Low, me.High); !strings.Contains(part(page, "arena-mine-virus"), want) {
		t.Errorf("bob's place: %q, want %q", part(page, "arena-mine-virus"), want)
	}
	if n := strings.Count(page, `<tr class="mine">`); n != 1 || !strings.Contains(page, `<tr class="mine"><td>`+fmt.Sprint(me.Rank)+`</td><td>bob <strong>(you)</strong>`) {
		t.Errorf("%d rows marked as bob's in the ladder:\n%s", n, page)
	}
	// bob's second version played 4 games, his first 2.
	second, first := part(page, fmt.Sprintf("rated-%d", v2.ID)), part(page, fmt.Sprintf("rated-%d", v1.ID))
	if points(second) != 4 || !strings.Contains(second, fmt.Sprintf("arena rating %.0f · 4 arena games", me.Rating)) {
		t.Errorf("bob's second version: %s", second)
	}
	if points(first) != 2 || !strings.Contains(first, "· 2 arena games") {
		t.Errorf("bob's first version: %s", first)
	}
	avg := regexp.MustCompile(`class="avg"[^>]*y1="([^"]*)"`)
	if x, y := avg.FindStringSubmatch(second), avg.FindStringSubmatch(first); x == nil || y == nil || x[1] != y[1] {
		t.Errorf("the versions' paths are not drawn on one scale: %q, %q", x, y)
	}

	_, page = bob.get(fmt.Sprintf("/hand-in/v/%d", v2.ID))
	if points(part(page, "arena-path")) != 4 {
		t.Errorf("the version's page draws no path of 4 points: %q", part(page, "arena-path"))
	}
	want := []string{
		fmt.Sprintf(`<li>against random: lost · <a class="replay" href="/game/%d">`, a.Games[8].ID),
		fmt.Sprintf(`<li>against carol: won · <a class="replay" href="/game/%d">`, a.Games[4].ID),
		fmt.Sprintf(`<li>against carol: won · <a class="replay" href="/game/%d">`, a.Games[3].ID),
		fmt.Sprintf(`<li>against alice: lost · <a class="replay" href="/game/%d">`, a.Games[2].ID),
	}
	if got := regexp.MustCompile(`<li>against [^\n]*">`).FindAllString(page, -1); !slices.Equal(got, want) {
		t.Errorf("bob's second version's arena games:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Each links to a replay bob may open.
	if st, body := bob.get(fmt.Sprintf("/api/game/%d/replay.json", a.Games[8].ID)); st != http.StatusOK || !strings.Contains(body, `"frames"`) {
		t.Errorf("bob's replay of his arena game: %d %.200s", st, body)
	}
	// carol's page marks her own row, and her one version's path.
	if _, page := c.student("carol").get("/hand-in/"); strings.Count(page, `<svg class="spark"`) != 1 || !strings.Contains(page, "carol <strong>(you)</strong>") {
		t.Errorf("carol's page:\n%s", page)
	}

	req, _ := http.NewRequest("GET", c.http.URL+"/hand-in/", nil)
	req.Header.Set("Accept-Language", "fr")
	if _, page := bob.do(req); !strings.Contains(page, fmt.Sprintf("rang %d sur 4, force %.0f", me.Rank, me.Rating)) ||
		!strings.Contains(page, "bob <strong>(vous)</strong>") || !strings.Contains(page, "4 parties d&#39;arène") {
		t.Errorf("in French:\n%s", page)
	}
}

// With pseudonyms, a student's pages name the other students as the
// public ladder does, tell the student their own pseudonym, and the
// replays of their arena games say no real name; the example bot keeps its
// name. The organiser reads whose pseudonym it is.
func TestArenaPseudonymsOnPages(t *testing.T) {
	c, ids, a := arenaClass(t, arena.Pseudonyms)
	l := c.ladder(a, arena.Pseudonyms)
	bobV := c.versions("bob", "virus")[0]
	pseudonym := map[string]string{}
	for _, name := range []string{"alice", "bob", "carol"} {
		pseudonym[name] = rowOf(l, c.versions(name, "virus")[0].StudentID).Name
	}
	bob := c.student("bob")
	_, home := bob.get("/hand-in/")
	_, version := bob.get(fmt.Sprintf("/hand-in/v/%d", bobV.ID))
	for what, page := range map[string]string{"bob's page": home, "his version's page": version} {
		for _, other := range []string{"alice", "carol"} {
			if strings.Contains(page, other) || !strings.Contains(page, pseudonym[other]) {
				t.Errorf("%s names %s, or not %q:\n%s", what, other, pseudonym[other], page)
			}
		}
		if !strings.Contains(page, "random") {
			t.Errorf("%s does not name the example bot random", what)
		}
	}
	if !strings.Contains(part(home, "arena-mine-virus"), "The ladder shows you as "+pseudonym["bob"]+":") ||
		!strings.Contains(home, `<tr class="mine"><td>2</td><td>`+pseudonym["bob"]+` <strong>(you)</strong>`) {
		t.Errorf("bob is not told his pseudonym %q:\n%s", pseudonym["bob"], home)
	}
	_, org := c.student(results.OrganiserName).get(fmt.Sprintf("/hand-in/student/%d", bobV.StudentID))
	if !strings.Contains(org, "The ladder shows this student as "+pseudonym["bob"]+".") || !strings.Contains(org, pseudonym["bob"]+" <strong>(bob)</strong>") {
		t.Errorf("the organiser's view of bob:\n%s", org)
	}

	// The public rows, and carol's replay of her game against bob.
	_, rows := c.browser().get("/api/arena/virus.json")
	var got arena.Ladder
	if err := json.Unmarshal([]byte(rows), &got); err != nil || len(got.Rows) != 4 {
		t.Fatalf("%v %s", err, rows)
	}
	for k, r := range got.Rows {
		if r.Name != l.Rows[k].Name || (r.Examples && r.BotID != ids['r']) || (!r.Examples && r.BotID != 0) {
			t.Errorf("row %d: %+v, want %q, its bot ID for the example only", k, r, l.Rows[k].Name)
		}
	}
	for _, name := range []string{"alice", "bob", "carol"} {
		if strings.Contains(rows, name) {
			t.Errorf("the public rows name %s: %s", name, rows)
		}
	}
	st, replay := c.student("carol").get(fmt.Sprintf("/api/game/%d/replay.json", a.Games[3].ID))
	if st != http.StatusOK || strings.Contains(replay, `"bob"`) || !strings.Contains(replay, `"name":"`+pseudonym["bob"]+`"`) {
		t.Errorf("carol's replay of her game against bob: %d %.400s", st, replay)
	}
	// Nor the bots' places in the list of entries, which is by name.
	if strings.Contains(replay, `"entries"`) {
		t.Errorf("carol's replay of her game against bob gives the bots' places in the entries: %.400s", replay)
	}
}

// A student may replay the arena games they played, and nothing else of
// another student's: not their versions, nor their log in a game they
// played together, nor a game they did not play, nor the arena's
// tournament pages.
func TestArenaHostileStudent(t *testing.T) {
	c, ids, a := arenaClass(t, arena.RealNames)
	ctx := context.Background()
	tour, err := c.db.ArenaTournament(ctx, "virus")
	if err != nil {
		t.Fatal(err)
	}
	together, err := c.db.SaveGame(ctx, results.Game{TournamentID: tour.ID, Key: "together", Reason: "win", Image: "test",
		Players: []results.Player{{Seat: 0, BotID: ids['a'], Rank: 1, Log: "ALICE-LOG"}, {Seat: 1, BotID: ids['c'], Rank: 2, Log: "carol's log"}},
		Moves:   []results.Move{{Move: games.Move{Seat: 0, Verdict: fault.Crash, Reason: "crash"}, Detail: "ALICE-TRACEBACK"}}})
	if err != nil {
		t.Fatal(err)
	}
	alice := c.versions("alice", "virus")[0]
	carol := c.student("carol")
	refused := []string{
		fmt.Sprintf("/hand-in/v/%d", alice.ID),
		fmt.Sprintf("/hand-in/v/%d/content", alice.ID),
		fmt.Sprintf("/hand-in/v/%d/events", alice.ID),
		fmt.Sprintf("/hand-in/student/%d", alice.StudentID),
		fmt.Sprintf("/api/game/%d/replay.json", a.Games[0].ID), // alice against bob
		fmt.Sprintf("/api/game/%d/record.json", a.Games[0].ID),
		fmt.Sprintf("/api/t/%d/games.json", tour.ID),
		fmt.Sprintf("/api/t/%d/bot/%d/info.json", tour.ID, ids['a']),
	}
	for _, path := range refused {
		if st, body := carol.get(path); st != http.StatusNotFound || strings.Contains(body, "ALICE") {
			t.Errorf("carol asks for %s: %d %.200s, want 404", path, st, body)
		}
	}
	if st, _ := carol.post(fmt.Sprintf("/hand-in/v/%d/restore", alice.ID), "application/x-www-form-urlencoded", nil); st != http.StatusNotFound {
		t.Errorf("carol makes alice's version the one in the tournament: %d, want 404", st)
	}
	for _, path := range []string{fmt.Sprintf("/api/game/%d/replay.json", together), fmt.Sprintf("/api/game/%d/record.json", together)} {
		if st, body := carol.get(path); st != http.StatusOK || strings.Contains(body, "ALICE-") {
			i := strings.Index(body, "ALICE-")
			t.Errorf("carol asks for %s of her game against alice: %d %s, want it without alice's log", path, st, body[max(0, i-300):])
		}
		if st, _ := c.browser().get(path); st != http.StatusNotFound {
			t.Errorf("%s without logging in: %d, want 404", path, st)
		}
	}
}
