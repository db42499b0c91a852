package handin

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"botjudge/games/fault"
	"botjudge/results"
	"botjudge/sandbox"
)

func TestOf(t *testing.T) {
	for _, c := range []struct{ lang, name, want string }{
		{"en", "alice", "of alice"},
		{"fr", "alice", "d'alice"},
		{"fr", "Émile", "d'Émile"},
		{"fr", "Hugo", "d'Hugo"},
		{"fr", "Yann", "d'Yann"},
		{"fr", "bob", "de bob"},
		{"fr", "Zoé Martin", "de Zoé Martin"},
		{"fr", "", "de "},
	} {
		if got := of(c.lang, c.name); got != c.want {
			t.Errorf("of(%q, %q) = %q, want %q", c.lang, c.name, got, c.want)
		}
	}
}

func TestCounted(t *testing.T) {
	tn := funcs["tn"].(func(string, string, int) string)
	for _, c := range []struct {
		lang string
		n    int
		want string
	}{
		{"en", 0, "0 versions"},
		{"en", 1, "1 version"},
		{"en", 2, "2 versions"},
		{"fr", 0, "0 version"},
		{"fr", 1, "1 version"},
		{"fr", 2, "2 versions"},
	} {
		if got := tn(c.lang, "versions.n", c.n); got != c.want {
			t.Errorf("%s %d: %q, want %q", c.lang, c.n, got, c.want)
		}
	}
}

// The pages say what the reader needs: the virus hand-in accepts Python
// only, the organiser reads a student's versions as that student's, French
// elides "de" before a vowel, a version handed in after the deadline is
// marked, and one version is one.
func TestPagesWording(t *testing.T) {
	deadline := time.Date(2030, 6, 1, 17, 0, 0, 0, time.Local)
	c := newClass(t, Options{Deadline: deadline}, "alice", "bob")
	before := deadline.Add(-time.Minute)
	c.now.Store(&before)
	alice, org := c.student("alice"), c.student(results.OrganiserName)
	v1 := alice.location("virus", "a.py", []byte(pyBot))
	c.student("bob").location("virus", "b.py", []byte(pyBot))
	// Handed in after the deadline: a server that ran without one then.
	id := c.versions("alice", "virus")[0].StudentID
	late, err := c.db.AddHandIn(context.Background(), results.HandIn{StudentID: id, Game: "virus", At: deadline.Add(time.Hour), Kind: "file", Ext: ".py", Content: []byte("# late\n")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	in := func(b *browser, lang, path string) string {
		t.Helper()
		req, _ := http.NewRequest("GET", c.http.URL+path, nil)
		req.Header.Set("Accept-Language", lang)
		st, page := b.do(req)
		if st != http.StatusOK {
			t.Fatalf("%s: %d\n%s", path, st, page)
		}
		return page
	}
	home := in(alice, "en", "/hand-in/")
	virus, tictactoe, _ := strings.Cut(home, `id="game-tictactoe"`)
	if !strings.Contains(virus, "One Python file (.py)") || strings.Contains(virus, ".java") {
		t.Errorf("the virus help does not say Python only:\n%s", virus)
	}
	if !strings.Contains(tictactoe, ".java") {
		t.Errorf("the tictactoe help lost its languages:\n%s", tictactoe)
	}
	if n := strings.Count(home, "after the deadline: not played"); n != 1 {
		t.Errorf("%d versions marked late, want 1:\n%s", n, home)
	}
	for lang, want := range map[string][2]string{"en": {"Version of alice", "Versions of alice"}, "fr": {"Version d&#39;alice", "Versions d&#39;alice"}} {
		if page := in(alice, lang, v1); !strings.Contains(page, want[0]) {
			t.Errorf("%s: the version page has no %q:\n%s", lang, want[0], page)
		}
		page := in(org, lang, fmt.Sprintf("/hand-in/student/%d", id))
		if !strings.Contains(page, want[1]) || strings.Contains(page, map[string]string{"en": "Your versions", "fr": "Vos versions"}[lang]) {
			t.Errorf("%s: the organiser reads alice's versions as:\n%s", lang, page)
		}
	}
	if page := in(org, "en", fmt.Sprintf("/hand-in/v/%d", late.ID)); !strings.Contains(page, "after the deadline: not played") {
		t.Errorf("the late version's page does not say it is late:\n%s", page)
	}
	if page := in(org, "en", "/hand-in/"); !strings.Contains(page, "1 version<") || strings.Contains(page, "1 versions") {
		t.Errorf("the organiser's table counts bob's one version as:\n%s", page)
	}
}

// A syntax error is reported with the student's file name, not the staged
// copy's (bot.py), as a failure at the first request.
func TestSyntaxErrorNamesTheStudentsFile(t *testing.T) {
	sc := &SandboxChecker{Run: sandbox.NewLocal(), StageRoot: t.TempDir(), Limits: sandbox.DefaultLimits()}
	c := newClass(t, Options{Checker: sc, Games: []string{"virus"}}, "bob")
	loc := c.student("bob").location("virus", "broken.py", []byte("def ia(game, side):\n    return game.nope(\n"))
	waitDoneWithin(t, c, "bob", 1, time.Minute)
	_, page := c.student("bob").get(loc)
	if !strings.Contains(page, "Your bot failed at its first request") || !strings.Contains(page, "bob.py") || strings.Contains(page, "bot.py") {
		t.Errorf("the report of a syntax error:\n%s", page)
	}
}

// blockingChecker stops in the middle of its sparring games until the test
// lets it go.
type blockingChecker struct{ release chan struct{} }

func (b *blockingChecker) Check(ctx context.Context, h results.HandIn, update func(string, Report)) (Report, error) {
	rep := Report{Ready: true, FirstMS: 1, Sparring: []Spar{{GameID: 1, Opponents: []string{"example"}, Result: "win", Reason: "over"}}}
	update(results.StatusPlaying, rep)
	<-b.release
	return rep, nil
}

// While a version is checked, its page follows the check's event stream,
// which says how far the check has gone, instead of reloading every 2 s;
// the stream ends when the check does.
func TestCheckProgressEvents(t *testing.T) {
	bc := &blockingChecker{release: make(chan struct{})}
	c := newClass(t, Options{Checker: bc, Games: []string{"virus"}}, "alice")
	alice := c.student("alice")
	loc := alice.location("virus", "a.py", []byte(pyBot))
	_, page := alice.get(loc)
	if strings.Contains(page, `http-equiv="refresh"`) || !strings.Contains(page, `src="/hand-in/assets/live.js"`) || !strings.Contains(page, `data-events="`+loc+`/events"`) {
		t.Errorf("the page of a version being checked:\n%s", page)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.http.URL+loc+"/events", nil)
	resp, err := alice.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := bufio.NewScanner(resp.Body)
	next := func() Progress {
		t.Helper()
		for events.Scan() {
			if data, ok := strings.CutPrefix(events.Text(), "data: "); ok {
				var p Progress
				if err := json.Unmarshal([]byte(data), &p); err != nil {
					t.Fatal(err)
				}
				return p
			}
		}
		t.Fatalf("the stream ended: %v", events.Err())
		return Progress{}
	}
	p := next()
	for p.Status != results.StatusPlaying {
		p = next()
	}
	if p.Done || !strings.Contains(p.Text, "sparring games against the example bots: 1 played") {
		t.Errorf("while sparring: %+v", p)
	}
	close(bc.release)
	for !p.Done {
		p = next()
	}
	if p.Status != results.StatusDone {
		t.Errorf("the last event: %+v", p)
	}
	for events.Scan() { // up to the end of the stream
		if events.Text() != "" {
			t.Errorf("the stream goes on after the check: %q", events.Text())
		}
	}
}

// saidChecker finds, in the judge's recorded English, a bot that cannot
// start when its version says "php", else one that times out, is given up
// on and loses its sparring game when the grid fills.
type saidChecker struct{}

func (saidChecker) Check(ctx context.Context, h results.HandIn, update func(string, Report)) (Report, error) {
	if strings.Contains(string(h.Content), "php") {
		return Report{Verdict: fault.Error, Detail: "error: cannot start the bot: php is not installed here"}, nil
	}
	return Report{FirstMS: 1, Moves: 100, End: "grid full", Faults: []ReportFault{
		{Move: 5, Verdict: fault.Timeout, Reason: "timeout: not ready within 15s"},
		{Move: 7, Verdict: fault.Timeout, Reason: "not asked: given up for this game after 3 timeouts in a row"}},
		Sparring: []Spar{{GameID: 1, Opponents: []string{"example"}, Result: "loss", Reason: "grid full"}}}, nil
}

// TestReportInBothLanguages: how a check's games ended and why moves were
// refused, recorded in English, are said in French on a French page, as
// the screen says them, a fault's name is said once on its line, and a
// colon joining two parts of a line has a space before it in French.
func TestReportInBothLanguages(t *testing.T) {
	c := newClass(t, Options{Checker: saidChecker{}, Games: []string{"virus"}}, "alice")
	alice, org := c.student("alice"), c.student(results.OrganiserName)
	played := alice.location("virus", "a.py", []byte(pyBot))
	waitDone(t, c, "alice", 1)
	broken := alice.location("virus", "a.py", []byte("# php\n"+pyBot))
	waitDone(t, c, "alice", 2)
	// Her first version back in the tournament: the organiser's table says
	// which plays beside her last.
	if st, page := alice.post(played+"/restore", "application/x-www-form-urlencoded", nil); st != http.StatusSeeOther {
		t.Fatalf("alice chooses her first version: %d\n%s", st, page)
	}
	for lang, want := range map[string][]string{
		"en": {"move 5: timeout: not ready within 15s<", "move 7: timeout: not asked: given up for this game after 3 timeouts in a row<", "100 moves, grid full.", "(grid full)",
			"NOT READY: Your bot failed at its first request (error):</p><pre>cannot start the bot: php is not installed here<",
			"<li>against example: lost (grid full)", `in the tournament</strong>: <a href="` + played + `">`},
		"fr": {"coup 5 : temps dépassé : pas prêt en 15s<", "coup 7 : temps dépassé : pas interrogé : abandonné pour cette partie après 3 dépassements de temps d&#39;affilée<",
			"100 coups, grille pleine.", "(grille pleine)",
			"PAS PRÊT : Votre bot a échoué à sa première demande (erreur) :</p><pre>impossible de lancer le bot : php n&#39;est pas installé ici<",
			"<li>contre example : perdue (grille pleine)", `dans le tournoi</strong> : <a href="` + played + `">`},
	} {
		var pages string
		for b, locs := range map[*browser][]string{alice: {played, broken}, org: {"/hand-in/"}} {
			for _, loc := range locs {
				req, _ := http.NewRequest("GET", c.http.URL+loc, nil)
				req.Header.Set("Accept-Language", lang)
				_, page := b.do(req)
				pages += page
			}
		}
		for _, w := range want {
			if !strings.Contains(pages, w) {
				t.Errorf("%s: no %q in the pages:\n%s", lang, w, pages)
			}
		}
	}
}
