package screen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"botjudge/games"
	_ "botjudge/games/all"
	"botjudge/games/fault"
	"botjudge/games/tron"
	"botjudge/games/virus"
	"botjudge/judge/screen"
	"botjudge/judge/screen/browsertest"
	"botjudge/results"
)

// serve starts the screen of the seed database for one test.
func serve(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(screen.New(fix.db, screen.Options{Poll: 100 * time.Millisecond, Log: log.New(testLog{t}, "", 0)}))
	t.Cleanup(func() {
		// Event streams only end when their connection does.
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Logf("server: %s", strings.TrimSpace(string(p)))
	return len(p), nil
}

// browse opens a 1920×1080 tab on the screen at path. The test fails if the
// page logged an error or threw by the time the test ends.
func browse(t *testing.T, path string) (*browsertest.Page, context.Context, *httptest.Server) {
	t.Helper()
	b := browsertest.Start(t)
	srv := serve(t)
	p := b.NewPage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	t.Cleanup(func() {
		if probs := p.Problems(); len(probs) > 0 {
			t.Errorf("the browser reported problems:\n%s", strings.Join(probs, "\n"))
		}
	})
	if path != "" {
		if err := p.Navigate(ctx, srv.URL+path); err != nil {
			t.Fatal(err)
		}
	}
	return p, ctx, srv
}

func wait(t *testing.T, ctx context.Context, p *browsertest.Page, expr string) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := p.Wait(wctx, expr); err != nil {
		var text string
		p.Eval(ctx, `document.body.innerText.slice(0, 800)`, &text)
		t.Fatalf("%v\npage text: %s", err, text)
	}
}

func eval[T any](t *testing.T, ctx context.Context, p *browsertest.Page, expr string) T {
	t.Helper()
	var v T
	if err := p.Eval(ctx, expr, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func press(t *testing.T, ctx context.Context, p *browsertest.Page, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if err := p.Press(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
}

// screenshot keeps the view as test output, under $SCREENSHOTS when set.
func screenshot(t *testing.T, ctx context.Context, p *browsertest.Page, name string) {
	t.Helper()
	dir := os.Getenv("SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// Let animations settle so that the picture shows the page at rest.
	time.Sleep(700 * time.Millisecond)
	path := filepath.Join(dir, name+".png")
	if err := p.Screenshot(ctx, path); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// noScroll checks that the view fits the projector.
func noScroll(t *testing.T, ctx context.Context, p *browsertest.Page, what string) {
	t.Helper()
	size := eval[[2]int](t, ctx, p, `[document.scrollingElement.scrollHeight, innerHeight]`)
	if size[0] > size[1] {
		t.Errorf("%s: the page is %d px high in a %d px window: it scrolls", what, size[0], size[1])
	}
	wide := eval[[2]int](t, ctx, p, `[document.scrollingElement.scrollWidth, innerWidth]`)
	if wide[0] > wide[1] {
		t.Errorf("%s: the page is %d px wide in a %d px window", what, wide[0], wide[1])
	}
}

// points writes a score as the pages do: 14.5 is 14½.
// duelPoints is what a duel g gave bot: 1, ½ or 0.
func duelPoints(g results.Game, bot int64) float64 {
	var mine, theirs int
	for _, pl := range g.Players {
		if pl.BotID == bot {
			mine = pl.Rank
		} else {
			theirs = pl.Rank
		}
	}
	switch {
	case mine < theirs:
		return 1
	case mine == theirs:
		return 0.5
	}
	return 0
}

func points(x float64) string {
	whole := int(x)
	switch frac := x - float64(whole); {
	case frac == 0.5 && whole == 0:
		return "½"
	case frac == 0.5:
		return fmt.Sprintf("%d½", whole)
	case frac == 0:
		return strconv.Itoa(whole)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

func dash(n int) string {
	if n == 0 {
		return "·"
	}
	return strconv.Itoa(n)
}

func TestStandingsPage(t *testing.T) {
	ctx0 := context.Background()
	want, err := fix.db.Standings(ctx0, fix.virus.t.ID, results.SchemeDefault)
	if err != nil {
		t.Fatal(err)
	}
	p, ctx, _ := browse(t, fmt.Sprintf("/t/%d/standings", fix.virus.t.ID))
	wait(t, ctx, p, `document.querySelectorAll('table.standings tbody tr').length === 30`)
	rows := eval[[][]string](t, ctx, p, `[...document.querySelectorAll('table.standings tbody tr')].map(tr => [
		tr.dataset.rank, tr.querySelector('.name a').textContent, tr.querySelector('.pts .v').textContent,
		...[...tr.cells].slice(3, 11).map(c => c.textContent), tr.querySelector('.rv').textContent, tr.querySelector('.ci').textContent,
		tr.querySelector('.pts .tie')?.dataset.rule ?? ''])`)
	if len(rows) != len(want) {
		t.Fatalf("%d rows on the page, %d standings", len(rows), len(want))
	}
	for i, s := range want {
		tie := s.TieBreak // the tag names the rule that puts the bot above the next
		if i == len(want)-1 || tie == results.ByPoints {
			tie = ""
		}
		exp := []string{strconv.Itoa(s.Rank), s.Bot.Name, points(s.Points),
			strconv.Itoa(s.Games), strconv.Itoa(s.Wins), strconv.Itoa(s.Draws), strconv.Itoa(s.Losses), strconv.Itoa(s.Beaten),
			dash(s.Timeouts), dash(s.Crashes), dash(s.Illegal),
			strconv.Itoa(int(s.Rating + 0.5)), fmt.Sprintf("%d–%d", int(s.RatingLow+0.5), int(s.RatingHigh+0.5)), tie}
		if !slices.Equal(rows[i], exp) {
			t.Errorf("row %d:\n page %q\n   db %q", i+1, rows[i], exp)
		}
	}
	noScroll(t, ctx, p, "standings of 30 bots")
	font := eval[float64](t, ctx, p, `parseFloat(getComputedStyle(document.querySelector('.standings td.name')).fontSize)`)
	if font < 17 {
		t.Errorf("names are %.1f px high with 30 bots: too small for a classroom", font)
	}
	order := eval[string](t, ctx, p, `document.querySelector('.note').textContent`)
	for _, rule := range []string{"head-to-head", "wins", "Sonneborn–Berger"} {
		if !strings.Contains(order, rule) {
			t.Errorf("the page does not explain the order (%q missing): %s", rule, order)
		}
	}
	screenshot(t, ctx, p, "standings")
}

func TestCrosstableLeadsToGames(t *testing.T) {
	ctx0 := context.Background()
	st, err := fix.db.Standings(ctx0, fix.virus.t.ID, results.SchemeDefault)
	if err != nil {
		t.Fatal(err)
	}
	a, b := st[0].Bot, st[3].Bot
	gs, err := fix.db.Games(ctx0, fix.virus.t.ID, results.GameFilter{BotID: a.ID, Opponent: b.ID})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	score := 0.0
	for _, g := range gs {
		ids = append(ids, strconv.FormatInt(g.ID, 10))
		score += duelPoints(g, a.ID)
	}

	p, ctx, _ := browse(t, fmt.Sprintf("/t/%d/crosstable", fix.virus.t.ID))
	wait(t, ctx, p, `document.querySelectorAll('table.cross tbody tr').length === 30`)
	noScroll(t, ctx, p, "crosstable of 30 bots")
	order := eval[[]string](t, ctx, p, `[...document.querySelectorAll('table.cross tbody .nm a')].map(a => a.textContent)`)
	for i, s := range st {
		if order[i] != s.Bot.Name {
			t.Fatalf("crosstable row %d is %s, standings say %s", i+1, order[i], s.Bot.Name)
		}
	}
	cell := fmt.Sprintf(`document.querySelector('td.cell[data-row="%d"][data-col="%d"] a')`, a.ID, b.ID)
	if got := eval[string](t, ctx, p, cell+`.textContent`); got != points(score) {
		t.Errorf("cell %s–%s shows %q, the games give %s", a.Name, b.Name, got, points(score))
	}
	screenshot(t, ctx, p, "crosstable")

	if err := p.Eval(ctx, cell+`.click()`, nil); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, `document.querySelector('.pair-view .game-row')`)
	listed := eval[[]string](t, ctx, p, `[...document.querySelectorAll('.pair-view .game-row')].map(r => r.dataset.game)`)
	if !slices.Equal(listed, ids) {
		t.Errorf("the cell lists games %v, the database has %v", listed, ids)
	}
	screenshot(t, ctx, p, "pairing")
	if err := p.Eval(ctx, `document.querySelector('.pair-view .game-row').click()`, nil); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, `location.pathname === '/game/`+ids[0]+`' && document.querySelector('.replay')`)
}

// The replays of the games without a board of their own before (marks in
// a row, botsArena battleship) open from the crosstable, through a pairing's
// list, and end on the stored result; their seats wear the seat marks.
func TestCrosstableOpensEveryBoard(t *testing.T) {
	for _, sd := range []seeded{fix.ttt, fix.c4, fix.boats} {
		t.Run(sd.t.Game, func(t *testing.T) {
			p, ctx, _ := browse(t, fmt.Sprintf("/t/%d/crosstable", sd.t.ID))
			wait(t, ctx, p, `document.querySelector('td.cell a')`)
			if err := p.Eval(ctx, `document.querySelector('td.cell a').click()`, nil); err != nil {
				t.Fatal(err)
			}
			wait(t, ctx, p, `document.querySelector('.pair-view .game-row')`)
			id := eval[string](t, ctx, p, `document.querySelector('.pair-view .game-row').dataset.game`)
			if err := p.Eval(ctx, `document.querySelector('.pair-view .game-row').click()`, nil); err != nil {
				t.Fatal(err)
			}
			wait(t, ctx, p, `location.pathname === '/game/`+id+`' && document.querySelector('.replay')?.dataset.frame === '0'`)
			press(t, ctx, p, "End")
			wait(t, ctx, p, `document.querySelector('.result')`)
			g := gameWhere(t, sd, func(g results.Game) bool { return strconv.FormatInt(g.ID, 10) == id })
			rank, score := ranksAndScores(g)
			res := eval[[2]string](t, ctx, p, `(r => [r.dataset.rank, r.dataset.score])(document.querySelector('.result'))`)
			if res[0] != rank || res[1] != score {
				t.Errorf("game %s ends on rank %s score %s, stored %s and %s", id, res[0], res[1], rank, score)
			}
			marks := eval[[]string](t, ctx, p, `[...document.querySelectorAll('.stage .mark-1, .stage .mark-2')].map(e => e.className.match(/mark-\d+/)[0]).filter((m, i, a) => a.indexOf(m) === i).sort()`)
			if !slices.Equal(marks, []string{"mark-1", "mark-2"}) {
				t.Errorf("the board wears marks %v, not the two seats' mark-1 and mark-2", marks)
			}
		})
	}
}

// Each line of a replay's move list shows the frame's thinking time: its
// slowest answer, as the records time it: what it was charged, CPU, with
// the wall time beside it in the title.
func TestMoveListShowsThinkingTime(t *testing.T) {
	g := gameWhere(t, fix.tron, func(g results.Game) bool { return len(g.Players) > 2 })
	p, ctx, srv := browse(t, fmt.Sprintf("/game/%d", g.ID))
	rp := replayOf(t, srv, g.ID)
	wait(t, ctx, p, `document.querySelector('.replay')?.dataset.frame === '0'`)
	var want, wantWall []float64
	for _, f := range rp.Frames[1:] {
		slowest := screen.FrameMove{}
		for _, m := range f.Moves {
			if m.ChargedMS > slowest.ChargedMS {
				slowest = m
			}
		}
		want, wantWall = append(want, slowest.ChargedMS), append(wantWall, slowest.ElapsedMS)
	}
	got := eval[[]float64](t, ctx, p, `[...document.querySelectorAll('.movelist li .ms')].map(s => +s.dataset.ms)`)
	if !slices.Equal(got, want) {
		t.Errorf("the move list's times are %v, the records charged %v", got, want)
	}
	gotWall := eval[[]float64](t, ctx, p, `[...document.querySelectorAll('.movelist li .ms')].map(s => +s.dataset.wall)`)
	if !slices.Equal(gotWall, wantWall) {
		t.Errorf("the move list's wall times are %v, the records say %v", gotWall, wantWall)
	}
	if title := eval[string](t, ctx, p, `document.querySelector('.movelist li .ms').title`); !strings.Contains(title, "of CPU") || !strings.Contains(title, "of wall time") {
		t.Errorf("a move's time is titled %q: it must say its CPU and its wall time", title)
	}
	if s := slices.Max(want); s == 0 {
		t.Errorf("game %d has no timed answer: the test shows nothing", g.ID)
	}
}

// A replay's URL options: it plays by itself at the speed asked, starts
// over at the end, wears the theme asked and hides its controls; a deep
// link to a move of a long game (?move=k: step k, the move list's row k,
// a turn of the seats' simultaneous moves) opens "Step k" and scrolls the
// move list to it.
func TestReplayURLOptions(t *testing.T) {
	g := gameWhere(t, fix.ttt, func(results.Game) bool { return true })
	p, ctx, srv := browse(t, fmt.Sprintf("/game/%d?autoplay&speed=16&loop&theme=light&controls=0", g.ID))
	last := len(replayOf(t, srv, g.ID).Frames) - 1
	wait(t, ctx, p, `document.querySelector('.replay')`)
	if got := eval[string](t, ctx, p, `document.documentElement.dataset.theme + ' ' + !!document.querySelector('.replay .controls')`); got != "light false" {
		t.Errorf("theme and controls are %q, want light and none", got)
	}
	wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.replay').dataset.frame === '%d'`, last))
	wait(t, ctx, p, fmt.Sprintf(`+document.querySelector('.replay').dataset.frame < %d && document.querySelector('.replay.playing')`, last))

	long := gameWhere(t, fix.long, func(results.Game) bool { return true })
	rp := replayOf(t, srv, long.ID)
	f := len(rp.Frames) * 2 / 3
	if err := p.Navigate(ctx, fmt.Sprintf("%s/game/%d?move=%d", srv.URL, long.ID, f)); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, `document.querySelector('.replay .stepno')`)
	got := eval[[3]string](t, ctx, p, `[document.querySelector('.replay').dataset.frame, document.querySelector('.replay .stepno').textContent, document.querySelector('.movelist li.current .no').textContent]`)
	if want := [3]string{strconv.Itoa(f), fmt.Sprintf("Step %d / %d", f, len(rp.Frames)-1), strconv.Itoa(f)}; got != want {
		t.Errorf("?move=%d opens frame, step and row %q, want %q", f, got, want)
	}
	wait(t, ctx, p, `(l => { const li = l.querySelector('li.current'), a = li.getBoundingClientRect(), b = l.getBoundingClientRect(); return a.top >= b.top && a.bottom <= b.bottom; })(document.querySelector('.movelist'))`)
}

// A link to a move past a replay's last opens it at its end, and one before
// its first at its start, where a turn-based game shows its first player
// alone to move: botsArena's init, which every bot answers at once, moves
// nobody. A game of simultaneous moves shows every seat to move.
func TestReplayFirstAndLastStep(t *testing.T) {
	g := gameWhere(t, fix.c4, func(results.Game) bool { return true })
	p, ctx, srv := browse(t, "")
	last := len(replayOf(t, srv, g.ID).Frames) - 1
	frame := func(query string, want int) {
		t.Helper()
		if err := p.Navigate(ctx, fmt.Sprintf("%s/game/%d%s", srv.URL, g.ID, query)); err != nil {
			t.Fatal(err)
		}
		wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.replay')?.dataset.frame === '%d'`, want))
	}
	frame(fmt.Sprintf("?move=%d", len(g.Moves)+12), last)
	frame("?move=-3", 0)
	toMove := func() []string {
		return eval[[]string](t, ctx, p, `[...document.querySelectorAll('.card.tomove')].map(c => c.dataset.seat)`)
	}
	if got := toMove(); !slices.Equal(got, []string{"0"}) {
		t.Errorf("at the start of connect four, the seats to move are %q, want the first alone", got)
	}
	ffa := gameWhere(t, fix.ffa, func(results.Game) bool { return true })
	if err := p.Navigate(ctx, fmt.Sprintf("%s/game/%d", srv.URL, ffa.ID)); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, `document.querySelector('.replay')?.dataset.frame === '0'`)
	if got := toMove(); len(got) != len(ffa.Players) {
		t.Errorf("at the start of a free-for-all, the seats to move are %q, want all %d", got, len(ffa.Players))
	}
}

// A crosstable cell shows one mark a game, 1, ½ or 0 for the row bot, each
// opening that game's replay.
func TestCrosstableCellMarksGames(t *testing.T) {
	ctx0 := context.Background()
	st := must(fix.db.Standings(ctx0, fix.ttt.t.ID, results.SchemeDefault))
	a, b := st[0].Bot, st[1].Bot
	var ids, marks []string
	for _, g := range must(fix.db.Games(ctx0, fix.ttt.t.ID, results.GameFilter{BotID: a.ID, Opponent: b.ID})) {
		ids = append(ids, strconv.FormatInt(g.ID, 10))
		marks = append(marks, points(duelPoints(g, a.ID)))
	}
	p, ctx, _ := browse(t, fmt.Sprintf("/t/%d/crosstable", fix.ttt.t.ID))
	cell := fmt.Sprintf(`[...document.querySelectorAll('td.cell[data-row="%d"][data-col="%d"] .gm a')]`, a.ID, b.ID)
	wait(t, ctx, p, cell+`.length > 0`)
	got := eval[[2][]string](t, ctx, p, cell+`.reduce((r, a) => [[...r[0], a.dataset.game], [...r[1], a.textContent]], [[], []])`)
	if !slices.Equal(got[0], ids) || !slices.Equal(got[1], marks) {
		t.Errorf("cell %s–%s marks games %v as %v; the database has %v, %v", a.Name, b.Name, got[0], got[1], ids, marks)
	}
	if err := p.Eval(ctx, cell+`[0].click()`, nil); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, `location.pathname === '/game/`+ids[0]+`' && document.querySelector('.replay')`)
}

// A replay's score chart has a line a seat through every frame, whose last
// points rank the seats as their final scores do, and a cursor that follows
// the frame shown.
func TestReplayScoreChart(t *testing.T) {
	g := gameWhere(t, fix.tron, func(g results.Game) bool { return len(g.Players) == 5 })
	p, ctx, srv := browse(t, fmt.Sprintf("/game/%d", g.ID))
	rp := replayOf(t, srv, g.ID)
	wait(t, ctx, p, `document.querySelector('.replay')?.dataset.frame === '0'`)
	lines := eval[[][]float64](t, ctx, p, `[...document.querySelectorAll('.scorechart polyline')].map(l => { const p = l.getAttribute('points').split(' '); return [p.length, +p[p.length - 1].split(',')[1]]; })`)
	if len(lines) != len(g.Players) {
		t.Fatalf("the chart has %d lines for %d seats", len(lines), len(g.Players))
	}
	final := rp.Frames[len(rp.Frames)-1].Scores
	for a := range lines {
		if int(lines[a][0]) != len(rp.Frames) {
			t.Errorf("seat %d's line has %d points for %d frames", a, int(lines[a][0]), len(rp.Frames))
		}
		for b := range lines {
			if final[a] > final[b] && !(lines[a][1] < lines[b][1]) {
				t.Errorf("seat %d scored %d > seat %d's %d, but its line ends at y %v, not above %v", a, final[a], b, final[b], lines[a][1], lines[b][1])
			}
		}
	}
	press(t, ctx, p, "End")
	wait(t, ctx, p, `document.querySelector('.scorechart .cursor').style.transform === 'translateX(100%)'`)
}

// virusBoard applies the stored events to the opening position: the board a
// replay must show, computed without the rules.
func virusBoard(moves []results.Move) []int {
	var g [virus.Size][virus.Size]int
	g[0][0], g[virus.Size-1][virus.Size-1] = 1, 1
	g[0][virus.Size-1], g[virus.Size-1][0] = 2, 2
	for _, m := range moves {
		var ev struct {
			Side    string   `json:"side"`
			Cell    *[2]int  `json:"cell"`
			Flipped [][2]int `json:"flipped"`
		}
		if err := json.Unmarshal(m.Event, &ev); err != nil {
			panic(err)
		}
		if ev.Cell == nil {
			continue
		}
		v := 1
		if ev.Side == "player_2" {
			v = 2
		}
		g[ev.Cell[0]][ev.Cell[1]] = v
		for _, f := range ev.Flipped {
			g[f[0]][f[1]] = v
		}
	}
	var flat []int
	for _, row := range g {
		flat = append(flat, row[:]...)
	}
	return flat
}

// gameWhere finds a stored game of the tournament that ok accepts.
func gameWhere(t *testing.T, sd seeded, ok func(results.Game) bool) results.Game {
	t.Helper()
	ctx := context.Background()
	list, err := fix.db.Games(ctx, sd.t.ID, results.GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, item := range list {
		g, err := fix.db.Game(ctx, item.ID)
		if err != nil {
			t.Fatal(err)
		}
		if ok(g) {
			return g
		}
	}
	t.Fatal("no such game in the seed database")
	return results.Game{}
}

func ranksAndScores(g results.Game) (string, string) {
	var r, s []string
	for _, p := range g.Players {
		r = append(r, strconv.Itoa(p.Rank))
		s = append(s, strconv.Itoa(p.Score))
	}
	return strings.Join(r, ","), strings.Join(s, ",")
}

func TestVirusReplay(t *testing.T) {
	// A game with an illegal move and a timeout, whose passes must show.
	g := gameWhere(t, fix.virus, func(g results.Game) bool {
		kinds := map[fault.Kind]bool{}
		for _, m := range g.Moves {
			kinds[m.Verdict] = true
		}
		return kinds["illegal"] && kinds["timeout"]
	})
	p, ctx, _ := browse(t, fmt.Sprintf("/game/%d", g.ID))
	wait(t, ctx, p, `document.querySelector('.replay')?.dataset.frame === '0'`)
	board := `[...document.querySelectorAll('.replay .vboard .cell')].map(c => +c.dataset.v)`
	if got := eval[[]int](t, ctx, p, board); !slices.Equal(got, virusBoard(nil)) {
		t.Errorf("opening board %v", got)
	}
	press(t, ctx, p, "ArrowRight", "ArrowRight", "ArrowRight")
	wait(t, ctx, p, `document.querySelector('.replay').dataset.frame === '3'`)
	if got := eval[[]int](t, ctx, p, board); !slices.Equal(got, virusBoard(g.Moves[:3])) {
		t.Errorf("board after 3 moves differs from the stored events")
	}
	press(t, ctx, p, "ArrowLeft")
	wait(t, ctx, p, `document.querySelector('.replay').dataset.frame === '2'`)
	if got := eval[[]int](t, ctx, p, board); !slices.Equal(got, virusBoard(g.Moves[:2])) {
		t.Errorf("board after stepping back to move 2 differs from the stored events")
	}

	// A pass: the slider goes to it and the page says why.
	for n, m := range g.Moves {
		if m.Verdict == "" {
			continue
		}
		if err := p.Eval(ctx, fmt.Sprintf(`(() => { const s = document.querySelector('.slider'); s.value = %d; s.dispatchEvent(new Event('input')); })()`, n+1), nil); err != nil {
			t.Fatal(err)
		}
		wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.replay').dataset.frame === '%d'`, n+1))
		said := eval[string](t, ctx, p, `document.querySelector('.said').textContent + ' | ' + document.querySelector('.why').textContent`)
		if !strings.Contains(said, m.Reason) || !strings.Contains(said, g.Players[m.Seat].Name) {
			t.Errorf("move %d (%s: %s): the page says %q", n, m.Verdict, m.Reason, said)
		}
		if m.Verdict == "illegal" {
			screenshot(t, ctx, p, "replay-virus-illegal")
			break
		}
	}

	press(t, ctx, p, "End")
	last := len(g.Moves)
	wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.replay').dataset.frame === '%d'`, last))
	if got := eval[[]int](t, ctx, p, board); !slices.Equal(got, virusBoard(g.Moves)) {
		t.Errorf("final board differs from the stored events")
	}
	rank, score := ranksAndScores(g)
	res := eval[[3]string](t, ctx, p, `(r => [r.dataset.rank, r.dataset.score, r.textContent])(document.querySelector('.result'))`)
	if res[0] != rank || res[1] != score || !strings.Contains(res[2], g.Reason) {
		t.Errorf("final result shows %q, stored rank %s score %s reason %q", res, rank, score, g.Reason)
	}
	scores := eval[[]string](t, ctx, p, `[...document.querySelectorAll('.card .score')].map(s => s.textContent)`)
	if strings.Join(scores, ",") != score {
		t.Errorf("cards show scores %v, stored %s", scores, score)
	}
	screenshot(t, ctx, p, "replay-virus-end")

	// Space plays from the start to the end, at the highest speed.
	press(t, ctx, p, "Home", "+", "+", "+", "+", " ")
	wait(t, ctx, p, `document.querySelector('.replay').classList.contains('playing')`)
	wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.replay').dataset.frame === '%d' && !document.querySelector('.replay').classList.contains('playing')`, last))
	press(t, ctx, p, "Home", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight")
	wait(t, ctx, p, `document.querySelector('.replay').dataset.frame === '12'`)
	screenshot(t, ctx, p, "replay-virus-move12")
}

// shipsGrids computes both grids of a battleships game from its stored
// events: for each seat, cell "CR" → sea, ship, miss, hit or sunk.
func shipsGrids(t *testing.T, moves []results.Move) [2]map[string]string {
	var ships [2][][]string
	var shots [2]map[string]bool
	for seat := range shots {
		shots[seat] = map[string]bool{}
	}
	for _, m := range moves {
		var ev struct {
			Fleet [][4]any `json:"fleet"`
			Shot  string   `json:"shot"`
		}
		if err := json.Unmarshal(m.Event, &ev); err != nil {
			t.Fatal(err)
		}
		for _, s := range ev.Fleet {
			c, r, size, o := int(s[0].(float64)), int(s[1].(float64)), int(s[2].(float64)), s[3].(string)
			var cells []string
			for i := range size {
				if o == "v" {
					cells = append(cells, fmt.Sprintf("%d%d", c, r+i))
				} else {
					cells = append(cells, fmt.Sprintf("%d%d", c+i, r))
				}
			}
			ships[m.Seat] = append(ships[m.Seat], cells)
		}
		if ev.Shot != "" {
			shots[1-m.Seat][ev.Shot] = true
		}
	}
	var grids [2]map[string]string
	for seat := range grids {
		grids[seat] = map[string]string{}
		for c := range 8 {
			for r := range 8 {
				grids[seat][fmt.Sprintf("%d%d", c, r)] = "sea"
			}
		}
		for k := range shots[seat] {
			grids[seat][k] = "miss"
		}
		for _, cells := range ships[seat] {
			sunk := true
			for _, k := range cells {
				sunk = sunk && shots[seat][k]
			}
			for _, k := range cells {
				switch {
				case sunk:
					grids[seat][k] = "sunk"
				case shots[seat][k]:
					grids[seat][k] = "hit"
				default:
					grids[seat][k] = "ship"
				}
			}
		}
	}
	return grids
}

func TestBattleshipsReplay(t *testing.T) {
	again := -1
	g := gameWhere(t, fix.ships, func(g results.Game) bool {
		if g.Players[0].Name != "amiral" || g.Players[1].Name != "hasard" {
			return false
		}
		for n, m := range g.Moves {
			if strings.Contains(string(m.Event), `"again":true`) && again < 0 {
				again = n
			}
		}
		return again >= 0
	})
	p, ctx, _ := browse(t, fmt.Sprintf("/game/%d", g.ID))
	wait(t, ctx, p, `document.querySelector('.replay .sboards')`)
	// Frame 1 is both fleets; every later frame is one shot.
	frame := again
	if err := p.Eval(ctx, fmt.Sprintf(`(() => { const s = document.querySelector('.slider'); s.value = %d; s.dispatchEvent(new Event('input')); })()`, frame), nil); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.replay').dataset.frame === '%d'`, frame))
	if said := eval[string](t, ctx, p, `document.querySelector('.said').textContent`); !strings.Contains(said, "shoots again") {
		t.Errorf("a hit's frame says %q, not that the shooter shoots again", said)
	}
	press(t, ctx, p, "End")
	wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.replay').dataset.frame === '%d'`, len(g.Moves)-1))
	grids := eval[[2]map[string]string](t, ctx, p, `[...document.querySelectorAll('.replay .sgrid')].map(g =>
		Object.fromEntries([...g.querySelectorAll('.cell')].map(c => [c.dataset.c + c.dataset.r, c.dataset.state])))`)
	want := shipsGrids(t, g.Moves)
	for seat := range grids {
		for k, v := range want[seat] {
			if grids[seat][k] != v {
				t.Errorf("grid of seat %d, cell %s: page %q, stored events %q", seat, k, grids[seat][k], v)
			}
		}
	}
	rank, score := ranksAndScores(g)
	res := eval[[3]string](t, ctx, p, `(r => [r.dataset.rank, r.dataset.score, r.textContent])(document.querySelector('.result'))`)
	if res[0] != rank || res[1] != score || !strings.Contains(res[2], g.Reason) {
		t.Errorf("final result shows %q, stored rank %s score %s reason %q", res, rank, score, g.Reason)
	}
	screenshot(t, ctx, p, "replay-battleships-end")
	if err := p.Eval(ctx, fmt.Sprintf(`(() => { const s = document.querySelector('.slider'); s.value = %d; s.dispatchEvent(new Event('input')); })()`, len(g.Moves)/2), nil); err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, p, "replay-battleships-middle")

	// A fleet that breaks the rules loses at once, and the page says why.
	bad := gameWhere(t, fix.ships, func(g results.Game) bool { return g.Players[0].Name == "cassé" && g.Players[1].Name == "amiral" })
	if err := p.Navigate(ctx, fmt.Sprintf("%s/game/%d", strings.TrimSuffix(eval[string](t, ctx, p, `location.origin`), "/"), bad.ID)); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, `document.querySelector('.replay .sboards')`)
	press(t, ctx, p, "End")
	wait(t, ctx, p, `document.querySelector('.replay').dataset.frame === '1'`)
	said := eval[string](t, ctx, p, `document.querySelector('.said').textContent + ' | ' + document.querySelector('.why').textContent`)
	if !strings.Contains(said, "overlap") || !strings.Contains(said, "cassé") {
		t.Errorf("an invalid fleet's frame says %q", said)
	}
}

// answersOf are the answers the judge fed the rules for these moves.
func answersOf(moves []results.Move) []games.Answer {
	answers := make([]games.Answer, len(moves))
	for i, m := range moves {
		answers[i] = games.Answer{Data: m.Answer}
		if len(m.Answer) == 0 {
			answers[i] = games.Answer{Fault: m.Verdict, Detail: m.Detail}
		}
	}
	return answers
}

func TestLiveGameAdvances(t *testing.T) {
	if len(fix.live.pending) < 2 {
		t.Fatal("the live tournament has no game left to play")
	}
	sd := fix.live
	var full []results.Game
	for _, pg := range sd.pending[:2] {
		bots, ids := sd.seated(pg.seats)
		full = append(full, play(virus.Rules{}, sd.t.ID, pg.key, 1, pg.seed, bots, ids, time.Now()))
	}
	sd.pending = sd.pending[2:]
	fix.live = sd
	ctx0 := context.Background()
	done := len(must(fix.db.Games(ctx0, sd.t.ID, results.GameFilter{})))

	p, ctx, _ := browse(t, fmt.Sprintf("/t/%d/live", sd.t.ID))
	wait(t, ctx, p, `document.querySelector('.live-view') && document.getElementById('progress-text')?.dataset.done === '`+strconv.Itoa(done)+`'`)
	card := func(g results.Game) string {
		return fmt.Sprintf(`document.querySelector('.livecard[data-key="%s"]')`, g.Key)
	}
	pieces := func(g results.Game) int {
		return eval[int](t, ctx, p, card(g)+`.querySelectorAll('.cell:not([data-v="0"])').length`)
	}
	for _, n := range []int{10, 30} {
		for _, g := range full {
			l := liveAt(virus.Rules{}, g, n)
			if err := fix.db.PutLive(ctx0, l); err != nil {
				t.Fatal(err)
			}
			wait(t, ctx, p, card(g)+`?.dataset.moves === '`+strconv.Itoa(n)+`'`)
			want := 0
			for _, v := range virusBoard(g.Moves[:n]) {
				if v != 0 {
					want++
				}
			}
			if got := pieces(g); got != want {
				t.Errorf("after %d moves the live board has %d pieces, the game %d", n, got, want)
			}
		}
	}
	screenshot(t, ctx, p, "live")
	if _, err := fix.db.SaveGame(ctx0, full[0]); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, `!`+card(full[0])+` && document.getElementById('progress-text').dataset.done === '`+strconv.Itoa(done+1)+`'`)
	// A game stored by the run gives the pace, hence the time left.
	wait(t, ctx, p, `document.querySelector('.bigprogress').textContent.includes('left')`)
	id := must(fix.db.Games(ctx0, sd.t.ID, results.GameFilter{}))[done].ID
	wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.recent .game-row[data-game="%d"]')`, id))
	if _, err := fix.db.SaveGame(ctx0, full[1]); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, `!document.querySelector('.livecard') && !document.querySelector('.live-view > .message').hidden`)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestPresentationCycles(t *testing.T) {
	ctx0 := context.Background()
	st := must(fix.db.Standings(ctx0, fix.virus.t.ID, results.SchemeDefault))
	p, ctx, _ := browse(t, fmt.Sprintf("/t/%d/show?dwell=2&replay=3", fix.virus.t.ID))
	stage := func(name string) string {
		return `document.querySelector('.show-view')?.dataset.stage === '` + name + `'`
	}
	wait(t, ctx, p, stage("podium"))
	names := eval[[]string](t, ctx, p, `[...document.querySelectorAll('.podium .place')].map(p => p.querySelector('.pname').textContent)`)
	if want := []string{st[1].Bot.Name, st[0].Bot.Name, st[2].Bot.Name}; !slices.Equal(names, want) {
		t.Errorf("podium shows %v, want %v (second, first, third)", names, want)
	}
	if eval[bool](t, ctx, p, `getComputedStyle(document.getElementById('top')).display !== 'none'`) {
		t.Error("the presentation shows the header")
	}
	screenshot(t, ctx, p, "show-podium")
	wait(t, ctx, p, stage("standings"))
	noScroll(t, ctx, p, "presentation standings")
	screenshot(t, ctx, p, "show-standings")
	wait(t, ctx, p, stage("crosstable"))
	noScroll(t, ctx, p, "presentation crosstable")
	// The colours and the games' marks are explained, as on the page.
	if got := eval[string](t, ctx, p, `document.querySelector('.show-view .stage-box .clegend')?.textContent ?? ''`); got != "wondrawnlost1 ½ 0 under a score: each game's points, to click for its replay" {
		t.Errorf("the presentation's crosstable has the legend %q", got)
	}
	screenshot(t, ctx, p, "show-crosstable")
	wait(t, ctx, p, stage("decisive")+` && document.querySelector('.show-view .replay')`)
	id := eval[string](t, ctx, p, `document.querySelector('.show-view').dataset.game`)
	gid, _ := strconv.ParseInt(id, 10, 64)
	g := must(fix.db.Game(ctx0, gid))
	pair := []int64{g.Players[0].BotID, g.Players[1].BotID}
	if !slices.Contains(pair, st[0].Bot.ID) || !slices.Contains(pair, st[1].Bot.ID) {
		t.Errorf("the decisive game %d is not between the first two bots", gid)
	}
	wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.show-view .replay')?.dataset.frame === '%d'`, len(g.Moves)))
	noScroll(t, ctx, p, "presentation replay")
	screenshot(t, ctx, p, "show-replay")
	// Then it starts again, by itself.
	wait(t, ctx, p, stage("podium"))
}

func TestBotPage(t *testing.T) {
	ctx0 := context.Background()
	// crashy bots raise at their seventh answer.
	i := 0
	for virusStyles[i].kind != "crashy" {
		i++
	}
	id := fix.virus.ids[i]
	list := must(fix.db.Games(ctx0, fix.virus.t.ID, results.GameFilter{BotID: id}))
	g := must(fix.db.Game(ctx0, list[0].ID))
	var seat int
	for _, pl := range g.Players {
		if pl.BotID == id {
			seat = pl.Seat
		}
	}
	n := slices.IndexFunc(g.Moves, func(m results.Move) bool { return m.Seat == seat && m.Verdict == "error" })
	if n < 0 {
		t.Fatal("the crashy bot did not crash")
	}

	p, ctx, _ := browse(t, fmt.Sprintf("/t/%d/bot/%d", fix.virus.t.ID, id))
	wait(t, ctx, p, fmt.Sprintf(`document.querySelectorAll('.botgame').length === %d`, len(list)))
	game := fmt.Sprintf(`document.querySelector('.botgame[data-game="%d"]')`, g.ID)
	fault := eval[[2]string](t, ctx, p, game+`.querySelector('.faults li') && (li => [li.dataset.n, li.textContent])(`+game+`.querySelector('.faults li'))`)
	if fault[0] != strconv.Itoa(n) || !strings.Contains(fault[1], "IndexError") || !strings.Contains(fault[1], "error") {
		t.Errorf("the fault shows %q, the game has an error at move %d", fault, n)
	}
	if got := eval[string](t, ctx, p, game+`.querySelector('.log').textContent`); got != g.Players[seat].Log {
		t.Errorf("the log shows %q, stored %q", got, g.Players[seat].Log)
	}
	// The bot's thinking time in the game, charged (CPU) beside wall.
	var charged, wall, slowest time.Duration
	for _, m := range g.Moves {
		if m.Seat == seat {
			charged, wall = charged+m.Charged(), wall+m.Elapsed
			slowest = max(slowest, m.Charged())
		}
	}
	ms := func(d time.Duration) string {
		if d < time.Second {
			return fmt.Sprintf("%d ms", d.Round(time.Millisecond).Milliseconds())
		}
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	want := fmt.Sprintf("thinking time %s of CPU (%s wall), slowest move %s of CPU", ms(charged), ms(wall), ms(slowest))
	if got := eval[string](t, ctx, p, game+`.querySelector('.thinking').textContent`); !strings.HasPrefix(got, want) {
		t.Errorf("the game's thinking time shows %q, want %q...", got, want)
	}
	screenshot(t, ctx, p, "bot")
	if err := p.Eval(ctx, game+`.querySelector('.faults li a').click()`, nil); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.replay')?.dataset.frame === '%d'`, n+1))
	if said := eval[string](t, ctx, p, `document.querySelector('.why').textContent`); !strings.Contains(said, "IndexError") {
		t.Errorf("the replay at the crash says %q", said)
	}
	screenshot(t, ctx, p, "replay-virus-crash")

	// A botsArena game records the fault's name in its reason ("timeout:
	// no answer within 1s"): its line names it once, beside the verdict.
	slow := fix.tron.ids[2]
	if err := p.Navigate(ctx, fmt.Sprintf("%s/t/%d/bot/%d", eval[string](t, ctx, p, `location.origin`), fix.tron.t.ID, slow)); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, `document.querySelector('.botgame .faults li')`)
	for _, line := range eval[[]string](t, ctx, p, `[...document.querySelectorAll('.botgame .faults li')].map((li) => li.textContent)`) {
		if strings.Count(line, "timeout") != 1 || !strings.Contains(line, "no answer within 1s") {
			t.Errorf("the slow bot's fault reads %q: want its name once, then why", line)
		}
	}
}

func TestFrenchWhenAsked(t *testing.T) {
	p, ctx, srv := browse(t, "")
	if err := p.SetHeaders(ctx, map[string]string{"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.8"}); err != nil {
		t.Fatal(err)
	}
	if err := p.Navigate(ctx, fmt.Sprintf("%s/t/%d/standings", srv.URL, fix.virus.t.ID)); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, `document.querySelector('table.standings')`)
	got := eval[[2]string](t, ctx, p, `[document.documentElement.lang, document.querySelector('#top nav a.active').textContent]`)
	if got != [2]string{"fr", "Classement"} {
		t.Errorf("a French browser gets %q", got)
	}
	screenshot(t, ctx, p, "standings-fr")
	if err := p.Eval(ctx, `document.querySelector('button.lang').click()`, nil); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, `document.documentElement.lang === 'en' && document.querySelector('#top nav a.active')?.textContent === 'Standings'`)
}

// The time left in the header says a range only when its ends differ once
// rounded: "55 min to 55 min left" is "about 55 min left"; and an unbounded
// "at least 0s" is unknown.
func TestProgressRange(t *testing.T) {
	p, ctx, _ := browse(t, fmt.Sprintf("/t/%d/standings", fix.virus.t.ID))
	wait(t, ctx, p, `document.querySelector('table.standings')`)
	got := eval[[3]string](t, ctx, p, `import('/assets/header.js').then((m) => {
		const p = { done: 60, planned: 280, running: true, left_kind: 'least' };
		return [m.progressText({ ...p, left_s: 3300, left_most_s: 3310 }), m.progressText({ ...p, left_s: 3300, left_most_s: 4800 }),
			m.progressText({ ...p, left_s: 0 })];
	})`)
	if want := [3]string{"60 / 280 games · about 55 min left", "60 / 280 games · 55 min to 80 min left", "60 / 280 games · time left unknown"}; got != want {
		t.Errorf("the header says %q, want %q", got, want)
	}
}

// Every game's board module gives the shared pages what they draw with,
// and has every string it asks for in both languages.
func TestBoardModules(t *testing.T) {
	p, ctx, _ := browse(t, fmt.Sprintf("/t/%d/standings", fix.virus.t.ID))
	wait(t, ctx, p, `document.querySelector('table.standings')`)
	// Each game's name, and whether its Views fold from events.
	boards := map[string]bool{}
	for _, name := range games.Names() {
		boards[name] = games.IncrementalView(must(lookup(name)))
	}
	names, _ := json.Marshal(boards)
	problems := eval[map[string][]string](t, ctx, p, `(async (names) => {
		const out = {};
		for (const [name, folds] of Object.entries(names)) {
			const url = '/assets/boards/' + name + '.js';
			const m = await import(url);
			const src = await (await fetch(url)).text();
			const bad = out[name] = [];
			for (const f of ['board', 'describe', 'short', 'legend', 'unit']) if (typeof m[f] !== 'function') bad.push('no function ' + f);
			for (const f of ['seatMark', 'seatLabel', 'fold']) if (f in m && typeof m[f] !== 'function') bad.push(f + ' is not a function');
			if (folds && !m.fold) bad.push('no fold, and the rules send a View on the first and last frames only');
			const keys = (l) => Object.keys(m.strings?.[l] || {}).sort().join();
			if (!keys('en') || keys('en') !== keys('fr')) bad.push('strings: en has ' + keys('en') + ', fr ' + keys('fr'));
			for (const [, k] of src.matchAll(/\bt\('([\w.]+)'/g)) if (!(k in (m.strings?.en || {}))) bad.push('no string ' + k);
		}
		return out;
	})(`+string(names)+`)`)
	if len(problems) != len(boards) {
		t.Errorf("checked the boards of %v, the games are %v", problems, boards)
	}
	for name, bad := range problems {
		for _, b := range bad {
			t.Errorf("board of %s: %s", name, b)
		}
	}
}

// replayOf is the replay the server computes for a game.
func replayOf(t *testing.T, srv *httptest.Server, id int64) screen.Replay {
	t.Helper()
	_, body := get(t, fmt.Sprintf("%s/api/game/%d/replay.json", srv.URL, id))
	var rp screen.Replay
	if err := json.Unmarshal(body, &rp); err != nil {
		t.Fatal(err)
	}
	return rp
}

// foldsToViews is a script that folds a replay's frames with its board
// module's fold, from the first View, and says where the View folded
// differs from the rules' own, "" when it never does; a replay without a
// View in every frame needs a fold.
const foldsToViews = `(async (id) => {
	const rp = await (await fetch('/api/game/' + id + '/replay.json')).json();
	const m = await import('/assets/boards/' + rp.kind + '.js');
	if (!m.fold) return rp.frames.every((f) => f.view) ? '' : 'frames without a View and no fold';
	const canon = (v) => JSON.stringify(v, (k, x) => x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x);
	let v = structuredClone(rp.frames[0].view);
	for (const [i, f] of rp.frames.entries()) {
		if (i > 0) v = m.fold(v, f);
		if (f.view && canon(v) !== canon(f.view)) return 'frame ' + i + ' folds to ' + canon(v).slice(0, 400) + ', the rules say ' + canon(f.view).slice(0, 400);
	}
	return '';
})`

// A replay of every game, drawn by its board module, ends on the stored
// result, with one card per seat showing the stored scores; a board that
// folds events into Views gets the rules' last View.
func TestReplayOfEveryGame(t *testing.T) {
	for _, sd := range []seeded{fix.virus, fix.ships, fix.tron, fix.ffa, fix.long, fix.ttt, fix.c4, fix.boats} {
		t.Run(sd.t.Game, func(t *testing.T) {
			// The game with the most seats, the first of them.
			most := 0
			for _, g := range must(fix.db.Games(context.Background(), sd.t.ID, results.GameFilter{})) {
				most = max(most, len(g.Players))
			}
			g := gameWhere(t, sd, func(g results.Game) bool { return len(g.Players) == most })
			p, ctx, srv := browse(t, fmt.Sprintf("/game/%d", g.ID))
			rp := replayOf(t, srv, g.ID)
			wait(t, ctx, p, `document.querySelector('.replay')?.dataset.frame === '0'`)
			if got, want := eval[[]int](t, ctx, p, `[...document.querySelectorAll('.card.tomove')].map(c => +c.dataset.seat)`), rp.Frames[0].ToMove; !slices.Equal(got, want) {
				t.Errorf("at the start the cards say %v are to move, the rules %v", got, want)
			}
			press(t, ctx, p, "End")
			last := len(rp.Frames) - 1
			wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.replay').dataset.frame === '%d'`, last))
			var names, scores []string
			for _, pl := range g.Players {
				names = append(names, pl.Name)
				scores = append(scores, strconv.Itoa(pl.Score))
			}
			cards := eval[[2][]string](t, ctx, p, `(cs => [cs.map(c => c.querySelector('.name').textContent), cs.map(c => c.querySelector('.score').textContent)])([...document.querySelectorAll('.card')])`)
			if !slices.Equal(cards[0], names) || !slices.Equal(cards[1], scores) {
				t.Errorf("the cards show %q with scores %q, the game has %q with %q", cards[0], cards[1], names, scores)
			}
			rank, score := ranksAndScores(g)
			res := eval[[3]string](t, ctx, p, `(r => [r.dataset.rank, r.dataset.score, r.textContent])(document.querySelector('.result'))`)
			if res[0] != rank || res[1] != score || !strings.Contains(res[2], g.Reason) {
				t.Errorf("final result shows %q, stored rank %s score %s reason %q", res, rank, score, g.Reason)
			}
			title := eval[string](t, ctx, p, `document.querySelector('.gametitle h1').textContent`)
			if want := strings.Join(names, " vs "); !strings.Contains(title, want) {
				t.Errorf("the title says %q, not %q", title, want)
			}
			if n := eval[int](t, ctx, p, `document.querySelectorAll('.movelist li').length`); n != last {
				t.Errorf("the move list has %d lines for %d steps", n, last)
			}
			if msg := eval[string](t, ctx, p, fmt.Sprintf(`%s(%d)`, foldsToViews, g.ID)); msg != "" {
				t.Errorf("game %d: %s", g.ID, msg)
			}
			noScroll(t, ctx, p, sd.t.Game+" replay")
			screenshot(t, ctx, p, fmt.Sprintf("replay-%s-%d-end", sd.t.Game, most))

			// A page opened at a frame (a bot page's fault links) draws it
			// as stepping to it does, and shows its line in the move list.
			board := `(s => s.innerHTML + [...s.querySelectorAll('canvas')].map(c => c.toDataURL()).join())(document.querySelector('.stage'))`
			press(t, ctx, p, "ArrowLeft")
			wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.replay').dataset.frame === '%d'`, last-1))
			stepped := eval[string](t, ctx, p, board)
			if err := p.Navigate(ctx, fmt.Sprintf("%s/game/%d?frame=%d", srv.URL, g.ID, last-1)); err != nil {
				t.Fatal(err)
			}
			wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.replay')?.dataset.frame === '%d'`, last-1))
			if eval[string](t, ctx, p, board) != stepped {
				t.Errorf("frame %d opened directly is not drawn as when stepped to", last-1)
			}
			if !eval[bool](t, ctx, p, `(l => { const li = l.querySelector('li.current'), top = li.offsetTop - l.offsetTop;
				return top >= l.scrollTop && top + li.offsetHeight <= l.scrollTop + l.clientHeight; })(document.querySelector('.movelist'))`) {
				t.Errorf("opened at frame %d, the move list does not show its line", last-1)
			}
		})
	}
}

// A game of three or more seats: the pair page counts its pairwise result as
// the standings do, the bot page lists every opponent, the live card and
// the presentation show every seat.
func TestManySeats(t *testing.T) {
	ctx0 := context.Background()
	sd := fix.tron
	all := must(fix.db.Games(ctx0, sd.t.ID, results.GameFilter{}))
	a, b := sd.ids[1], sd.ids[3]
	rec := results.Pairings(sd.ids, all, results.SchemeDefault)[1][3]
	p, ctx, srv := browse(t, fmt.Sprintf("/t/%d/pair/%d/%d", sd.t.ID, a, b))
	wait(t, ctx, p, `document.querySelector('.pair-view .game-row')`)
	head := eval[string](t, ctx, p, `document.querySelector('.pair-view h1').textContent`)
	if want := fmt.Sprintf("%s %s – %s %s", sd.bots[1].name, points(rec.Points), points(rec.Against), sd.bots[3].name); head != want {
		t.Errorf("the pair page says %q, the standings' pairings %q", head, want)
	}
	rows := eval[[][2]string](t, ctx, p, `[...document.querySelectorAll('.pair-view .game-row')].map(r => [r.dataset.game, r.className])`)
	if len(rows) != rec.Games {
		t.Errorf("the pair page lists %d games, the pairing has %d", len(rows), rec.Games)
	}
	wins := 0
	for _, r := range rows {
		if strings.Contains(r[1], "win") {
			wins++
		}
	}
	if wins != rec.Wins {
		t.Errorf("the pair page marks %d games won, the pairing has %d wins", wins, rec.Wins)
	}
	screenshot(t, ctx, p, "pair-many-seats")

	// The game of every bot: the bot page names its four opponents.
	big := gameWhere(t, sd, func(g results.Game) bool { return len(g.Players) == len(sd.bots) })
	if err := p.Navigate(ctx, fmt.Sprintf("%s/t/%d/bot/%d", srv.URL, sd.t.ID, a)); err != nil {
		t.Fatal(err)
	}
	game := fmt.Sprintf(`document.querySelector('.botgame[data-game="%d"]')`, big.ID)
	wait(t, ctx, p, game)
	if n := eval[int](t, ctx, p, game+`.querySelectorAll('.bghead a[href*="/pair/"]').length`); n != len(sd.bots)-1 {
		t.Errorf("the bot page links %d opponents in a game of %d", n, len(sd.bots))
	}

	// A game of three in progress.
	g := gameWhere(t, sd, func(g results.Game) bool { return len(g.Players) == 3 })
	l := liveAt(tron.Rules{}, g, len(g.Moves)/2)
	if err := fix.db.PutLive(ctx0, l); err != nil {
		t.Fatal(err)
	}
	defer fix.db.ClearLive(ctx0, sd.t.ID)
	if err := p.Navigate(ctx, fmt.Sprintf("%s/t/%d/live", srv.URL, sd.t.ID)); err != nil {
		t.Fatal(err)
	}
	card := fmt.Sprintf(`document.querySelector('.livecard[data-key="%s"]')`, g.Key)
	wait(t, ctx, p, card+`?.dataset.moves === '`+strconv.Itoa(l.Moves)+`'`)
	seats := eval[[][2]string](t, ctx, p, `[...`+card+`.querySelectorAll('.lhead .who')].map(w => [w.querySelector('.n').textContent, w.querySelector('.lscore').textContent])`)
	var want [][2]string
	for i, pl := range g.Players {
		want = append(want, [2]string{pl.Name, strconv.Itoa(l.Scores[i])})
	}
	if !slices.Equal(seats, want) {
		t.Errorf("the live card shows %q, the game in progress %q", seats, want)
	}
	screenshot(t, ctx, p, "live-many-seats")
	fix.db.ClearLive(ctx0, sd.t.ID)

	// The presentation's decisive game names and shows all its seats.
	if err := p.Navigate(ctx, fmt.Sprintf("%s/t/%d/show?dwell=1&replay=2", srv.URL, sd.t.ID)); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, `document.querySelector('.show-view')?.dataset.stage === 'decisive' && document.querySelector('.show-view .replay')`)
	id := eval[string](t, ctx, p, `document.querySelector('.show-view').dataset.game`)
	gid, _ := strconv.ParseInt(id, 10, 64)
	dg := must(fix.db.Game(ctx0, gid))
	caption := eval[string](t, ctx, p, `document.querySelector('.show-view .caption').textContent`)
	cards := eval[int](t, ctx, p, `document.querySelectorAll('.show-view .card').length`)
	for _, pl := range dg.Players {
		if !strings.Contains(caption, pl.Name) {
			t.Errorf("the decisive game's caption %q does not name %s", caption, pl.Name)
		}
	}
	if cards != len(dg.Players) {
		t.Errorf("the decisive game shows %d cards for %d seats", cards, len(dg.Players))
	}
	screenshot(t, ctx, p, "show-many-seats")
}

// tronView is the part of the tron View the trails test reads.
type tronView struct {
	Width  int          `json:"width"`
	Trails [][][2]int   `json:"trails"`
	Fates  []games.Fate `json:"fates"`
}

// viewsOf are the rules' Views of g after each step, frame by frame.
func viewsOf(t *testing.T, rules games.Rules, g results.Game) []tronView {
	t.Helper()
	names := make([]string, len(g.Players))
	for i, pl := range g.Players {
		names[i] = pl.Name
	}
	answers := answersOf(g.Moves)
	var views []tronView
	add := func(s games.State) {
		var v tronView
		if err := json.Unmarshal(s.View(), &v); err != nil {
			t.Fatal(err)
		}
		views = append(views, v)
	}
	add(rules.New(g.Seed, names))
	if _, err := games.Replay(rules, g.Seed, names, answers, func(s games.State, _ []games.Move) { add(s) }); err != nil {
		t.Fatal(err)
	}
	return views
}

// marked are the cells where a board draws something over the trails: the
// heads of the seats alive and the crosses of the others.
func marked(v tronView) [][2]int {
	var cells [][2]int
	for seat, trail := range v.Trails {
		if len(trail) > 0 {
			cells = append(cells, trail[len(trail)-1])
		} else if at := v.Fates[seat].At; len(at) == 2 {
			cells = append(cells, [2]int{at[0], at[1]})
		}
	}
	return cells
}

// apart says whether c is far enough from every cell of others but itself
// for nothing else to be drawn on it.
func apart(c [2]int, others [][2]int, far int) bool {
	for _, o := range others {
		if o != c && max(o[0]-c[0], c[0]-o[0]) < far && max(o[1]-c[1], c[1]-o[1]) < far {
			return false
		}
	}
	return true
}

// pixels reads the replay's canvas at the centres of cells of a grid width
// cells wide, as "#rrggbb".
func pixels(t *testing.T, ctx context.Context, p *browsertest.Page, width int, cells [][2]int) []string {
	t.Helper()
	at, _ := json.Marshal(cells)
	return eval[[]string](t, ctx, p, fmt.Sprintf(`((cells) => {
		const c = document.querySelector('.stage canvas'), k = c.width / %d, ctx = c.getContext('2d');
		return cells.map(([x, y]) => '#' + [...ctx.getImageData(Math.floor((x + .5) * k), Math.floor((y + .5) * k), 1, 1).data].slice(0, 3).map((b) => b.toString(16).padStart(2, '0')).join(''));
	})(%s)`, width, at))
}

// A free-for-all of twelve bots plays in the browser with every trail told
// apart: twelve colours, shapes and letters on the cards, each trail drawn
// in its seat's colour, each head bearing its letter, and each death marked
// in its seat's colour where it happened.
func TestTwelveTrails(t *testing.T) {
	sd := fix.ffa
	g := gameWhere(t, sd, func(g results.Game) bool { return len(g.Players) == tron.MaxSeats })
	views := viewsOf(t, tron.Rules{}, g)
	// Frame 8 is turn 7 (frame 1 is the init): every trail is 8 cells long.
	const early = 8
	p, ctx, _ := browse(t, fmt.Sprintf("/game/%d?frame=%d", g.ID, early))
	wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.replay')?.dataset.frame === '%d'`, early))

	marks := eval[[][4]string](t, ctx, p, `[...document.querySelectorAll('.replay .card')].map((c) => {
		const s = getComputedStyle(c), v = (n) => s.getPropertyValue(n).trim();
		return [v('--mark').toLowerCase(), v('--shape'), v('--label'), getComputedStyle(c.querySelector('.token'), '::after').content];
	})`)
	if len(marks) != tron.MaxSeats {
		t.Fatalf("%d cards for %d seats", len(marks), tron.MaxSeats)
	}
	for k, what := range []string{"colour", "shape", "letter"} {
		seen := map[string]int{}
		for seat, m := range marks {
			if o, dup := seen[m[k]]; dup {
				t.Errorf("seats %d and %d have the same %s %s", o, seat, what, m[k])
			}
			seen[m[k]] = seat
		}
	}
	for seat, m := range marks {
		if m[3] != m[2] {
			t.Errorf("seat %d's token shows %s, not its letter %s", seat, m[3], m[2])
		}
	}

	// Each trail in its seat's colour: a cell of it far from the heads.
	v := views[early]
	var seats []int
	var cells [][2]int
	for seat, trail := range v.Trails {
		for _, c := range trail {
			if apart(c, marked(v), 4) {
				seats, cells = append(seats, seat), append(cells, c)
				break
			}
		}
	}
	if len(seats) < 10 {
		t.Fatalf("only %d trails of frame %d can be checked", len(seats), early)
	}
	for i, px := range pixels(t, ctx, p, v.Width, cells) {
		if want := marks[seats[i]][0]; px != want {
			t.Errorf("frame %d: seat %d's trail at %v is drawn %s, its colour is %s", early, seats[i], cells[i], px, want)
		}
	}
	screenshot(t, ctx, p, "replay-tron-12-early")

	// It plays to the end, where every death is marked in its seat's colour.
	last := len(views) - 1
	press(t, ctx, p, "Home", "+", "+", "+", "+", " ")
	wait(t, ctx, p, `document.querySelector('.replay').classList.contains('playing')`)
	wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.replay').dataset.frame === '%d' && !document.querySelector('.replay').classList.contains('playing')`, last))
	v = views[last]
	seats, cells = nil, nil
	for seat, f := range v.Fates {
		// A cross's letter sits up to 5 cells away.
		if c := f.At; len(c) == 2 && apart([2]int{c[0], c[1]}, marked(v), 7) {
			seats, cells = append(seats, seat), append(cells, [2]int{c[0], c[1]})
		}
	}
	if len(seats) < 4 {
		t.Fatalf("only %d deaths of %d can be checked", len(seats), len(v.Fates)-1)
	}
	for i, px := range pixels(t, ctx, p, v.Width, cells) {
		if want := marks[seats[i]][0]; px != want {
			t.Errorf("seat %d went out at %v: the cross is drawn %s, its colour is %s", seats[i], cells[i], px, want)
		}
	}
	screenshot(t, ctx, p, "replay-tron-12-end")
	press(t, ctx, p, "Home")
	for range last / 2 {
		press(t, ctx, p, "ArrowRight")
	}
	screenshot(t, ctx, p, "replay-tron-12-middle")

	// The same game in progress: its live card shows every seat.
	ctx0 := context.Background()
	l := liveAt(tron.Rules{}, g, len(g.Moves)/2)
	if err := fix.db.PutLive(ctx0, l); err != nil {
		t.Fatal(err)
	}
	defer fix.db.ClearLive(ctx0, sd.t.ID)
	if err := p.Navigate(ctx, fmt.Sprintf("%s/t/%d/live", eval[string](t, ctx, p, `location.origin`), sd.t.ID)); err != nil {
		t.Fatal(err)
	}
	card := fmt.Sprintf(`document.querySelector('.livecard[data-key="%s"]')`, g.Key)
	wait(t, ctx, p, card+`?.dataset.moves === '`+strconv.Itoa(l.Moves)+`'`)
	if n := eval[int](t, ctx, p, card+`.querySelectorAll('.lhead .who').length`); n != tron.MaxSeats {
		t.Errorf("the live card shows %d seats of %d", n, tron.MaxSeats)
	}
	screenshot(t, ctx, p, "live-tron-12")
}

// A game of four thousand turns: its replay sends two Views, not one per
// turn, and plays, steps back and goes to its end at once in the browser.
func TestLongReplay(t *testing.T) {
	g := gameWhere(t, fix.long, func(g results.Game) bool { return true })
	p, ctx, srv := browse(t, fmt.Sprintf("/game/%d", g.ID))
	_, body := get(t, fmt.Sprintf("%s/api/game/%d/replay.json", srv.URL, g.ID))
	var rp screen.Replay
	if err := json.Unmarshal(body, &rp); err != nil {
		t.Fatal(err)
	}
	last := len(rp.Frames) - 1
	if last < 3000 {
		t.Fatalf("the long game has %d steps", last)
	}
	// A View of this game is some 40 KB by its end.
	if len(body) > 400*last {
		t.Errorf("the replay of %d steps is %d bytes", last, len(body))
	}
	wait(t, ctx, p, `document.querySelector('.replay')?.dataset.frame === '0'`)
	// How fast is for the benchmarks (a shared machine makes any bound
	// flaky here): the end is reached, and playing goes on from the start.
	press(t, ctx, p, "End", "ArrowLeft")
	wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.replay').dataset.frame === '%d'`, last-1))
	screenshot(t, ctx, p, "replay-tron-long")
	press(t, ctx, p, "Home", "+", "+", "+", "+", " ")
	if got := eval[string](t, ctx, p, `document.querySelector('.replay .speed').value`); got != "16" {
		t.Errorf("four + from 1× give %s×, want 16×", got)
	}
	wait(t, ctx, p, `+document.querySelector('.replay').dataset.frame > 100`)
}

// A swiss tournament's pages: the standings add Buchholz, in the order
// the judge ranks (its tag where it breaks a tie), the crosstable shows the
// played pairings only, a column a round with the byes, and the schedule
// says the rounds played.
func TestSwissPages(t *testing.T) {
	sd := fix.swiss
	want, err := fix.db.Standings(context.Background(), sd.t.ID, results.SchemeDefault)
	if err != nil {
		t.Fatal(err)
	}
	p, ctx, _ := browse(t, fmt.Sprintf("/t/%d", sd.t.ID))
	wait(t, ctx, p, `document.querySelectorAll('table.standings tbody tr').length === 29`)
	rows := eval[[][]string](t, ctx, p, `[...document.querySelectorAll('table.standings tbody tr')].map(tr => [
		tr.querySelector('.name a').textContent, tr.querySelector('.bh').textContent])`)
	for i, s := range want {
		if exp := []string{s.Bot.Name, points(s.Buchholz)}; !slices.Equal(rows[i], exp) {
			t.Errorf("row %d: page %q, db %q", i+1, rows[i], exp)
		}
	}
	if !slices.ContainsFunc(want, func(s results.Standing) bool { return s.TieBreak == results.ByBuchholz }) {
		t.Error("no tie broken by Buchholz in the fixture: the page's tags are not tested")
	}
	if n := eval[int](t, ctx, p, `document.querySelectorAll('.pts .tie[data-rule="Buchholz"]').length`); n == 0 {
		t.Error("no Buchholz tag on the page")
	}
	if note := eval[string](t, ctx, p, `document.querySelector('.note').textContent`); !strings.Contains(note, "Buchholz") {
		t.Errorf("the note does not explain Buchholz: %s", note)
	}

	p, ctx, _ = browse(t, fmt.Sprintf("/t/%d/crosstable", sd.t.ID))
	wait(t, ctx, p, `document.querySelector('table.cross.swiss')`)
	got := eval[[]int](t, ctx, p, `[document.querySelectorAll('table.cross thead th.colh').length,
		document.querySelectorAll('table.cross td.bye').length, document.querySelectorAll('table.cross td.cell:not(.bye)').length,
		document.querySelectorAll('table.cross td.none').length]`)
	// 5 rounds, a bye each, 14 pairings a round seen from both sides.
	if !slices.Equal(got, []int{5, 5, 5 * 14 * 2, 0}) {
		t.Errorf("crosstable: %v rounds, byes, pairings, empty cells; want 5 5 140 0", got)
	}
	noScroll(t, ctx, p, "swiss crosstable of 29 bots")

	p, ctx, _ = browse(t, fmt.Sprintf("/t/%d/schedule", sd.t.ID))
	wait(t, ctx, p, `document.querySelector('.schedule-view .rounds')?.dataset.played === '5'`)
	if text := eval[string](t, ctx, p, `document.querySelector('.schedule-view .rounds').textContent`); text != "All 5 rounds played." {
		t.Errorf("schedule says %q", text)
	}
}
