// Package browsertest drives a real headless Chromium from Go tests, with no
// third-party module: it starts Debian's chromium with
// --remote-debugging-pipe and speaks the DevTools protocol over the two pipes
// (fd 3 carries commands to the browser, fd 4 its answers and events, each
// message JSON ended by a NUL byte).
//
// Only what the screen's tests need is here: open a page, navigate, evaluate
// JavaScript, press keys, take screenshots, and collect every console error,
// uncaught exception and failed load, so that a test can insist there were
// none.
package browsertest

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// Width and Height are the projector's size: every page is 1920×1080.
const (
	Width  = 1920
	Height = 1080
)

// Browser is one running Chromium.
type Browser struct {
	cmd *exec.Cmd
	out *os.File // commands to the browser (its fd 3)

	writeMu sync.Mutex
	mu      sync.Mutex
	nextID  int64
	waiting map[int64]chan message
	pages   map[string]*Page // by session id
	dead    error            // set when the pipe from the browser closed
	done    chan struct{}
}

// message is any DevTools message: an answer has an ID, an event a Method.
type message struct {
	ID        int64           `json:"id,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// Path finds the browser: $CHROMIUM, else chromium on the PATH.
func Path() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	return exec.LookPath("chromium")
}

// Start launches a headless Chromium for the test and stops it when the test
// ends. Without a browser the test is skipped, except under CI=true where a
// skipped browser test would hide that the pages were never checked.
func Start(t testing.TB) *Browser {
	t.Helper()
	path, err := Path()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("chromium is required under CI=true: %v", err)
		}
		t.Skipf("no chromium to drive the pages (apt-get install chromium): %v", err)
	}
	toBrowser, cmds, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	answers, fromBrowser, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path,
		"--headless=new", "--no-sandbox", "--remote-debugging-pipe",
		fmt.Sprintf("--window-size=%d,%d", Width, Height),
		"--user-data-dir="+t.TempDir(),
		"--no-first-run", "--no-default-browser-check", "--disable-extensions",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--mute-audio", "--lang=en-US",
		"about:blank")
	cmd.ExtraFiles = []*os.File{toBrowser, fromBrowser} // fd 3 and fd 4
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	toBrowser.Close()
	fromBrowser.Close()
	b := &Browser{cmd: cmd, out: cmds, waiting: map[int64]chan message{}, pages: map[string]*Page{}, done: make(chan struct{})}
	go b.read(answers)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		b.call(ctx, "", "Browser.close", nil, nil)
		select {
		case <-b.done:
		case <-ctx.Done():
		}
		cmds.Close()
		wait := make(chan error, 1)
		go func() { wait <- cmd.Wait() }()
		select {
		case <-wait:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-wait
		}
		answers.Close()
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("chromium's stderr:\n%s", tail(stderr.String(), 3000))
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := b.call(ctx, "", "Browser.getVersion", nil, nil); err != nil {
		t.Fatalf("chromium does not answer on its pipe: %v\n%s", err, tail(stderr.String(), 3000))
	}
	return b
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// read dispatches everything the browser writes until the pipe closes.
func (b *Browser) read(r *os.File) {
	defer close(b.done)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		raw, err := br.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			b.dead = fmt.Errorf("browser pipe closed: %w", err)
			for id, ch := range b.waiting {
				close(ch)
				delete(b.waiting, id)
			}
			b.mu.Unlock()
			return
		}
		var m message
		if json.Unmarshal(raw[:len(raw)-1], &m) != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch, ok := b.waiting[m.ID]; ok {
				delete(b.waiting, m.ID)
				ch <- m
			}
		} else if p := b.pages[m.SessionID]; p != nil {
			p.event(m)
		}
		b.mu.Unlock()
	}
}

// call sends one command and decodes its result into out (if not nil).
func (b *Browser) call(ctx context.Context, session, method string, params, out any) error {
	if params == nil {
		params = struct{}{}
	}
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	ch := make(chan message, 1)
	b.mu.Lock()
	if b.dead != nil {
		b.mu.Unlock()
		return b.dead
	}
	b.nextID++
	id := b.nextID
	b.waiting[id] = ch
	b.mu.Unlock()
	req, err := json.Marshal(message{ID: id, SessionID: session, Method: method, Params: p})
	if err != nil {
		return err
	}
	b.writeMu.Lock()
	_, err = b.out.Write(append(req, 0))
	b.writeMu.Unlock()
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: browser gone", method)
		}
		if m.Error != nil {
			return fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(m.Result, out)
		}
		return nil
	case <-ctx.Done():
		b.mu.Lock()
		delete(b.waiting, id)
		b.mu.Unlock()
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// Page is one tab.
type Page struct {
	b       *Browser
	session string

	// guarded by b.mu
	problems []string
	loads    []chan struct{}
}

// NewPage opens a tab of 1920×1080 CSS pixels, with ordinary scrollbars,
// and closes it when the test ends.
func (b *Browser) NewPage(t testing.TB) *Page {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		t.Fatal(err)
	}
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached); err != nil {
		t.Fatal(err)
	}
	p := &Page{b: b, session: attached.SessionID}
	b.mu.Lock()
	b.pages[p.session] = p
	b.mu.Unlock()
	for _, method := range []string{"Page.enable", "Runtime.enable", "Log.enable", "Network.enable"} {
		if err := p.Call(ctx, method, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	err := p.Call(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{
		"width": Width, "height": Height, "deviceScaleFactor": 1, "mobile": false}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Scrollbars as a person's browser has them: a computer's ordinary
	// ones, which take their width from a page that scrolls (a phone's,
	// under "mobile" emulation, overlay the page). Headless shells hide
	// them unless told (chrome-headless-shell's --hide-scrollbars).
	if err := p.Call(ctx, "Emulation.setScrollbarsHidden", map[string]any{"hidden": false}, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		b.call(ctx, "", "Target.closeTarget", map[string]any{"targetId": target.TargetID}, nil)
	})
	return p
}

// event records what a test must know about; the caller holds b.mu.
func (p *Page) event(m message) {
	switch m.Method {
	case "Page.loadEventFired":
		for _, ch := range p.loads {
			close(ch)
		}
		p.loads = nil
	case "Runtime.consoleAPICalled":
		var e struct {
			Type string `json:"type"`
			Args []struct {
				Value       any    `json:"value"`
				Description string `json:"description"`
			} `json:"args"`
		}
		if json.Unmarshal(m.Params, &e) == nil && (e.Type == "error" || e.Type == "assert") {
			var parts []string
			for _, a := range e.Args {
				if a.Description != "" {
					parts = append(parts, a.Description)
				} else {
					parts = append(parts, fmt.Sprint(a.Value))
				}
			}
			p.problems = append(p.problems, "console."+e.Type+": "+strings.Join(parts, " "))
		}
	case "Runtime.exceptionThrown":
		var e struct {
			Details struct {
				Text      string `json:"text"`
				Exception struct {
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		if json.Unmarshal(m.Params, &e) == nil {
			p.problems = append(p.problems, "uncaught: "+e.Details.Text+" "+e.Details.Exception.Description)
		}
	case "Log.entryAdded":
		var e struct {
			Entry struct {
				Level string `json:"level"`
				Text  string `json:"text"`
				URL   string `json:"url"`
			} `json:"entry"`
		}
		if json.Unmarshal(m.Params, &e) == nil && e.Entry.Level == "error" {
			p.problems = append(p.problems, "log: "+e.Entry.Text+" "+e.Entry.URL)
		}
	}
}

// Call sends a DevTools command to this tab.
func (p *Page) Call(ctx context.Context, method string, params, out any) error {
	return p.b.call(ctx, p.session, method, params, out)
}

// Problems lists the console errors, uncaught exceptions and failed loads
// seen so far.
func (p *Page) Problems() []string {
	p.b.mu.Lock()
	defer p.b.mu.Unlock()
	return append([]string(nil), p.problems...)
}

// SetHeaders sends these HTTP headers with every request of the tab, such as
// Accept-Language.
func (p *Page) SetHeaders(ctx context.Context, h map[string]string) error {
	return p.Call(ctx, "Network.setExtraHTTPHeaders", map[string]any{"headers": h}, nil)
}

// Navigate loads url and waits for its load event.
func (p *Page) Navigate(ctx context.Context, url string) error {
	loaded := make(chan struct{})
	p.b.mu.Lock()
	p.loads = append(p.loads, loaded)
	p.b.mu.Unlock()
	var res struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.Call(ctx, "Page.navigate", map[string]any{"url": url}, &res); err != nil {
		return err
	}
	if res.ErrorText != "" {
		return fmt.Errorf("navigate %s: %s", url, res.ErrorText)
	}
	select {
	case <-loaded:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("navigate %s: no load event: %w", url, ctx.Err())
	}
}

// Eval evaluates a JavaScript expression in the page, awaiting it if it is a
// promise, and decodes its JSON value into out (if not nil).
func (p *Page) Eval(ctx context.Context, expr string, out any) error {
	var res struct {
		Result struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := p.Call(ctx, "Runtime.evaluate", map[string]any{
		"expression": expr, "returnByValue": true, "awaitPromise": true}, &res)
	if err != nil {
		return err
	}
	if res.Exception != nil {
		return fmt.Errorf("eval %q: %s %s", clip(expr), res.Exception.Text, res.Exception.Exception.Description)
	}
	if out == nil {
		return nil
	}
	if len(res.Result.Value) == 0 {
		return fmt.Errorf("eval %q: no JSON value (%s)", clip(expr), res.Result.Type)
	}
	return json.Unmarshal(res.Result.Value, out)
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// Wait evaluates expr every 50 ms until it is truthy.
func (p *Page) Wait(ctx context.Context, expr string) error {
	var last error
	for {
		var ok bool
		last = p.Eval(ctx, "!!("+expr+")", &ok)
		if last == nil && ok {
			return nil
		}
		select {
		case <-ctx.Done():
			if last != nil {
				return fmt.Errorf("waiting for %s: %w (last: %v)", expr, ctx.Err(), last)
			}
			return fmt.Errorf("waiting for %s: %w", expr, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// keys are the DevTools descriptions of the keys tests press.
var keys = map[string]struct {
	code string
	vk   int
	text string
}{
	" ":          {"Space", 32, " "},
	"ArrowLeft":  {"ArrowLeft", 37, ""},
	"ArrowRight": {"ArrowRight", 39, ""},
	"ArrowUp":    {"ArrowUp", 38, ""},
	"ArrowDown":  {"ArrowDown", 40, ""},
	"Home":       {"Home", 36, ""},
	"End":        {"End", 35, ""},
	"Escape":     {"Escape", 27, ""},
	"+":          {"NumpadAdd", 107, "+"},
	"-":          {"NumpadSubtract", 109, "-"},
	"f":          {"KeyF", 70, "f"},
}

// Press types one key (" ", "ArrowRight", "End", "+"...) as a user would: the
// page sees real keydown and keyup events.
func (p *Page) Press(ctx context.Context, key string) error {
	k, ok := keys[key]
	if !ok {
		return fmt.Errorf("browsertest: key %q unknown", key)
	}
	down := map[string]any{"type": "keyDown", "key": key, "code": k.code, "windowsVirtualKeyCode": k.vk}
	if k.text != "" {
		down["text"] = k.text
	} else {
		down["type"] = "rawKeyDown"
	}
	if err := p.Call(ctx, "Input.dispatchKeyEvent", down, nil); err != nil {
		return err
	}
	return p.Call(ctx, "Input.dispatchKeyEvent", map[string]any{"type": "keyUp", "key": key, "code": k.code, "windowsVirtualKeyCode": k.vk}, nil)
}

// Screenshot writes the visible 1920×1080 page as a PNG file.
func (p *Page) Screenshot(ctx context.Context, path string) error {
	var res struct {
		Data string `json:"data"`
	}
	if err := p.Call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &res); err != nil {
		return err
	}
	png, err := base64.StdEncoding.DecodeString(res.Data)
	if err != nil {
		return err
	}
	if len(png) == 0 {
		return errors.New("browsertest: empty screenshot")
	}
	return os.WriteFile(path, png, 0o644)
}
