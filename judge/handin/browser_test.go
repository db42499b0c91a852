package handin

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"botjudge/judge/screen/browsertest"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// tab is a Chromium tab on a class's server, whose steps fail the test with
// what the page said.
type tab struct {
	t    *testing.T
	p    *browsertest.Page
	ctx  context.Context
	base string
	// patience bounds each wait: a check in the real sandbox takes long,
	// a page on the fake runner fails sooner.
	patience time.Duration
}

func newTab(ctx context.Context, t *testing.T, b *browsertest.Browser, c *class) *tab {
	return &tab{t: t, p: b.NewPage(t), ctx: ctx, base: c.http.URL, patience: time.Minute}
}

// open loads path of the server.
func (tb *tab) open(path string) {
	tb.t.Helper()
	if err := tb.p.Navigate(tb.ctx, tb.base+path); err != nil {
		tb.t.Fatal(err)
	}
}

// wait waits up to the tab's patience for expr to be truthy.
func (tb *tab) wait(expr string) {
	tb.t.Helper()
	wctx, cancel := context.WithTimeout(tb.ctx, tb.patience)
	defer cancel()
	if err := tb.p.Wait(wctx, expr); err != nil {
		var text string
		tb.p.Eval(tb.ctx, `document.body.innerText.slice(0, 800)`, &text)
		tb.t.Fatalf("%v\npage text: %s", err, text)
	}
}

// eval evaluates expr, decoding its value into out unless nil.
func (tb *tab) eval(expr string, out any) {
	tb.t.Helper()
	if err := tb.p.Eval(tb.ctx, expr, out); err != nil {
		tb.t.Fatal(err)
	}
}

// shot keeps what the tab shows in $SCREENSHOTS, when set.
func (tb *tab) shot(name string) {
	tb.t.Helper()
	if dir := os.Getenv("SCREENSHOTS"); dir != "" {
		if err := tb.p.Screenshot(tb.ctx, filepath.Join(dir, "handin-"+name+".png")); err != nil {
			tb.t.Error(err)
		}
	}
}

// logIn logs in on the log-in page the tab shows with name and code, as a
// student types them, and waits for their page, headed with display.
func (tb *tab) logIn(name, code, display string) {
	tb.t.Helper()
	tb.eval(fmt.Sprintf(`document.querySelector('input[name=name]').value = %q`, name), nil)
	tb.eval(`document.querySelector('input[name=code]').value = '`+code+`'`, nil)
	tb.eval(`document.querySelector('form.login button').click()`, nil)
	tb.wait(fmt.Sprintf(`document.querySelector('h1')?.textContent === %q && document.querySelector('form.upload')`, display))
}

// handIn chooses file in the page's upload form, as the file picker
// would, presses Hand in, and waits for the version's page.
func (tb *tab) handIn(file string) {
	tb.t.Helper()
	var node struct {
		Result struct {
			ObjectID string `json:"objectId"`
		} `json:"result"`
	}
	if err := tb.p.Call(tb.ctx, "Runtime.evaluate", map[string]any{"expression": `document.querySelector('form.upload input[type=file]')`}, &node); err != nil || node.Result.ObjectID == "" {
		tb.t.Fatalf("no file input: %v", err)
	}
	if err := tb.p.Call(tb.ctx, "DOM.setFileInputFiles", map[string]any{"files": []string{file}, "objectId": node.Result.ObjectID}, nil); err != nil {
		tb.t.Fatal(err)
	}
	tb.eval(`document.querySelector('form.upload button').click()`, nil)
	tb.wait(`location.pathname.startsWith('/hand-in/v/')`)
}

// logOut presses Log out on the hand-in page the tab shows and waits for
// the log-in page.
func (tb *tab) logOut() {
	tb.t.Helper()
	tb.eval(`document.querySelector('form[action="/hand-in/logout"] button').click()`, nil)
	tb.wait(`document.querySelector('form.login')`)
}

// fetch asks for path from the tab's page, as its scripts do: with the
// browser's cookie.
func (tb *tab) fetch(path string) (int, string) {
	tb.t.Helper()
	var got struct {
		Status int    `json:"status"`
		Body   string `json:"body"`
	}
	tb.eval(fmt.Sprintf(`fetch(%q).then(async (r) => ({status: r.status, body: await r.text()}))`, path), &got)
	return got.Status, got.Body
}

// cookies are the browser's cookies for the class's server, the HttpOnly
// session's too, which the page's scripts cannot read.
func (tb *tab) cookies() []*http.Cookie {
	tb.t.Helper()
	// DevTools' results are decoded with their JSON's case.
	var got struct {
		Cookies []struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		} `json:"cookies"`
	}
	if err := tb.p.Call(tb.ctx, "Network.getCookies", map[string]any{"urls": []string{tb.base}}, &got); err != nil || len(got.Cookies) == 0 {
		tb.t.Fatalf("the browser's cookies: %+v %v", got, err)
	}
	var out []*http.Cookie
	for _, c := range got.Cookies {
		out = append(out, &http.Cookie{Name: c.Name, Value: c.Value})
	}
	return out
}

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

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	tb := newTab(ctx, t, b, c)
	tb.open("/hand-in/")
	tb.shot("login")
	tb.logIn(zoe, c.codes[zoe], zoe)

	tb.handIn(mine)
	// The page follows the check live until its report is there.
	tb.wait(`document.getElementById('ready') && document.querySelector('a.replay')`)
	tb.shot("report")
	tb.eval(`document.querySelector('a.replay').click()`, nil)
	tb.wait(`location.pathname.startsWith('/game/') && document.querySelector('.game-view') && document.body.innerText.includes('first_cell')`)
	tb.shot("sparring")
	// The sparring game's tournament is private: a link to its pages
	// (standings, bots, pairing) would lead the student to "not found".
	var links string
	if err := tb.p.Eval(ctx, `[...document.querySelectorAll('a[href^="/t/"]')].map((a) => a.getAttribute('href')).join(' ')`, &links); err != nil || links != "" {
		t.Errorf("the sparring replay links to the private tournament's pages: %q (%v)", links, err)
	}
	tb.eval(`document.querySelector('a.handin').click()`, nil)
	tb.wait(`location.pathname === '/hand-in/' && document.querySelector('form.upload')`)

	tb.open("/hand-in/")
	os.WriteFile(mine, append([]byte("# version 2\n"), greedy...), 0o644)
	tb.handIn(mine)
	tb.open("/hand-in/")
	tb.wait(`document.querySelectorAll('ol.versions li').length === 2`)
	tb.wait(`document.querySelector('#plays-virus')?.textContent.includes('In the tournament')`)
	tb.shot("versions")
	if got, _ := os.ReadFile(filepath.Join(c.subs, "virus", "zoe-martin-o-neil.py")); !strings.HasPrefix(string(got), "# version 2") {
		t.Errorf("Zoé's bot after her second version: %.40q (folder %v)", got, c.entries("virus"))
	}

	refusedAfter(tb, c, deadline)
	for _, pr := range tb.p.Problems() {
		if !strings.Contains(pr, "403") {
			t.Errorf("the browser reported: %s", pr)
		}
	}
}

// refusedAfter: past the deadline, Zoé's page has no upload form, a form
// kept open from before is refused with one line, and she keeps her two
// versions.
func refusedAfter(tb *tab, c *class, deadline time.Time) {
	tb.t.Helper()
	after := deadline.Add(time.Minute)
	c.now.Store(&after)
	tb.open("/hand-in/")
	tb.wait(`document.querySelector('.deadline.closed') && !document.querySelector('form.upload')`)
	tb.shot("closed")
	var line string
	err := tb.p.Eval(tb.ctx, `(async () => { const fd = new FormData(); fd.append('bot', new Blob(['x']), 'a.py');
		const r = await fetch('/hand-in/game/virus', {method: 'POST', body: fd});
		return r.status + ' ' + new DOMParser().parseFromString(await r.text(), 'text/html').getElementById('refused').textContent; })()`, &line)
	if err != nil || !strings.HasPrefix(line, "403 ") || !strings.Contains(line, deadline.Format("2006-01-02 15:04")) {
		tb.t.Errorf("a hand-in after the deadline: %q %v", line, err)
	}
	if vs := c.versions(zoe, "virus"); len(vs) != 2 {
		tb.t.Errorf("%d versions kept, want 2", len(vs))
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
