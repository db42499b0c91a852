package screen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"botjudge/games/tron"
	"botjudge/games/virus"
	"botjudge/judge/screen"
	"botjudge/judge/screen/browsertest"
	"botjudge/results"
)

// The screen's live parts: pages that share one event stream, that wait for
// what does not exist yet, that say what was not found, the schedule and the
// big live board.

// open adds a tab to b at url, and checks when the test ends that it
// reported no problem but those containing one of allowed.
func open(t *testing.T, ctx context.Context, b *browsertest.Browser, url string, allowed ...string) *browsertest.Page {
	t.Helper()
	p := b.NewPage(t)
	t.Cleanup(func() {
	next:
		for _, pb := range p.Problems() {
			for _, a := range allowed {
				if strings.Contains(pb, a) {
					continue next
				}
			}
			t.Errorf("%s: the browser reported: %s", url, pb)
		}
	})
	if err := p.Navigate(ctx, url); err != nil {
		t.Fatal(err)
	}
	return p
}

// serveDB starts a screen on a database of its own.
func serveDB(t *testing.T, db *results.DB) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(screen.New(db, screen.Options{Poll: 100 * time.Millisecond, Log: log.New(testLog{t}, "", 0)}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv
}

// streams counts the event streams open on a screen, by URL path.
type streams struct {
	mu   sync.Mutex
	open map[string]int
}

func (c *streams) now(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.open[path]
}

// settled is the number of streams open on path once it has been want for
// a moment, or has stayed another for five seconds: a page may draw from
// the API before its stream is counted.
func (c *streams) settled(path string, want int) int {
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := c.now(path)
		if n == want {
			time.Sleep(200 * time.Millisecond) // a second stream would be late too
			n = c.now(path)
		}
		if n == want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// serveCounting starts the screen of db, counting its open event streams.
func serveCounting(t *testing.T, db *results.DB) (*httptest.Server, *streams) {
	t.Helper()
	c := &streams{open: map[string]int{}}
	h := screen.New(db, screen.Options{Poll: 100 * time.Millisecond, Log: log.New(testLog{t}, "", 0)})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/events") {
			c.mu.Lock()
			c.open[r.URL.Path]++
			c.mu.Unlock()
			defer func() {
				c.mu.Lock()
				c.open[r.URL.Path]--
				c.mu.Unlock()
			}()
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv, c
}

// dictionary is the screen's strings, by language.
func dictionary(t *testing.T) map[string]map[string]string {
	t.Helper()
	raw, err := os.ReadFile("assets/strings.json")
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]map[string]string
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// Ten pages of one browser, one tournament: a browser opens at most six
// connections to a host, so ten pages that each held an event stream would
// not all load. They share one stream, and a game stored reaches them all.
func TestTenPagesStayLive(t *testing.T) {
	ctx0 := context.Background()
	sd := fix.live
	if len(sd.pending) == 0 {
		t.Fatal("the live tournament has no game left to play")
	}
	pg := sd.pending[0]
	bots, ids := sd.seated(pg.seats)
	next := play(virus.Rules{}, sd.t.ID, pg.key, 1, pg.seed, bots, ids, time.Now())
	sd.pending = sd.pending[1:]
	fix.live = sd
	stored := must(fix.db.Games(ctx0, sd.t.ID, results.GameFilter{}))
	if len(stored) < 4 {
		t.Fatalf("the live tournament has %d games stored, want at least 4", len(stored))
	}
	done := strconv.Itoa(len(stored))

	b := browsertest.Start(t)
	srv, count := serveCounting(t, fix.db)
	ctx, cancel := context.WithTimeout(ctx0, 3*time.Minute)
	defer cancel()
	tid := sd.t.ID
	paths := []string{
		fmt.Sprintf("/t/%d", tid),
		fmt.Sprintf("/t/%d/crosstable", tid),
		fmt.Sprintf("/t/%d/live", tid),
		fmt.Sprintf("/t/%d/show?dwell=60", tid),
		fmt.Sprintf("/t/%d/schedule", tid),
		fmt.Sprintf("/t/%d/tv", tid),
	}
	for _, g := range stored[:4] {
		paths = append(paths, fmt.Sprintf("/game/%d", g.ID))
	}
	var pages []*browsertest.Page
	for _, path := range paths {
		p := open(t, ctx, b, srv.URL+path)
		// The header's count comes from the tournament's events.
		wait(t, ctx, p, `document.getElementById('progress-text')?.dataset.done === '`+done+`' && !document.querySelector('#view > .message')`)
		pages = append(pages, p)
	}
	if n := count.settled(fmt.Sprintf("/api/t/%d/events", tid), 1); n != 1 {
		t.Errorf("ten pages of one browser hold %d streams of their tournament, want 1", n)
	}
	if _, err := fix.db.SaveGame(ctx0, next); err != nil {
		t.Fatal(err)
	}
	after := strconv.Itoa(len(stored) + 1)
	for _, p := range pages {
		wait(t, ctx, p, `document.getElementById('progress-text').dataset.done === '`+after+`'`)
	}
	// The live page and the schedule also list the new game.
	id := must(fix.db.Games(ctx0, tid, results.GameFilter{}))[len(stored)].ID
	wait(t, ctx, pages[2], fmt.Sprintf(`document.querySelector('.recent .game-row[data-game="%d"]')`, id))
	wait(t, ctx, pages[4], fmt.Sprintf(`document.querySelector('.schedule-view .done .game-row[data-game="%d"]')`, id))
}

// Where there is no SharedWorker (Chrome on Android), a page holds its own
// stream, and stays live all the same.
func TestLiveWithoutSharedWorker(t *testing.T) {
	db, tour, run := private(t)
	run(3)
	b := browsertest.Start(t)
	srv, count := serveCounting(t, db)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := b.NewPage(t)
	if err := p.Call(ctx, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": "delete window.SharedWorker"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.Navigate(ctx, fmt.Sprintf("%s/t/%d/schedule", srv.URL, tour.ID)); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, `typeof SharedWorker === 'undefined' && document.querySelector('.schedule-view .tocome')?.dataset.n === '3'`)
	if n := count.settled(fmt.Sprintf("/api/t/%d/events", tour.ID), 1); n != 1 {
		t.Errorf("a page without SharedWorker holds %d streams, want its own one", n)
	}
	run(5)
	wait(t, ctx, p, `document.querySelector('.schedule-view .tocome').dataset.n === '5'`)
	for _, pb := range p.Problems() {
		t.Errorf("the browser reported: %s", pb)
	}
}

// private is a database of its own with one tournament of one bot, and a
// function that starts a run of it planning n games: a change every page
// of the tournament shows.
func private(t *testing.T) (*results.DB, results.Tournament, func(n int)) {
	t.Helper()
	ctx := context.Background()
	db, err := results.Open(filepath.Join(t.TempDir(), "private.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tour, err := db.EnsureTournament(ctx, "virus", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	bot, err := db.AddBot(ctx, results.Bot{Game: "virus", Name: "seul", SHA256: strings.Repeat("b", 64), Path: "submissions/virus/seul"})
	if err != nil {
		t.Fatal(err)
	}
	return db, tour, func(n int) {
		if err := db.StartRun(ctx, tour.ID, results.Run{BotIDs: []int64{bot.ID}, Planned: n, Rounds: 1}); err != nil {
			t.Fatal(err)
		}
	}
}

// A page left in the back/forward cache lets go of its stream: going back
// and forth in one tab never leaves a page waiting for a connection.
func TestBackForwardKeepsNoStream(t *testing.T) {
	b := browsertest.Start(t)
	srv := serve(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	tid := fix.live.t.ID
	p := open(t, ctx, b, fmt.Sprintf("%s/t/%d", srv.URL, tid))
	wait(t, ctx, p, `document.getElementById('progress-text')?.dataset.done`)
	// Full loads, not the app's own links: each leaves a page behind.
	for i := range 8 {
		path := []string{"/t/%d/crosstable", "/t/%d/live", "/t/%d"}[i%3]
		if err := p.Navigate(ctx, srv.URL+fmt.Sprintf(path, tid)); err != nil {
			t.Fatal(err)
		}
		wait(t, ctx, p, `document.getElementById('progress-text')?.dataset.done`)
	}
	for range 7 {
		eval[any](t, ctx, p, `history.back(), 0`)
		wait(t, ctx, p, `document.readyState === 'complete' && document.getElementById('progress-text')?.dataset.done`)
	}
}

// A page opened before its tournament exists (the list on an empty
// database, a tournament's page) shows it once `judge run` records it,
// without a reload.
func TestPagesWaitForTheirTournament(t *testing.T) {
	db, err := results.Open(filepath.Join(t.TempDir(), "empty.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b := browsertest.Start(t)
	srv := serveDB(t, db)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	en := dictionary(t)["en"]
	list := open(t, ctx, b, srv.URL+"/")
	wait(t, ctx, list, `document.querySelector('.tournaments .message')`)
	// The first tournament of a database is number 1.
	cross := open(t, ctx, b, srv.URL+"/t/1/crosstable", "404")
	wait(t, ctx, cross, `document.querySelector('.notfound')?.dataset.what === 'notfound.tournament'`)
	// So is the first game's.
	replay := open(t, ctx, b, srv.URL+"/game/1", "404")
	wait(t, ctx, replay, `document.querySelector('.notfound')?.dataset.what === 'notfound.game'`)
	if got, want := eval[string](t, ctx, cross, `document.querySelector('.notfound .wait').textContent`), en["notfound.wait"]; got != want {
		t.Errorf("the page of a tournament to come says %q, want %q", got, want)
	}
	tour, err := db.EnsureTournament(context.Background(), "virus", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tour.ID != 1 {
		t.Fatalf("the first tournament is #%d", tour.ID)
	}
	// One tournament: the list leads to it.
	wait(t, ctx, list, `location.pathname === '/t/1' && document.body.classList.contains('view-standings')`)
	wait(t, ctx, cross, `location.pathname === '/t/1/crosstable' && document.querySelector('.cross-view')`)
	// And they follow it from then on.
	bots := virusBots(2)
	var ids []int64
	for i, x := range bots {
		row, err := db.AddBot(context.Background(), results.Bot{Game: "virus", Name: x.name, SHA256: strings.Repeat(strconv.Itoa(i), 64), Path: "submissions/virus/" + x.name})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, row.ID)
	}
	if err := db.StartRun(context.Background(), tour.ID, results.Run{BotIDs: ids, Planned: 2, Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []*browsertest.Page{list, cross} {
		wait(t, ctx, p, `document.getElementById('progress-text')?.dataset.planned === '2'`)
	}
	g := play(virus.Rules{}, tour.ID, "r1/"+bots[0].name+"/"+bots[1].name, 1, 42, bots, ids, time.Now())
	if id, err := db.SaveGame(context.Background(), g); err != nil || id != 1 {
		t.Fatalf("the first game is #%d (%v)", id, err)
	}
	wait(t, ctx, replay, `location.pathname === '/game/1' && document.querySelector('.game-view .replay')`)
	wait(t, ctx, cross, `document.querySelectorAll('.cross-view td.cell').length === 2`)
}

// What does not exist is said in words, in the reader's language, with a
// link back; the API says it in JSON.
func TestNotFound(t *testing.T) {
	srv := serve(t)
	for _, path := range []string{"/api/t/999/info.json", "/api/game/999999/replay.json", "/api/nothing", "/api/t/1/nothing.json"} {
		resp, body := get(t, srv.URL+path)
		var e screen.APIError
		if resp.StatusCode != 404 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || json.Unmarshal(body, &e) != nil || e.Status != 404 || e.Error == "" {
			t.Errorf("GET %s: %s %q %s, want a 404 in JSON", path, resp.Status, resp.Header.Get("Content-Type"), body)
		}
	}
	if resp, body := get(t, srv.URL+"/nowhere"); resp.StatusCode != 404 || !strings.Contains(string(body), "app.js") {
		t.Errorf("GET /nowhere: %s, want the page answered 404", resp.Status)
	}

	b := browsertest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dict := dictionary(t)
	v := fix.virus.t
	cases := []struct {
		path, what, back string
	}{
		{"/t/999", "notfound.tournament", "/"},
		{"/t/999/crosstable", "notfound.tournament", "/"},
		{"/game/999999", "notfound.game", "/"},
		{fmt.Sprintf("/t/%d/bot/999999", v.ID), "notfound.bot", fmt.Sprintf("/t/%d", v.ID)},
		{fmt.Sprintf("/t/%d/pair/%d/999999", v.ID, fix.virus.ids[0]), "notfound.pair", fmt.Sprintf("/t/%d", v.ID)},
		{fmt.Sprintf("/t/%d/nothing", v.ID), "notfound.page", fmt.Sprintf("/t/%d", v.ID)},
		{"/nowhere/at/all", "notfound.page", "/"},
	}
	for _, lang := range []string{"en", "fr"} {
		p := b.NewPage(t)
		if err := p.SetHeaders(ctx, map[string]string{"Accept-Language": lang}); err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if err := p.Navigate(ctx, srv.URL+c.path); err != nil {
				t.Fatal(err)
			}
			wait(t, ctx, p, `document.querySelector('.notfound')`)
			got := eval[[]string](t, ctx, p, `(n => [n.dataset.what, n.querySelector('h1').textContent, n.querySelector('a.back').getAttribute('href'), n.querySelector('a.back').textContent])(document.querySelector('.notfound'))`)
			if got[0] != c.what || got[1] != dict[lang]["notfound.title"] || got[2] != c.back {
				t.Errorf("%s in %s: %q, want %s, %q and a link to %s", c.path, lang, got, c.what, dict[lang]["notfound.title"], c.back)
			}
			if strings.Contains(eval[string](t, ctx, p, `document.body.innerText`), "{") {
				t.Errorf("%s in %s: a placeholder is left in the page", c.path, lang)
			}
			if c.what == "notfound.bot" {
				screenshot(t, ctx, p, "notfound-"+lang)
			}
		}
		// The link back works.
		eval[any](t, ctx, p, `document.querySelector('.notfound a.back').click(), 0`)
		wait(t, ctx, p, `location.pathname === '/' && document.querySelector('.tournaments .tcard')`)
		// Each card says how its bots meet: round robin, swiss or free-for-all.
		var list []results.Tournament
		if _, body := get(t, srv.URL+"/api/tournaments.json"); json.Unmarshal(body, &list) != nil {
			t.Fatalf("tournaments.json: %s", body)
		}
		cards := eval[[]string](t, ctx, p, `[...document.querySelectorAll('.tournaments .tcard')].map((c) => c.textContent)`)
		formats := 0
		for i, x := range list {
			if i < len(cards) && x.Format != "" {
				formats++
				if word := dict[lang]["format."+x.Format]; word == "" || !strings.Contains(cards[i], word) {
					t.Errorf("%s: the card of tournament %d (%s) says %q, not its format", lang, x.ID, x.Format, cards[i])
				}
			}
		}
		if formats == 0 || len(cards) != len(list) {
			t.Errorf("%s: %d cards for %d tournaments, %d of them with a format", lang, len(cards), len(list), formats)
		}
		for _, pb := range p.Problems() {
			if !strings.Contains(pb, "404") {
				t.Errorf("%s: the browser reported: %s", lang, pb)
			}
		}
	}
}

// The pair page and the crosstable count each game as the standings do, in
// the scheme asked for: 3, 1 or 0 under 3-1-0, not 1, ½ or 0.
func TestPairPointsFollowScheme(t *testing.T) {
	ctx0 := context.Background()
	sd := fix.virus
	all := must(fix.db.Games(ctx0, sd.t.ID, results.GameFilter{}))
	cells := results.Pairings(sd.ids, all, results.Scheme310)
	// A pair whose games were not all won by the same bot shows more than
	// one kind of result.
	a, b := 0, 1
	for i := range sd.ids {
		for j := range sd.ids {
			if c := cells[i][j]; c != nil && c.Wins > 0 && c.Wins < c.Games {
				a, b = i, j
			}
		}
	}
	rec := cells[a][b]
	p, ctx, _ := browse(t, fmt.Sprintf("/t/%d/pair/%d/%d?points=3-1-0", sd.t.ID, sd.ids[a], sd.ids[b]))
	wait(t, ctx, p, `document.querySelector('.pair-view .game-row .gpts')`)
	head := eval[string](t, ctx, p, `document.querySelector('.pair-view h1').textContent`)
	if want := fmt.Sprintf("%s %s – %s %s", sd.bots[a].name, points(rec.Points), points(rec.Against), sd.bots[b].name); head != want {
		t.Errorf("under 3-1-0 the pair page says %q, want %q", head, want)
	}
	rows := eval[[][2]string](t, ctx, p, `[...document.querySelectorAll('.pair-view .game-row')].map(r => [r.dataset.game, r.querySelector('.gpts').textContent])`)
	if len(rows) != len(rec.Results) {
		t.Fatalf("the pair page lists %d games, the pairing %d", len(rows), len(rec.Results))
	}
	for i, r := range rows {
		want := rec.Results[i]
		if r[0] != strconv.FormatInt(want.ID, 10) || r[1] != points(want.Points) {
			t.Errorf("row %d: game %s worth %s, want game %d worth %s (%s under 3-1-0)", i, r[0], r[1], want.ID, points(want.Points), want.Result)
		}
	}
	// The crosstable's marks are the same results.
	if err := p.Navigate(ctx, fmt.Sprintf("%s/t/%d/crosstable?points=3-1-0", strings.TrimSuffix(eval[string](t, ctx, p, `location.origin`), "/"), sd.t.ID)); err != nil {
		t.Fatal(err)
	}
	cell := fmt.Sprintf(`document.querySelector('td.cell[data-row="%d"][data-col="%d"]')`, sd.ids[a], sd.ids[b])
	wait(t, ctx, p, cell)
	marks := eval[[]string](t, ctx, p, `[...`+cell+`.querySelectorAll('.gm a')].map(m => m.textContent)`)
	var want []string
	for _, r := range rec.Results {
		want = append(want, points(r.Points))
	}
	if strings.Join(marks, " ") != strings.Join(want, " ") {
		t.Errorf("the crosstable cell marks %q under 3-1-0, want %q", marks, want)
	}
}

// nextGames plays the next n scheduled games of the live tournament (not
// stored), taking them off the fixture's plan.
func nextGames(t *testing.T, n int) []results.Game {
	t.Helper()
	sd := fix.live
	if len(sd.pending) < n {
		t.Fatalf("the live tournament has %d games left to play, want %d", len(sd.pending), n)
	}
	var gs []results.Game
	for _, pg := range sd.pending[:n] {
		bots, ids := sd.seated(pg.seats)
		gs = append(gs, play(virus.Rules{}, sd.t.ID, pg.key, 1, pg.seed, bots, ids, time.Now()))
	}
	sd.pending = sd.pending[n:]
	fix.live = sd
	return gs
}

// The schedule lists the games in progress, counts those to come and lists
// those played, each a link to its replay, and follows the run.
func TestSchedulePage(t *testing.T) {
	ctx0 := context.Background()
	g := nextGames(t, 1)[0]
	sd := fix.live
	stored := must(fix.db.Games(ctx0, sd.t.ID, results.GameFilter{}))
	p, ctx, _ := browse(t, fmt.Sprintf("/t/%d", sd.t.ID))
	// It is in the tournament's navigation.
	wait(t, ctx, p, fmt.Sprintf(`document.querySelector('#top nav a[href="/t/%d/schedule"]')`, sd.t.ID))
	eval[any](t, ctx, p, fmt.Sprintf(`document.querySelector('#top nav a[href="/t/%d/schedule"]').click(), 0`, sd.t.ID))
	wait(t, ctx, p, `document.querySelector('.schedule-view .done .game-row')`)
	played := eval[[]string](t, ctx, p, `[...document.querySelectorAll('.schedule-view .done .game-row')].map(a => a.getAttribute('href'))`)
	if len(played) != len(stored) {
		t.Fatalf("the schedule lists %d games played, the database has %d", len(played), len(stored))
	}
	for i, href := range played {
		if want := fmt.Sprintf("/game/%d", stored[len(stored)-1-i].ID); href != want {
			t.Errorf("played game %d links to %s, want %s (newest first)", i, href, want)
		}
	}
	left := sd.t.Planned - len(stored)
	wait(t, ctx, p, `document.querySelector('.schedule-view .tocome').dataset.n === '`+strconv.Itoa(left)+`' && document.querySelector('.schedule-view .playing .message')`)

	if err := fix.db.PutLive(ctx0, liveAt(virus.Rules{}, g, 12)); err != nil {
		t.Fatal(err)
	}
	row := fmt.Sprintf(`document.querySelector('.schedule-view .playing .game-row[data-key="%s"]')`, g.Key)
	wait(t, ctx, p, row+` && document.querySelector('.schedule-view .tocome').dataset.n === '`+strconv.Itoa(left-1)+`'`)
	if txt := eval[string](t, ctx, p, row+`.textContent`); !strings.Contains(txt, g.Players[0].Name) || !strings.Contains(txt, g.Players[1].Name) {
		t.Errorf("the game in progress reads %q", txt)
	}
	screenshot(t, ctx, p, "schedule")
	if _, err := fix.db.SaveGame(ctx0, g); err != nil {
		t.Fatal(err)
	}
	id := must(fix.db.Games(ctx0, sd.t.ID, results.GameFilter{}))[len(stored)].ID
	wait(t, ctx, p, fmt.Sprintf(`!%s && document.querySelector('.schedule-view .done .game-row').dataset.game === '%d'`, row, id))
	wait(t, ctx, p, `document.querySelector('.schedule-view .tocome').dataset.n === '`+strconv.Itoa(left-1)+`'`)

	// A free-for-all in progress: each score beside its bot's name, as the
	// rows of the games played have them, not twelve numbers in a row.
	l := twelveInProgress(t)
	if err := p.Navigate(ctx, fmt.Sprintf("%s/t/%d/schedule", eval[string](t, ctx, p, `location.origin`), l.TournamentID)); err != nil {
		t.Fatal(err)
	}
	row = fmt.Sprintf(`document.querySelector('.schedule-view .playing .game-row[data-key="%s"]')`, l.Key)
	wait(t, ctx, p, row)
	got := eval[[][2]string](t, ctx, p, `[...`+row+`.querySelectorAll('.gplayers > span:not(.vs)')].map((s) => [s.firstChild.textContent, s.querySelector('.pscore')?.textContent ?? ''])`)
	var want [][2]string
	for i, pl := range l.Players {
		want = append(want, [2]string{pl.Name, strconv.Itoa(l.Scores[i])})
	}
	if !slices.Equal(got, want) || eval[string](t, ctx, p, row+`.querySelector('.gscore').textContent`) != "" {
		t.Errorf("the free-for-all in progress reads %q, want %q", eval[string](t, ctx, p, row+`.textContent`), want)
	}
	screenshot(t, ctx, p, "schedule-twelve")
	roundsBeingPlayed(t, ctx, p, eval[string](t, ctx, p, `location.origin`), l.TournamentID)
}

// roundsBeingPlayed checks, in both languages, the rounds line of two
// schedules while their run plays a round: the twelve's, tournament tid,
// whose one round has no game stored yet (no "0 rounds played"), and the
// busy one's, its second round being played after its first.
func roundsBeingPlayed(t *testing.T, ctx context.Context, p *browsertest.Page, base string, tid int64) {
	t.Helper()
	for _, c := range []struct {
		tid    int64
		en, fr string
	}{
		{tid, "Round 1 of 1 · being played.", "Ronde 1 sur 1 · en cours."},
		{fix.run.busy.t.ID, "Round 2 of 2 · being played · 1 round played.", "Ronde 2 sur 2 · en cours · 1 ronde jouée."},
	} {
		for lang, want := range map[string]string{"en": c.en, "fr": c.fr} {
			if err := p.SetHeaders(ctx, map[string]string{"Accept-Language": lang}); err != nil {
				t.Fatal(err)
			}
			if err := p.Navigate(ctx, fmt.Sprintf("%s/t/%d/schedule", base, c.tid)); err != nil {
				t.Fatal(err)
			}
			wait(t, ctx, p, fmt.Sprintf(`document.documentElement.lang === %q && document.querySelector('.schedule-view p.rounds')?.textContent`, lang))
			if got := eval[string](t, ctx, p, `document.querySelector('.schedule-view p.rounds').textContent`); got != want {
				t.Errorf("%s: the schedule of tournament %d says %q, want %q", lang, c.tid, got, want)
			}
		}
	}
}

// twelveInProgress is the fixture's free-for-all of twelve in progress.
func twelveInProgress(t *testing.T) results.Live {
	t.Helper()
	for _, sd := range fix.run.boards {
		for _, l := range sd.live {
			if len(l.Players) == tron.MaxSeats {
				return l
			}
		}
	}
	t.Fatal("no free-for-all of twelve in progress")
	return results.Live{}
}

// interesting is the TV's rule, in Go: the game between the best-ranked
// bots, then the closest in score, then the longest played.
func interesting(st []results.Standing, live []results.Live) string {
	rank := map[int64]int{}
	for _, s := range st {
		rank[s.Bot.ID] = s.Rank
	}
	key := func(l results.Live) [3]int {
		var rs []int
		for _, p := range l.Players {
			rs = append(rs, rank[p.BotID])
		}
		slices.Sort(rs)
		lo, hi := slices.Min(l.Scores), slices.Max(l.Scores)
		return [3]int{rs[0] + rs[1], hi - lo, -l.Moves}
	}
	best := live[0]
	for _, l := range live[1:] {
		a, b := key(l), key(best)
		if slices.Compare(a[:], b[:]) < 0 || (a == b && l.Key < best.Key) {
			best = l
		}
	}
	return best.Key
}

// The big board follows the most interesting game in progress, stays on it
// while it is played, and takes the next one when it ends.
func TestTVFollowsLiveGames(t *testing.T) {
	ctx0 := context.Background()
	gs := nextGames(t, 2)
	sd := fix.live
	// The first game shown is the one the rule likes less: the board must
	// stay on it all the same when the other starts.
	st := must(fix.db.Standings(ctx0, sd.t.ID, results.SchemeDefault))
	var first, second results.Live
	m, n := 10, 0 // the moves played of each
search:
	for n = 8; n <= 40; n++ {
		for _, order := range [][2]int{{0, 1}, {1, 0}} {
			a, b := gs[order[0]], gs[order[1]]
			first, second = liveAt(virus.Rules{}, a, m), liveAt(virus.Rules{}, b, n)
			if interesting(st, []results.Live{first, second}) == b.Key {
				gs = []results.Game{a, b}
				break search
			}
		}
		first.Key = ""
	}
	if first.Key == "" {
		t.Fatal("no position of these games where the rule prefers the one started second")
	}
	if err := fix.db.PutLive(ctx0, first); err != nil {
		t.Fatal(err)
	}
	p, ctx, srv := browse(t, fmt.Sprintf("/t/%d/tv", sd.t.ID))
	tv := `document.querySelector('.tv-view')`
	wait(t, ctx, p, tv+`?.dataset.key === '`+gs[0].Key+`' && `+tv+`.dataset.moves === '`+strconv.Itoa(m)+`'`)
	if err := fix.db.PutLive(ctx0, second); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, tv+`.dataset.playing === '2'`)
	if k := eval[string](t, ctx, p, tv+`.dataset.key`); k != gs[0].Key {
		t.Errorf("the board left the game it followed (%s) for %s while it was played", gs[0].Key, k)
	}
	// A page that comes now picks by the rule.
	want := gs[1].Key
	q := browsertest.Start(t).NewPage(t)
	if err := q.Navigate(ctx, fmt.Sprintf("%s/t/%d/tv", srv.URL, sd.t.ID)); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, q, tv+`?.dataset.playing === '2'`)
	if k := eval[string](t, ctx, q, tv+`.dataset.key`); k != want {
		t.Errorf("with %s and %s in progress the board shows %s, the rule says %s", gs[0].Key, gs[1].Key, k, want)
	}
	// The schedule's link to a game in progress follows that one.
	if err := q.Navigate(ctx, fmt.Sprintf("%s/t/%d/schedule", srv.URL, sd.t.ID)); err != nil {
		t.Fatal(err)
	}
	link := fmt.Sprintf(`document.querySelector('.schedule-view .playing .game-row[data-key="%s"]')`, gs[0].Key)
	wait(t, ctx, q, link)
	eval[any](t, ctx, q, link+`.click(), 0`)
	wait(t, ctx, q, tv+`?.dataset.playing === '2'`)
	if k := eval[string](t, ctx, q, tv+`.dataset.key`); k != gs[0].Key {
		t.Errorf("the TV opened from the schedule on %s shows %s", gs[0].Key, k)
	}
	// It draws the game as it goes, with the game's own board.
	if err := fix.db.PutLive(ctx0, liveAt(virus.Rules{}, gs[0], 30)); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, tv+`.dataset.moves === '30'`)
	pieces := 0
	for _, v := range virusBoard(gs[0].Moves[:30]) {
		if v != 0 {
			pieces++
		}
	}
	if got := eval[int](t, ctx, p, tv+`.querySelectorAll('.stage .cell:not([data-v="0"])').length`); got != pieces {
		t.Errorf("after 30 moves the big board has %d pieces, the game %d", got, pieces)
	}
	if w := eval[float64](t, ctx, p, tv+`.querySelector('.stage').firstElementChild.getBoundingClientRect().height`); w < 600 {
		t.Errorf("the big board is %.0f px high on a 1080 px screen", w)
	}
	screenshot(t, ctx, p, "tv")
	// Its game ends: it takes the other.
	if _, err := fix.db.SaveGame(ctx0, gs[0]); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, tv+`.dataset.key === '`+gs[1].Key+`' && `+tv+`.dataset.moves === '`+strconv.Itoa(n)+`'`)
	if _, err := fix.db.SaveGame(ctx0, gs[1]); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, tv+`.dataset.key === '' && !document.querySelector('.tv-view > .message').hidden`)
	for _, pb := range q.Problems() {
		t.Errorf("second page: %s", pb)
	}
}

// A page the back/forward cache gives back takes its stream again: it
// follows the tournament as before.
func TestRestoredPageStaysLive(t *testing.T) {
	ctx0 := context.Background()
	db, tour, run := private(t)
	run(3)
	b := browsertest.Start(t)
	srv := serveDB(t, db)
	ctx, cancel := context.WithTimeout(ctx0, 2*time.Minute)
	defer cancel()
	p := b.NewPage(t)
	restored := `addEventListener('pageshow', (e) => { if (e.persisted) document.documentElement.dataset.restored = 'yes'; })`
	if err := p.Call(ctx, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": restored}, nil); err != nil {
		t.Fatal(err)
	}
	planned := func(n int) string {
		return `document.getElementById('progress-text')?.dataset.planned === '` + strconv.Itoa(n) + `'`
	}
	if err := p.Navigate(ctx, fmt.Sprintf("%s/t/%d", srv.URL, tour.ID)); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, planned(3)+` && document.querySelector('.standings-view')`)
	if err := p.Navigate(ctx, fmt.Sprintf("%s/t/%d/crosstable", srv.URL, tour.ID)); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, planned(3)+` && document.querySelector('.cross-view')`)
	eval[any](t, ctx, p, `history.back(), 0`)
	wait(t, ctx, p, `document.querySelector('.standings-view') && `+planned(3))
	run(5)
	wait(t, ctx, p, planned(5))
	t.Logf("restored from the back/forward cache: %v", eval[bool](t, ctx, p, `document.documentElement.dataset.restored === 'yes'`))
	for _, pb := range p.Problems() {
		t.Errorf("the browser reported: %s", pb)
	}
}

// seatTagMarks reads a page's seat tags, card by card (or the TV's one
// list), as name → mark class.
const seatTagMarks = `[...document.querySelectorAll('.livecard .lhead, .tv-view .tvhead')].map((h) =>
	Object.fromEntries([...h.querySelectorAll('.who')].map((w) => [w.querySelector('.n').textContent, [...w.classList].find((c) => c.startsWith('mark-'))])))`

// A Tron bot wears the same letter and colour on every live card, on the
// TV and in the replays, whatever its seat in each game (its place in the
// tournament's bots), and the cards and the TV say what the board's marks
// mean.
func TestBotsKeepTheirMarks(t *testing.T) {
	var sd seeded
	for _, s := range fix.run.boards {
		if s.t.Game == "tron" && len(s.live) > 1 {
			sd = s
		}
	}
	seats := map[string]map[int]bool{}
	for _, l := range sd.live {
		for i, pl := range l.Players {
			if seats[pl.Name] == nil {
				seats[pl.Name] = map[int]bool{}
			}
			seats[pl.Name][i] = true
		}
	}
	if !slices.ContainsFunc(slices.Collect(maps.Values(seats)), func(s map[int]bool) bool { return len(s) > 1 }) {
		t.Fatal("the fixture needs a Tron bot in two games in progress at two seats")
	}
	p, ctx, srv := browse(t, fmt.Sprintf("/t/%d/live", sd.t.ID))
	wait(t, ctx, p, fmt.Sprintf(`document.querySelectorAll('.livecard .lhead .who').length === %d`, len(sd.live[0].Players)+len(sd.live[1].Players)))
	marks := map[string]string{}
	for _, card := range eval[[]map[string]string](t, ctx, p, seatTagMarks) {
		seen := map[string]bool{}
		for name, m := range card {
			if marks[name] != "" && marks[name] != m {
				t.Errorf("%s wears %s on one card, %s on another", name, marks[name], m)
			}
			if seen[m] {
				t.Errorf("two bots wear %s on one card: %v", m, card)
			}
			marks[name], seen[m] = m, true
		}
	}
	legend := `[...document.querySelectorAll('.legend.inline li')].map((li) => li.textContent)`
	want := []string{"head, with its letter", "out, where it was", "abca bot out of the game"}
	if got := eval[[]string](t, ctx, p, legend); !slices.Equal(got, want) {
		t.Errorf("the live cards' legend reads %q, want %q", got, want)
	}
	for _, l := range sd.live {
		if err := p.Navigate(ctx, fmt.Sprintf("%s/t/%d/tv?key=%s", srv.URL, sd.t.ID, url.QueryEscape(l.Key))); err != nil {
			t.Fatal(err)
		}
		wait(t, ctx, p, fmt.Sprintf(`document.querySelector('.tv-view')?.dataset.key === %q && document.querySelector('.tv-view .tvhead .who')`, l.Key))
		for name, m := range eval[[]map[string]string](t, ctx, p, seatTagMarks)[0] {
			if m != marks[name] {
				t.Errorf("the TV of %s shows %s as %s, the cards as %s", l.Key, name, m, marks[name])
			}
		}
		if got := eval[[]string](t, ctx, p, legend); !slices.Equal(got, want) {
			t.Errorf("the TV's legend reads %q, want %q", got, want)
		}
	}
	replayKeepsMarks(t, ctx, p, srv.URL, sd, marks)
}

// replayKeepsMarks opens the replay of a game of sd played in which a bot
// does not sit at its place in the tournament (where marks by seat and by
// bot differ), and checks that its cards, whose mark class gives the
// letter and the colour the board draws too, mark each bot as the live
// cards did (marks: name → mark class).
func replayKeepsMarks(t *testing.T, ctx context.Context, p *browsertest.Page, base string, sd seeded, marks map[string]string) {
	t.Helper()
	var game *results.Game
	for _, g := range must(fix.db.Games(context.Background(), sd.t.ID, results.GameFilter{})) {
		if game == nil && slices.ContainsFunc(g.Players, func(pl results.Player) bool { return marks[pl.Name] != fmt.Sprintf("mark-%d", pl.Seat+1) }) {
			game = &g
		}
	}
	if game == nil {
		t.Fatal("the fixture needs a Tron game played with a bot away from its place")
	}
	if err := p.Navigate(ctx, fmt.Sprintf("%s/game/%d", base, game.ID)); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, fmt.Sprintf(`document.querySelectorAll('.replay .card').length === %d`, len(game.Players)))
	cards := eval[map[string]string](t, ctx, p, `Object.fromEntries([...document.querySelectorAll('.replay .card')].map((c) =>
		[c.querySelector('.name').textContent, [...c.classList].find((k) => k.startsWith('mark-'))]))`)
	for _, pl := range game.Players {
		if cards[pl.Name] != marks[pl.Name] {
			t.Errorf("the replay of game %d shows %s as %s, its live card as %s", game.ID, pl.Name, cards[pl.Name], marks[pl.Name])
		}
	}
}
