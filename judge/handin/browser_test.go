package handin

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"botjudge/judge/screen/browsertest"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// TestBrowserFlow is a student's whole hand-in in Chromium, with the real
// sandbox: log in with her name as the school writes it, hand in a file, see the report and replay a sparring
// game on the screen's page, hand in a new version, see both versions;
// after the deadline, the hand-in is refused with one line.
func TestBrowserFlow(t *testing.T) {
	b := browsertest.Start(t)
	d := sandboxtest.Docker(t)
	deadline := time.Now().Add(time.Hour).Truncate(time.Minute)
	sc := &SandboxChecker{Run: d, StageRoot: t.TempDir(), Limits: sandbox.DefaultLimits(), Opponents: 1}
	c := newClass(t, Options{Checker: sc, Games: []string{"virus"}, Deadline: deadline}, zoe)
	os.Remove(filepath.Join(c.subs, "virus", "example.py"))
	ex, _ := os.ReadFile(filepath.Join("..", "..", "submissions", "virus", "first_cell.py"))
	os.WriteFile(filepath.Join(c.subs, "virus", "first_cell.py"), ex, 0o644)
	mine := filepath.Join(t.TempDir(), "my bot.py")
	greedy, _ := os.ReadFile(filepath.Join("..", "..", "submissions", "virus", "greedy.py"))
	os.WriteFile(mine, greedy, 0o644)

	p := b.NewPage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	wait := func(expr string) {
		t.Helper()
		wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		if err := p.Wait(wctx, expr); err != nil {
			var text string
			p.Eval(ctx, `document.body.innerText.slice(0, 800)`, &text)
			t.Fatalf("%v\npage text: %s", err, text)
		}
	}
	eval := func(expr string) {
		t.Helper()
		if err := p.Eval(ctx, expr, nil); err != nil {
			t.Fatal(err)
		}
	}
	// $SCREENSHOTS keeps what the student saw at each step.
	shot := func(name string) {
		t.Helper()
		if dir := os.Getenv("SCREENSHOTS"); dir != "" {
			if err := p.Screenshot(ctx, filepath.Join(dir, "handin-"+name+".png")); err != nil {
				t.Error(err)
			}
		}
	}
	handIn := func() {
		t.Helper()
		var node struct {
			Result struct {
				ObjectID string `json:"objectId"`
			} `json:"result"`
		}
		if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": `document.querySelector('form.upload input[type=file]')`}, &node); err != nil || node.Result.ObjectID == "" {
			t.Fatalf("no file input: %v", err)
		}
		if err := p.Call(ctx, "DOM.setFileInputFiles", map[string]any{"files": []string{mine}, "objectId": node.Result.ObjectID}, nil); err != nil {
			t.Fatal(err)
		}
		eval(`document.querySelector('form.upload button').click()`)
		wait(`location.pathname.startsWith('/hand-in/v/')`)
	}

	if err := p.Navigate(ctx, c.http.URL+"/hand-in/"); err != nil {
		t.Fatal(err)
	}
	shot("login")
	eval(fmt.Sprintf(`document.querySelector('input[name=name]').value = %q`, zoe))
	eval(`document.querySelector('input[name=code]').value = '` + c.codes[zoe] + `'`)
	eval(`document.querySelector('form.login button').click()`)
	wait(fmt.Sprintf(`document.querySelector('h1')?.textContent === %q && document.querySelector('form.upload')`, zoe))

	handIn()
	// The page follows the check live until its report is there.
	wait(`document.getElementById('ready') && document.querySelector('a.replay')`)
	shot("report")
	eval(`document.querySelector('a.replay').click()`)
	wait(`location.pathname.startsWith('/game/') && document.querySelector('.game-view') && document.body.innerText.includes('first_cell')`)
	shot("sparring")
	// The sparring game's tournament is private: a link to its pages
	// (standings, bots, pairing) would lead the student to "not found".
	var links string
	if err := p.Eval(ctx, `[...document.querySelectorAll('a[href^="/t/"]')].map((a) => a.getAttribute('href')).join(' ')`, &links); err != nil || links != "" {
		t.Errorf("the sparring replay links to the private tournament's pages: %q (%v)", links, err)
	}
	eval(`document.querySelector('a.handin').click()`)
	wait(`location.pathname === '/hand-in/' && document.querySelector('form.upload')`)

	if err := p.Navigate(ctx, c.http.URL+"/hand-in/"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(mine, append([]byte("# version 2\n"), greedy...), 0o644)
	handIn()
	if err := p.Navigate(ctx, c.http.URL+"/hand-in/"); err != nil {
		t.Fatal(err)
	}
	wait(`document.querySelectorAll('ol.versions li').length === 2`)
	wait(`document.querySelector('#plays-virus')?.textContent.includes('In the tournament')`)
	shot("versions")
	if got, _ := os.ReadFile(filepath.Join(c.subs, "virus", "zoe-martin-o-neil.py")); !strings.HasPrefix(string(got), "# version 2") {
		t.Errorf("Zoé's bot after her second version: %.40q (folder %v)", got, c.entries("virus"))
	}

	after := deadline.Add(time.Minute)
	c.now.Store(&after)
	if err := p.Navigate(ctx, c.http.URL+"/hand-in/"); err != nil {
		t.Fatal(err)
	}
	wait(`document.querySelector('.deadline.closed') && !document.querySelector('form.upload')`)
	shot("closed")
	// A form kept open from before the deadline is refused, with one line.
	var line string
	err := p.Eval(ctx, `(async () => { const fd = new FormData(); fd.append('bot', new Blob(['x']), 'a.py');
		const r = await fetch('/hand-in/game/virus', {method: 'POST', body: fd});
		return r.status + ' ' + new DOMParser().parseFromString(await r.text(), 'text/html').getElementById('refused').textContent; })()`, &line)
	if err != nil || !strings.HasPrefix(line, "403 ") || !strings.Contains(line, deadline.Format("2006-01-02 15:04")) {
		t.Errorf("a hand-in after the deadline: %q %v", line, err)
	}
	if vs := c.versions(zoe, "virus"); len(vs) != 2 {
		t.Errorf("%d versions kept, want 2", len(vs))
	}
	for _, pr := range p.Problems() {
		if !strings.Contains(pr, "403") {
			t.Errorf("the browser reported: %s", pr)
		}
	}
}

// TestBrowserNotReady: in Chromium, a NOT READY version in the tournament
// is said in red on the student's page and its own; she puts her working
// version back from its page, and the page then says so in green.
func TestBrowserNotReady(t *testing.T) {
	b := browsertest.Start(t)
	c := newClass(t, Options{Checker: verdictChecker{}, Games: []string{"virus"}}, zoe)
	p := b.NewPage(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	must := func(err error) {
		t.Helper()
		if err != nil {
			var text string
			p.Eval(ctx, `document.body.innerText.slice(0, 800)`, &text)
			t.Fatalf("%v\npage text: %s", err, text)
		}
	}
	shot := func(name string) {
		if dir := os.Getenv("SCREENSHOTS"); dir != "" {
			must(p.Screenshot(ctx, filepath.Join(dir, "handin-"+name+".png")))
		}
	}
	must(p.Navigate(ctx, c.http.URL+"/hand-in/"))
	must(p.Eval(ctx, fmt.Sprintf(`document.querySelector('input[name=name]').value = %q;
		document.querySelector('input[name=code]').value = %q;
		document.querySelector('form.login button').click()`, "zoe martin-o'neil", c.codes[zoe]), nil))
	must(p.Wait(ctx, `document.querySelector('form.upload')`))
	for i, v := range []string{"# works", "# broken"} {
		must(p.Eval(ctx, fmt.Sprintf(`(async () => { const fd = new FormData(); fd.append('bot', new Blob([%q]), 'a.py');
			await fetch('/hand-in/game/virus', {method: 'POST', body: fd}); })()`, v+"\n"+pyBot), nil))
		waitDone(t, c, zoe, i+1)
	}
	const red, green = "rgb(170, 0, 0)", "rgb(0, 119, 0)"
	color := func(sel string) string {
		var got string
		must(p.Eval(ctx, fmt.Sprintf(`getComputedStyle(document.querySelector(%q)).color`, sel), &got))
		return got
	}
	must(p.Navigate(ctx, c.http.URL+"/hand-in/"))
	if got := color("#plays-virus"); got != red {
		t.Errorf("what the tournament plays, a NOT READY version, is written in %s, want red", got)
	}
	if got := color("strong.current"); got != red {
		t.Errorf("\"in the tournament\" beside a NOT READY version is written in %s, want red", got)
	}
	shot("not-ready")
	must(p.Eval(ctx, `document.querySelector('ol.versions li:last-child a').click()`, nil))
	must(p.Wait(ctx, `document.querySelector('form.choose')`))
	shot("choose")
	must(p.Eval(ctx, `document.querySelector('form.choose button').click()`, nil))
	must(p.Wait(ctx, `document.querySelector('#plays')?.textContent.includes('the one in the tournament')`))
	if got := color("#plays"); got != green {
		t.Errorf("the working version put back: %s, want green", got)
	}
	if got, _ := os.ReadFile(filepath.Join(c.subs, "virus", "zoe-martin-o-neil.py")); !strings.HasPrefix(string(got), "# works") {
		t.Errorf("her bot after she put back her working version: %.20q", got)
	}
	for _, pr := range p.Problems() {
		t.Errorf("the browser reported: %s", pr)
	}
}

// TestBrowserFollowsTheCheck: the page of a version being checked shows
// how far the check has gone, from its event stream, and shows the report
// when the check ends, in both languages.
func TestBrowserFollowsTheCheck(t *testing.T) {
	b := browsertest.Start(t)
	p := b.NewPage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for lang, playing := range map[string]string{"en": "1 played", "fr": "1 jouée"} {
		bc := &blockingChecker{release: make(chan struct{})}
		c := newClass(t, Options{Checker: bc, Games: []string{"virus"}}, "alice")
		loc := c.student("alice").location("virus", "a.py", []byte(pyBot))
		if err := p.SetHeaders(ctx, map[string]string{"Accept-Language": lang}); err != nil {
			t.Fatal(err)
		}
		steps := []string{
			c.http.URL + "/hand-in/",
			`document.querySelector('input[name=name]').value = 'alice'`,
			`document.querySelector('input[name=code]').value = '` + c.codes["alice"] + `'`,
			`document.querySelector('form.login button').click()`,
		}
		if err := p.Navigate(ctx, steps[0]); err != nil {
			t.Fatal(err)
		}
		for _, js := range steps[1:] {
			if err := p.Eval(ctx, js, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.Wait(ctx, `document.querySelector('form.upload')`); err != nil {
			t.Fatal(err)
		}
		if err := p.Navigate(ctx, c.http.URL+loc); err != nil {
			t.Fatal(err)
		}
		if err := p.Wait(ctx, `document.getElementById('progress')?.textContent.includes('`+playing+`')`); err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		if dir := os.Getenv("SCREENSHOTS"); dir != "" {
			p.Screenshot(ctx, filepath.Join(dir, "handin-progress-"+lang+".png"))
		}
		close(bc.release)
		if err := p.Wait(ctx, `!document.getElementById('progress') && document.querySelector('.status[data-status=done]')`); err != nil {
			t.Fatalf("%s: the report after the check: %v", lang, err)
		}
	}
}
