// Package browsertest drives a real headless Chromium from Go tests, through
// chromedp: it starts Debian's chromium, opens tabs of the projector's size,
// and collects every console error, uncaught exception and failed load, so
// that a test can insist there were none.
//
// Only what the screen's tests need is here: open a page, navigate, evaluate
// JavaScript, press keys, take screenshots, and send any other DevTools
// command by name.
package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Width and Height are the projector's size: every page is 1920×1080.
const (
	Width  = 1920
	Height = 1080
)

// Browser is one running Chromium.
type Browser struct {
	ctx context.Context // chromedp's, of the browser's first tab
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
	out := new(output)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.WindowSize(Width, Height),
		// Scrollbars as a person's browser has them (see NewPage).
		chromedp.Flag("hide-scrollbars", false),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("lang", "en-US"),
		chromedp.CombinedOutput(out))
	alloc, stopAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, stop := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		closing, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		chromedp.Cancel(closing)
		stop()
		stopAlloc()
		if t.Failed() && out.Len() > 0 {
			t.Logf("chromium's output:\n%s", out.Tail(3000))
		}
	})
	// The first run starts the browser, which lives as long as ctx: no
	// deadline on it.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v\n%s", path, err, out.Tail(3000))
	}
	return &Browser{ctx: ctx}
}

// output keeps what the browser prints, for a failed test's log.
type output struct {
	mu sync.Mutex
	b  strings.Builder
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.Write(p)
}

func (o *output) Len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.Len()
}

// Tail is the last n bytes printed.
func (o *output) Tail(n int) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if s := o.b.String(); len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return o.b.String()
}

// Page is one tab.
type Page struct {
	ctx context.Context // chromedp's, of the tab

	mu       sync.Mutex
	problems []string
}

// NewPage opens a tab of 1920×1080 CSS pixels, with ordinary scrollbars,
// and closes it when the test ends.
func (b *Browser) NewPage(t testing.TB) *Page {
	t.Helper()
	p := &Page{}
	ctx, closeTab := chromedp.NewContext(b.ctx, chromedp.WithListener(p.event))
	t.Cleanup(closeTab)
	p.ctx = ctx
	// The first run opens the tab, whose reading lives as long as the
	// context of that run: ctx itself, not one of run's.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	setup, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := p.do(setup, chromedp.Func(func(ctx context.Context, tab *chromedp.Target) error {
		_, err := cdp.Call(ctx, tab, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: Width, Height: Height, DeviceScaleFactor: 1, Mobile: false})
		if err != nil {
			return err
		}
		// Scrollbars as a person's browser has them: a computer's
		// ordinary ones, which take their width from a page that
		// scrolls (a phone's, under "mobile" emulation, overlay the
		// page). Headless browsers hide them unless told.
		_, err = cdp.Call(ctx, tab, emulation.SetScrollbarsHidden, emulation.SetScrollbarsHiddenParams{Hidden: false})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// event records what a test must know about. chromedp calls it from the
// tab's reading goroutine: it must only take notes.
func (p *Page) event(ev any) {
	var problem string
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type != runtime.ConsoleAPICalledTypeError && e.Type != runtime.ConsoleAPICalledTypeAssert {
			return
		}
		var parts []string
		for _, a := range e.Args {
			parts = append(parts, describe(a))
		}
		problem = "console." + string(e.Type) + ": " + strings.Join(parts, " ")
	case *runtime.EventExceptionThrown:
		problem = "uncaught: " + e.ExceptionDetails.Text
		if x := e.ExceptionDetails.Exception; x != nil {
			problem += " " + x.Description
		}
	case *log.EventEntryAdded:
		if e.Entry.Level != log.EntryLevelError {
			return
		}
		problem = "log: " + e.Entry.Text + " " + e.Entry.URL
	default:
		return
	}
	p.mu.Lock()
	p.problems = append(p.problems, problem)
	p.mu.Unlock()
}

// describe says a console argument as the console would: a description for
// an object, else the value.
func describe(a *runtime.RemoteObject) string {
	if a.Description != "" {
		return a.Description
	}
	var v any
	if json.Unmarshal(a.Value, &v) != nil {
		return string(a.Value)
	}
	return fmt.Sprint(v)
}

// run runs the action in the tab, for as long as ctx lets it.
func run[T any](ctx context.Context, p *Page, a chromedp.Action[T]) (T, error) {
	tab, cancel := context.WithCancel(p.ctx)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	v, err := chromedp.Run(tab, a)
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("%w (%w)", err, ctx.Err())
	}
	return v, err
}

func (p *Page) do(ctx context.Context, a chromedp.Action[chromedp.Void]) error {
	_, err := run(ctx, p, a)
	return err
}

// Call sends a DevTools command to this tab, its parameters and result as
// JSON objects.
func (p *Page) Call(ctx context.Context, method string, params, out any) error {
	return p.do(ctx, chromedp.Func(func(ctx context.Context, tab *chromedp.Target) error {
		if err := tab.Call(ctx, method, params, out); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		return nil
	}))
}

// Problems lists the console errors, uncaught exceptions and failed loads
// seen so far.
func (p *Page) Problems() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.problems...)
}

// SetHeaders sends these HTTP headers with every request of the tab, such as
// Accept-Language.
func (p *Page) SetHeaders(ctx context.Context, h map[string]string) error {
	headers := network.Headers{}
	for k, v := range h {
		headers[k] = v
	}
	return p.do(ctx, chromedp.Func(func(ctx context.Context, tab *chromedp.Target) error {
		_, err := cdp.Call(ctx, tab, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: headers})
		return err
	}))
}

// Navigate loads url and waits for its load event.
func (p *Page) Navigate(ctx context.Context, url string) error {
	if err := p.do(ctx, chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("navigate %s: %w", url, err)
	}
	return nil
}

// Eval evaluates a JavaScript expression in the page, awaiting it if it is a
// promise, and decodes its JSON value into out (if not nil).
func (p *Page) Eval(ctx context.Context, expr string, out any) error {
	value, err := run(ctx, p, chromedp.Evaluate[*runtime.RemoteObject](expr, chromedp.EvalAwaitPromise, chromedp.EvalAsValue))
	if err != nil {
		return fmt.Errorf("eval %q: %w", clip(expr), err)
	}
	if out == nil {
		return nil
	}
	if len(value.Value) == 0 {
		return fmt.Errorf("eval %q: no JSON value (%s)", clip(expr), value.Type)
	}
	return json.Unmarshal(value.Value, out)
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// Wait evaluates expr every 50 ms until it is truthy; a promise is awaited
// first (a promise itself is always truthy).
func (p *Page) Wait(ctx context.Context, expr string) error {
	var last error
	for {
		var ok bool
		last = p.Eval(ctx, "Promise.resolve(("+expr+")).then((v) => !!v)", &ok)
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

// keys are the named keys tests press, as chromedp types them.
var keys = map[string]string{
	"ArrowLeft": kb.ArrowLeft, "ArrowRight": kb.ArrowRight, "ArrowUp": kb.ArrowUp, "ArrowDown": kb.ArrowDown,
	"Home": kb.Home, "End": kb.End, "Escape": kb.Escape,
}

// Press types one key (" ", "ArrowRight", "End", "+"...) as a user would: the
// page sees real keydown and keyup events.
func (p *Page) Press(ctx context.Context, key string) error {
	k, ok := keys[key]
	if !ok && len([]rune(key)) == 1 {
		k, ok = key, true
	}
	if !ok {
		return fmt.Errorf("browsertest: key %q unknown", key)
	}
	return p.do(ctx, chromedp.KeyEvent(k))
}

// Screenshot writes the visible 1920×1080 page as a PNG file.
func (p *Page) Screenshot(ctx context.Context, path string) error {
	png, err := run(ctx, p, chromedp.CaptureScreenshot())
	if err != nil {
		return err
	}
	if len(png) == 0 {
		return errors.New("browsertest: empty screenshot")
	}
	return os.WriteFile(path, png, 0o644)
}
