package browsertest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"botjudge/judge/screen/browsertest"
)

const page = `<!doctype html><title>t</title><body><p id=k>none</p><script>
document.addEventListener('keydown', e => { document.getElementById('k').textContent = e.key === ' ' ? 'space' : e.key; });
if (location.search === '?bad') {
  console.error('boom', 42); setTimeout(() => { throw new Error('late'); }, 0);
  document.body.append(Object.assign(document.createElement('img'), {src: '/missing.png'}));
}
</script>`

func TestPageBasics(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
		case "/favicon.ico":
			w.WriteHeader(http.StatusNoContent)
			return
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page + "<i>" + r.Header.Get("Accept-Language") + "</i>"))
	}))
	defer srv.Close()
	b := browsertest.Start(t)
	p := b.NewPage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	if err := p.SetHeaders(ctx, map[string]string{"Accept-Language": "fr-FR"}); err != nil {
		t.Fatal(err)
	}
	if err := p.Navigate(ctx, srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	var size [3]string
	if err := p.Eval(ctx, `[String(innerWidth), String(innerHeight), document.querySelector('i').textContent]`, &size); err != nil {
		t.Fatal(err)
	}
	if size != [3]string{"1920", "1080", "fr-FR"} {
		t.Errorf("viewport and header = %v, want 1920 1080 fr-FR", size)
	}
	for key, want := range map[string]string{" ": "space", "ArrowRight": "ArrowRight", "End": "End"} {
		if err := p.Press(ctx, key); err != nil {
			t.Fatal(err)
		}
		if err := p.Wait(ctx, `document.getElementById('k').textContent === '`+want+`'`); err != nil {
			t.Fatal(err)
		}
	}
	// A promise is awaited: one of false never satisfies the wait, one of
	// true does once it resolves.
	short, cancelShort := context.WithTimeout(ctx, 300*time.Millisecond)
	err := p.Wait(short, `Promise.resolve(false)`)
	cancelShort()
	if err == nil {
		t.Errorf("a promise of false satisfied the wait")
	}
	began := time.Now()
	if err := p.Wait(ctx, `new Promise((r) => setTimeout(() => r(true), 200))`); err != nil || time.Since(began) < 200*time.Millisecond {
		t.Errorf("a promise of true after 200 ms satisfied the wait after %v (%v)", time.Since(began), err)
	}
	if got := p.Problems(); len(got) != 0 {
		t.Errorf("clean page has problems: %q", got)
	}
	shot := filepath.Join(t.TempDir(), "p.png")
	if err := p.Screenshot(ctx, shot); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(shot); !strings.HasPrefix(string(data), "\x89PNG") {
		t.Errorf("screenshot is not a PNG")
	}

	if err := p.Navigate(ctx, srv.URL+"/?bad"); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(ctx, `true`); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(p.Problems()) < 3 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	got := strings.Join(p.Problems(), "\n")
	for _, want := range []string{"console.error: boom 42", "late", "missing.png"} {
		if !strings.Contains(got, want) {
			t.Errorf("problems %q lack %q", got, want)
		}
	}
	var bad struct{}
	if err := p.Eval(ctx, `nosuchname`, &bad); err == nil {
		t.Errorf("eval of an undefined name succeeded")
	}
}

// A page taller than the window has an ordinary scrollbar, which takes its
// width from the page, as on a person's computer; a phone's overlays the
// page. $SCREENSHOTS keeps the picture (scrollbars.png).
func TestOrdinaryScrollbars(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>t</title><body style="margin:0"><div style="height:300vh;background:linear-gradient(#56b4e9,#e69f00)"></div>`))
	}))
	defer srv.Close()
	p := browsertest.Start(t).NewPage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	width := func(w, h int, mobile bool) int {
		t.Helper()
		if err := p.Call(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{"width": w, "height": h, "deviceScaleFactor": 1, "mobile": mobile}, nil); err != nil {
			t.Fatal(err)
		}
		if err := p.Navigate(ctx, srv.URL); err != nil {
			t.Fatal(err)
		}
		var room int
		if err := p.Eval(ctx, `innerWidth - document.documentElement.clientWidth`, &room); err != nil {
			t.Fatal(err)
		}
		return room
	}
	for _, size := range [][2]int{{1920, 1080}, {1366, 768}} {
		if room := width(size[0], size[1], false); room < 10 {
			t.Errorf("at %d×%d the scrollbar takes %d px: it is hidden or overlays the page", size[0], size[1], room)
		}
	}
	if dir := os.Getenv("SCREENSHOTS"); dir != "" {
		width(1366, 768, false)
		if err := p.Screenshot(ctx, filepath.Join(dir, "scrollbars.png")); err != nil {
			t.Fatal(err)
		}
	}
	if room := width(390, 844, true); room != 0 {
		t.Errorf("a phone's scrollbar takes %d px, want none (it overlays the page)", room)
	}
}
