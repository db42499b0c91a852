package httpbot_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"botjudge/games/battleships"
	"botjudge/games/fault"
	"botjudge/judge/contest"
	"botjudge/sandbox"
	"botjudge/sandbox/httpbot"
	"botjudge/sandbox/httpbot/httpbottest"
)

func limits() sandbox.Limits {
	lim := sandbox.DefaultLimits()
	lim.Move = 300 * time.Millisecond
	return lim
}

// margin is what a fault may take beyond the move limit: the judge's own
// work on a loaded machine, far from a bot that never answers.
const margin = 2 * time.Second

func start(t *testing.T, path string, lim sandbox.Limits) sandbox.Session {
	t.Helper()
	s, err := httpbot.New().Start(context.Background(), sandbox.Bot{Name: "b", Path: path, Protocol: sandbox.ProtocolProgram}, lim, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// TestGameOfBattleships: two bots reached by URL play a whole game of
// BrainJar battleships through the judge's own pipeline, without Docker.
func TestGameOfBattleships(t *testing.T) {
	dir := t.TempDir()
	seats := []contest.Seat{
		{Name: "one", Bot: sandbox.Bot{Name: "one", Path: httpbottest.Serve(t, dir, "one", httpbottest.Battleships()), Protocol: sandbox.ProtocolProgram}},
		{Name: "two", Bot: sandbox.Bot{Name: "two", Path: httpbottest.Serve(t, dir, "two", httpbottest.Battleships()), Protocol: sandbox.ProtocolProgram}},
	}
	_, played, err := contest.Pipeline{Run: httpbot.New(), Rules: battleships.Rules{}, Limits: limits()}.Play(context.Background(), contest.Fixture{Seed: 1, Seats: seats}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range played.Steps {
		if st.Verdict != fault.None {
			t.Fatalf("seat %d: %s: %s (%s)", st.Seat, st.Verdict, st.Reason, st.Detail)
		}
	}
	// The same bot in both seats: the first to shoot sinks the other fleet
	// first.
	if o := played.Outcome; len(played.Steps) < 30 || o.Rank[0] != 1 || o.Rank[1] != 2 || o.Score[0] != 14 {
		t.Errorf("%d steps, outcome %+v; want a whole game won by seat 0", len(played.Steps), o)
	}
	for i, log := range played.Logs {
		if log != "" {
			t.Errorf("seat %d's log = %q, want nothing: it made no fault", i, log)
		}
	}
}

// TestAnswer: the judge POSTs its request exactly, as JSON, and takes any
// 2xx answer that is one JSON value, compacted.
func TestAnswer(t *testing.T) {
	var got struct {
		method, ctype string
		body          []byte
	}
	path := httpbottest.Serve(t, t.TempDir(), "b", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.method, got.ctype = r.Method, r.Header.Get("Content-Type")
		got.body, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/html") // PHP's default: not checked
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, "  {\"play\": \"1-1\",\n \"comment\": \"é\"}\n")
	}))
	s := start(t, path, limits())
	if r := s.Ready(); r.Fault != fault.None {
		t.Fatalf("Ready = %+v", r)
	}
	req := []byte(`{"game-id":"7","action":"play-turn","board":{"0-0":""}, "player-index":0}`)
	r, err := s.Ask(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if r.Fault != fault.None || string(r.Data) != `{"play":"1-1","comment":"é"}` || r.Elapsed <= 0 {
		t.Errorf("reply = %+v, want the answer compacted", r)
	}
	if got.method != http.MethodPost || got.ctype != "application/json" || !bytes.Equal(got.body, req) {
		t.Errorf("the bot got %s %q %q, want POST application/json %q", got.method, got.ctype, got.body, req)
	}
}

// TestFaults: everything a server or the way to it can do wrong is its
// bot's fault, said plainly, within the move limit and a small margin, and
// noted in the bot's log.
func TestFaults(t *testing.T) {
	lim := limits()
	var redirected atomic.Bool
	handler := func(f func(w http.ResponseWriter, r *http.Request)) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/elsewhere" {
				redirected.Store(true)
			}
			// Read: a server notices its client is gone, and ends the
			// request's context, only once the request is read.
			io.Copy(io.Discard, r.Body)
			f(w, r)
		})
	}
	cases := []struct {
		name   string
		serve  http.Handler // or url
		url    string
		kind   fault.Kind
		detail string
	}{
		{name: "slow", serve: handler(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
			io.WriteString(w, `{"move":"00"}`)
		}), kind: fault.Timeout, detail: "no answer within 300ms"},
		{name: "hangs after the headers", serve: handler(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"move":`)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}), kind: fault.Timeout, detail: "but the body did not end within 300ms"},
		{name: "100 MB", serve: handler(func(w http.ResponseWriter, r *http.Request) {
			chunk := bytes.Repeat([]byte("[1]  "), 1<<14)
			for n := 0; n < 100<<20; n += len(chunk) {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}), kind: fault.Output, detail: "more than 65536 bytes in the answer's body"},
		{name: "malformed", serve: handler(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "<html>Parse error</html>")
		}), kind: fault.Malformed, detail: `not JSON (invalid character '<' looking for beginning of value): "<html>Parse error</html>"`},
		{name: "two JSON values", serve: handler(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"move":"00"}`+"\n"+`{"move":"01"}`)
		}), kind: fault.Malformed, detail: `more than one JSON value: "{\"move\":\"00\"}\n{\"move\":\"01\"}"`},
		{name: "empty", serve: handler(func(w http.ResponseWriter, r *http.Request) {}),
			kind: fault.Malformed, detail: "an empty body"},
		{name: "HTTP 500", serve: handler(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "PHP Fatal error: boom", http.StatusInternalServerError)
		}), kind: fault.Error, detail: `the server answered 500 Internal Server Error: "PHP Fatal error: boom\n"`},
		{name: "HTTP 404", serve: handler(http.NotFound), kind: fault.Error, detail: "the server answered 404 Not Found"},
		{name: "redirect", serve: handler(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		}), kind: fault.Error, detail: `the server answered 302 Found, a redirect to "/elsewhere": the judge follows no redirect`},
		{name: "closes the connection", serve: handler(func(w http.ResponseWriter, r *http.Request) {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
		}), kind: fault.Crash, detail: "the server closed the connection without answering"},
		{name: "closes in the middle", serve: handler(func(w http.ResponseWriter, r *http.Request) {
			conn, buf, _ := w.(http.Hijacker).Hijack()
			buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"move\":")
			buf.Flush()
			conn.Close()
		}), kind: fault.Crash, detail: "the connection ended in the middle of the answer"},
		{name: "refused", url: refused(t), kind: fault.Crash, detail: "connection refused: nothing listens at 127.0.0.1:"},
		{name: "https to an http server", url: strings.Replace(serve(t, handler(http.NotFound)), "http:", "https:", 1),
			kind: fault.Crash, detail: "cannot reach the bot: http: server gave HTTP response to HTTPS client"},
		{name: "untrusted certificate", url: tlsServe(t), kind: fault.Crash, detail: "TLS: the server's certificate is refused: x509: certificate signed by unknown authority"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := c.url
			if c.serve != nil {
				u = serve(t, c.serve)
			}
			s := start(t, httpbottest.URLFile(t, t.TempDir(), "b", u), lim)
			began := time.Now()
			r, err := s.Ask(context.Background(), []byte(`{"cmd":"init"}`))
			took := time.Since(began)
			if err != nil {
				t.Fatalf("Ask: %v: a bot's fault must not be the judge's error", err)
			}
			if r.Fault != c.kind || !strings.Contains(r.Detail, c.detail) {
				t.Errorf("reply %s: %q; want %s: %q", r.Fault, r.Detail, c.kind, c.detail)
			}
			if r.Data != nil {
				t.Errorf("a fault with data %q", r.Data)
			}
			if took > lim.Move+margin || r.Elapsed > took {
				t.Errorf("the fault took %v (elapsed %v), over the limit %v + %v", took, r.Elapsed, lim.Move, margin)
			}
			if want := fmt.Sprintf("[judge] %s: %s\n", r.Fault, r.Detail); s.Log() != want {
				t.Errorf("log = %q, want %q", s.Log(), want)
			}
		})
	}
	if redirected.Load() {
		t.Error("the judge followed a redirect")
	}
}

func serve(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/bot"
}

func tlsServe(t *testing.T) string {
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv.URL
}

// refused is the URL of a port nothing listens on any more.
func refused(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	return "http://" + l.Addr().String() + "/bot"
}

// TestNotURL: a file that holds no URL is its bot's fault, at every
// request; a staged file the judge cannot read is the judge's.
func TestNotURL(t *testing.T) {
	dir := t.TempDir()
	s := start(t, httpbottest.URLFile(t, dir, "b", "ftp://example.org/"), limits())
	want := `"ftp://example.org/" is not an http:// or https:// URL`
	if r := s.Ready(); r.Fault != fault.Error || !strings.Contains(r.Detail, want) {
		t.Errorf("Ready = %+v, want error %q", r, want)
	}
	for range 2 {
		if r, err := s.Ask(context.Background(), []byte(`{}`)); err != nil || r.Fault != fault.Error || !strings.Contains(r.Detail, want) {
			t.Errorf("Ask = %+v, %v; want error %q", r, err, want)
		}
	}
	_, err := httpbot.New().Start(context.Background(), sandbox.Bot{Name: "gone", Path: dir + "/gone.url", Protocol: sandbox.ProtocolProgram}, limits(), nil)
	if err == nil {
		t.Error("Start of a missing file: no error")
	}
	_, err = httpbot.New().Start(context.Background(), sandbox.Bot{Name: "ia", Path: dir + "/b.url", Protocol: sandbox.ProtocolIA}, limits(), nil)
	if err == nil || !strings.Contains(err.Error(), `not the "ia" protocol`) {
		t.Errorf("Start of an ia bot = %v, want refused", err)
	}
}

// TestJudgeGivesUp: a request stopped by the judge (Ctrl-C) is the judge's
// error, never the bot's timeout; Ask after Close is refused.
func TestJudgeGivesUp(t *testing.T) {
	path := httpbottest.Serve(t, t.TempDir(), "b", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	lim := limits()
	lim.Move = 10 * time.Second
	s := start(t, path, lim)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	r, err := s.Ask(ctx, []byte(`{}`))
	if !errors.Is(err, context.DeadlineExceeded) || r.Fault != fault.None {
		t.Errorf("Ask = %+v, %v; want the judge's own error", r, err)
	}
	s.Close(context.Background())
	if _, err := s.Ask(context.Background(), []byte(`{}`)); !errors.Is(err, sandbox.ErrClosed) {
		t.Errorf("Ask after Close = %v, want ErrClosed", err)
	}
}

// TestLogBounded: the judge's notes on a bot that faults at every message
// stay within the log limit.
func TestLogBounded(t *testing.T) {
	lim := limits()
	lim.Log = 250
	s := start(t, httpbottest.URLFile(t, t.TempDir(), "b", refused(t)), lim)
	for range 10 {
		s.Ask(context.Background(), []byte(`{}`))
	}
	notes := s.Log()
	if n := strings.Count(notes, "[judge] crash"); n != 2 || !strings.HasSuffix(notes, "[judge] 8 more notes were dropped\n") {
		t.Errorf("log = %q, want 2 notes and 8 dropped", notes)
	}
}
