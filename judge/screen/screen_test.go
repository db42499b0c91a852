package screen_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"botjudge/games/fault"
	"botjudge/games/virus"
	"botjudge/judge/screen"
	"botjudge/results"
)

func get(t *testing.T, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func TestExports(t *testing.T) {
	ctx := context.Background()
	srv := serve(t)
	tid := fix.virus.t.ID
	st := must(fix.db.Standings(ctx, tid, results.SchemeDefault))
	var want bytes.Buffer
	if err := results.WriteStandingsCSV(&want, st); err != nil {
		t.Fatal(err)
	}
	resp, body := get(t, fmt.Sprintf("%s/api/t/%d/standings.csv", srv.URL, tid))
	if resp.StatusCode != 200 || !bytes.Equal(body, want.Bytes()) {
		t.Errorf("standings.csv: %s, %d bytes, want the %d bytes of WriteStandingsCSV", resp.Status, len(body), want.Len())
	}
	if cd := resp.Header.Get("Content-Disposition"); !strings.Contains(cd, "attachment") || !strings.Contains(cd, ".csv") {
		t.Errorf("standings.csv is not a download: %q", cd)
	}
	resp, body = get(t, fmt.Sprintf("%s/api/t/%d/standings.json", srv.URL, tid))
	wantJSON, _ := json.Marshal(st)
	if resp.StatusCode != 200 || !bytes.Equal(body, wantJSON) {
		t.Errorf("standings.json differs from the standings")
	}

	bot := fix.virus.ids[2]
	gs := must(fix.db.Games(ctx, tid, results.GameFilter{BotID: bot}))
	want.Reset()
	if err := results.WriteGamesCSV(&want, gs); err != nil {
		t.Fatal(err)
	}
	_, body = get(t, fmt.Sprintf("%s/api/t/%d/games.csv?bot=%d", srv.URL, tid, bot))
	if !bytes.Equal(body, want.Bytes()) {
		t.Errorf("games.csv?bot= differs from WriteGamesCSV of the bot's games")
	}
	_, body = get(t, fmt.Sprintf("%s/api/t/%d/games.json", srv.URL, tid))
	var all []results.Game
	if err := json.Unmarshal(body, &all); err != nil || len(all) != 870 {
		t.Errorf("games.json: %d games (%v), want 870", len(all), err)
	}

	// The points scheme can be changed in the URL, as on the command line.
	_, body = get(t, fmt.Sprintf("%s/api/t/%d/standings.json?points=3-1-0", srv.URL, tid))
	var three []results.Standing
	if err := json.Unmarshal(body, &three); err != nil || three[0].Points != float64(3*three[0].Wins+three[0].Draws) {
		t.Errorf("standings with 3-1-0: %v %+v", err, three[:1])
	}
	// Each crosstable row adds up to the bot's points, in either scheme.
	for _, scheme := range []string{"", "3-1-0"} {
		_, body = get(t, fmt.Sprintf("%s/api/t/%d/crosstable.json?points=%s", srv.URL, tid, scheme))
		var ct screen.Crosstable
		if err := json.Unmarshal(body, &ct); err != nil {
			t.Fatal(err)
		}
		for i, b := range ct.Bots {
			sum := 0.0
			for _, c := range ct.Cells[i] {
				if c != nil {
					sum += c.Points
				}
			}
			if sum != b.Points || len(ct.Bots) != 30 {
				t.Errorf("scheme %q: crosstable row %s adds up to %v, standings say %v", scheme, b.Name, sum, b.Points)
			}
		}
	}
	for path, code := range map[string]int{
		fmt.Sprintf("/api/t/%d/standings.json?points=2-1-0", tid): 400,
		fmt.Sprintf("/api/t/%d/games.json?bot=x", tid):            400,
		"/api/t/999/standings.json":                               404,
		"/api/game/999999/replay.json":                            404,
		"/api/t/x/info.json":                                      404,
		"/assets/nothing.js":                                      404,
	} {
		if resp, _ := get(t, srv.URL+path); resp.StatusCode != code {
			t.Errorf("GET %s: %s, want %d", path, resp.Status, code)
		}
	}
}

// A game's record downloads as a file holding the stored game, every
// answer included.
func TestRecordDownload(t *testing.T) {
	srv := serve(t)
	g := gameWhere(t, fix.ships, func(g results.Game) bool { return g.Players[0].Name == "tortue" })
	resp, body := get(t, fmt.Sprintf("%s/api/game/%d/record.json", srv.URL, g.ID))
	if want := fmt.Sprintf(`attachment; filename="game-%d.json"`, g.ID); resp.Header.Get("Content-Disposition") != want {
		t.Errorf("Content-Disposition %q, want %q", resp.Header.Get("Content-Disposition"), want)
	}
	var rec results.Game
	if err := json.Unmarshal(body, &rec); err != nil {
		t.Fatal(err)
	}
	stored, err := fix.db.Game(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rec.ID != g.ID || len(rec.Moves) == 0 || len(rec.Moves) != len(stored.Moves) || string(rec.Outcome) != string(stored.Outcome) {
		t.Errorf("record of game %d: id %d, %d moves, outcome %s; stored %d moves, %s", g.ID, rec.ID, len(rec.Moves), rec.Outcome, len(stored.Moves), stored.Outcome)
	}
}

func TestReplayJSON(t *testing.T) {
	srv := serve(t)
	g := gameWhere(t, fix.ships, func(g results.Game) bool { return g.Players[0].Name == "tortue" })
	_, body := get(t, fmt.Sprintf("%s/api/game/%d/replay.json", srv.URL, g.ID))
	var rp screen.Replay
	if err := json.Unmarshal(body, &rp); err != nil {
		t.Fatal(err)
	}
	stored, _ := json.Marshal(rp.Stored)
	final, _ := json.Marshal(rp.Outcome)
	if !rp.Consistent || !bytes.Equal(stored, final) || string(stored) != string(g.Outcome) {
		t.Errorf("replay outcome %s, stored %s (consistent %v)", final, g.Outcome, rp.Consistent)
	}
	if rp.GameKind != "battleships" || len(rp.Frames) != len(g.Moves) { // two fleets share frame 1
		t.Errorf("%s replay with %d frames for %d moves", rp.GameKind, len(rp.Frames), len(g.Moves))
	}
}

func TestLanguage(t *testing.T) {
	for _, c := range []struct{ accept, cookie, want string }{
		{"", "", "en"},
		{"fr-FR,fr;q=0.9,en;q=0.8", "", "fr"},
		{"fr", "", "fr"},
		{"en-GB,en;q=0.9,fr;q=0.8", "", "en"},
		{"de-DE,de;q=0.9,fr;q=0.5", "", "fr"},
		{"en;q=0.3,fr;q=0.7", "", "fr"},
		{"fr;q=0", "", "en"},
		{"fr-FR", "en", "en"},
		{"", "fr", "fr"},
		{"fr-FR", "xx", "fr"},
	} {
		r, _ := http.NewRequest("GET", "/", nil)
		if c.accept != "" {
			r.Header.Set("Accept-Language", c.accept)
		}
		if c.cookie != "" {
			r.AddCookie(&http.Cookie{Name: "lang", Value: c.cookie})
		}
		if got := screen.Language(r); got != c.want {
			t.Errorf("Accept-Language %q, cookie %q: %s, want %s", c.accept, c.cookie, got, c.want)
		}
	}
	srv := serve(t)
	_, body := get(t, srv.URL+"/t/1/standings", "Accept-Language", "fr-CA")
	if !bytes.Contains(body, []byte(`<html lang="fr">`)) {
		t.Errorf("the page for a French browser does not say lang=fr:\n%s", body)
	}
}

// Every string the scripts ask for is in both languages of the dictionary.
func TestDictionary(t *testing.T) {
	raw, err := os.ReadFile("assets/strings.json")
	if err != nil {
		t.Fatal(err)
	}
	var dict map[string]map[string]string
	if err := json.Unmarshal(raw, &dict); err != nil {
		t.Fatal(err)
	}
	if len(dict) != len(screen.Languages) {
		t.Errorf("the dictionary has %d languages, the server knows %v", len(dict), screen.Languages)
	}
	keys := func(m map[string]string) []string {
		var k []string
		for key := range m {
			k = append(k, key)
		}
		sort.Strings(k)
		return k
	}
	for _, l := range screen.Languages {
		if !slices.Equal(keys(dict[l]), keys(dict["en"])) {
			t.Errorf("%s and en have different keys", l)
		}
	}
	used := regexp.MustCompile(`\btn?\('([a-z.]+[a-z])'`)
	prefixed := regexp.MustCompile(`\bt\('([a-z]+\.)' \+`) // t('verdict.' + v)
	views, err := filepath.Glob("assets/views/*.js")
	if err != nil || len(views) == 0 {
		t.Fatalf("no view modules: %v", err)
	}
	// The page's modules; the boards' words are their own.
	for _, file := range append([]string{"assets/app.js", "assets/router.js", "assets/header.js", "assets/live-cards.js", "assets/rows.js", "assets/replay.js", "assets/util.js"}, views...) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range used.FindAllSubmatch(src, -1) {
			if _, ok := dict["en"][string(m[1])]; !ok {
				t.Errorf("%s uses %q, which is not in the dictionary", file, m[1])
			}
		}
		for _, m := range prefixed.FindAllSubmatch(src, -1) {
			found := false
			for k := range dict["en"] {
				found = found || strings.HasPrefix(k, string(m[1]))
			}
			if !found {
				t.Errorf("%s builds keys from %q, which no key starts with", file, m[1])
			}
		}
	}
}

// The pages name faults from the judge's one list, with its classes and
// words.
func TestFaultsJSON(t *testing.T) {
	srv := serve(t)
	resp, body := get(t, srv.URL+"/api/faults.json")
	want, _ := json.Marshal(fault.All())
	if resp.StatusCode != 200 || !bytes.Equal(body, want) {
		t.Errorf("faults.json: %s %s, want %s", resp.Status, body, want)
	}
}

// The event stream sends the tournament's state at once and again when a
// live game advances.
func TestEventStream(t *testing.T) {
	ctx0 := context.Background()
	srv := serve(t)
	sd := fix.live
	ctx, cancel := context.WithTimeout(ctx0, 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s/api/t/%d/events", srv.URL, sd.t.ID), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("events: Content-Type %q", ct)
	}
	lines := bufio.NewScanner(resp.Body)
	lines.Buffer(nil, 1<<20)
	next := func() screen.Snapshot {
		t.Helper()
		for lines.Scan() {
			if data, ok := strings.CutPrefix(lines.Text(), "data: "); ok {
				var s screen.Snapshot
				if err := json.Unmarshal([]byte(data), &s); err != nil {
					t.Fatal(err)
				}
				return s
			}
		}
		t.Fatalf("the stream ended: %v", lines.Err())
		return screen.Snapshot{}
	}
	first := next()
	done := len(must(fix.db.Games(ctx0, sd.t.ID, results.GameFilter{})))
	if first.Progress.Done != done || first.Progress.Planned != 12 || first.Progress.Finished {
		t.Errorf("first event: %+v, want %d of 12 done, not finished", first.Progress, done)
	}
	pg := sd.pending[0]
	bots, ids := sd.seated(pg.seats)
	g := play(virus.Rules{}, sd.t.ID, pg.key, 1, pg.seed, bots, ids, time.Now())
	if err := fix.db.PutLive(ctx0, liveAt(virus.Rules{}, g, 7)); err != nil {
		t.Fatal(err)
	}
	defer fix.db.ClearLive(ctx0, sd.t.ID)
	for {
		s := next()
		if len(s.Live) == 1 && s.Live[0].Key == g.Key && s.Live[0].Moves == 7 && s.Live[0].Last != nil && len(s.Live[0].View) > 0 {
			if !s.Progress.Running || s.Progress.Playing != 1 {
				t.Errorf("a tournament with a live game is not running: %+v", s.Progress)
			}
			break
		}
	}
}

// TestHideLogs: with hand-in on, the public pages show no bot's log nor
// its error text (a student's log is theirs); by default they do.
func TestHideLogs(t *testing.T) {
	ctx := context.Background()
	hidden := httptest.NewServer(screen.New(fix.db, screen.Options{HideLogs: true, Log: log.New(io.Discard, "", 0)}))
	t.Cleanup(hidden.Close)
	shown := serve(t)
	var logsShown, logsHidden int
	for _, tour := range must(fix.db.Tournaments(ctx)) {
		for _, e := range must(fix.db.Entries(ctx, tour.ID)) {
			path := fmt.Sprintf("/api/t/%d/bot/%d/info.json", tour.ID, e.Bot.ID)
			details := gameDetails(t, tour.ID, e.Bot.ID)
			for _, srv := range []*httptest.Server{shown, hidden} {
				_, body := get(t, srv.URL+path)
				var page screen.BotPage
				if err := json.Unmarshal(body, &page); err != nil {
					t.Fatal(err)
				}
				n := len(page.Check.Log) + len(page.Check.Detail)
				for _, g := range page.Games {
					n += len(g.Log)
					for _, f := range g.Faults {
						n += len(f.Detail)
						// A reason that quotes its detail shows it all the same.
						for _, d := range details[g.ID] {
							if strings.Contains(f.Reason, d) || strings.Contains(g.Reason, d) {
								n += len(d)
							}
						}
					}
				}
				if srv == shown {
					logsShown += n
				} else {
					logsHidden += n
				}
			}
		}
		for _, g := range must(fix.db.Games(ctx, tour.ID, results.GameFilter{})) {
			_, body := get(t, fmt.Sprintf("%s/api/game/%d/record.json", hidden.URL, g.ID))
			var rec results.Game
			json.Unmarshal(body, &rec)
			for _, p := range rec.Players {
				logsHidden += len(p.Log)
			}
			for _, m := range rec.Moves {
				logsHidden += len(m.Detail)
			}
		}
	}
	if logsShown == 0 {
		t.Fatal("the seed database has no log to hide")
	}
	if logsHidden != 0 {
		t.Errorf("with HideLogs, %d bytes of logs and error text are public", logsHidden)
	}
}

// gameDetails are the sandbox's details of the faults in bot bid's games
// of tournament tid, by game.
func gameDetails(t *testing.T, tid, bid int64) map[int64][]string {
	t.Helper()
	out := map[int64][]string{}
	for _, g := range must(fix.db.Games(context.Background(), tid, results.GameFilter{BotID: bid})) {
		for _, m := range must(fix.db.Game(context.Background(), g.ID)).Moves {
			if m.Detail != "" {
				out[g.ID] = append(out[g.ID], m.Detail)
			}
		}
	}
	return out
}
