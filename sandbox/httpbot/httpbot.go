// Package httpbot runs the bots reached by URL (SPEC §3): a file name.url
// holds one http(s) URL, botsArena's own way of entering a bot, and the judge
// POSTs each request's JSON to it and reads one JSON value back. Nothing runs
// on the judge's machine and nothing is sandboxed: the bot is wherever its
// author serves it. So that it costs no more than any bot, each message has
// the move limit as its whole deadline and a bounded answer, and everything
// a server can do wrong is that bot's fault, never the judge's.
package httpbot

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"botjudge/games/fault"
	"botjudge/sandbox"
)

// maxHeader bounds an answer's headers, which Limits.Answer does not cover.
const maxHeader = 64 << 10

// Runner starts the sessions of bots reached by URL; New makes one.
type Runner struct {
	// A bot reached by URL is never compiled, runs on its author's
	// machine and keeps nothing of the judge's between games.
	sandbox.StartOnly
	client *http.Client
}

var _ sandbox.Runner = (*Runner)(nil)

// New returns a runner. Its connections are direct (no proxy from the
// environment: a proxy's own failure would be scored as the bot's) and are
// never reused: each message is a fresh connection, like the one process per
// message of program bots, so that a server closing an idle connection just
// as the judge sends is not a fault of its bot, and nothing of one message's
// connection reaches the next.
func New() *Runner {
	return &Runner{client: &http.Client{
		Transport: &http.Transport{
			DialContext:            (&net.Dialer{}).DialContext,
			DisableKeepAlives:      true,
			MaxResponseHeaderBytes: maxHeader,
		},
		// A judge must not be led elsewhere: a redirect is the answer, and
		// a fault (see answer).
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// Start reads the URL of the bot's (staged) .url file. Nothing is started:
// the game's first message, botsArena's init or BrainJar's fleet, is the
// bot's first test, under the same limits as every message. A probe before
// it would cost every game a message outside the protocol and could fail
// while the real message would have succeeded. labels name containers and
// have no use here.
//
// A file that does not hold a URL is the bot's fault, reported by Ready and
// by every Ask; an error means the judge could not read its own staged copy.
func (r *Runner) Start(ctx context.Context, bot sandbox.Bot, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error) {
	if bot.Protocol != sandbox.ProtocolProgram {
		return nil, fmt.Errorf("httpbot: bot %s is reached by URL, which only games of JSON messages can do, not the %q protocol", bot.Name, bot.Protocol)
	}
	if lim.Move <= 0 || lim.Answer <= 0 || lim.Log <= 0 {
		return nil, fmt.Errorf("httpbot: the move, answer and log limits must be positive: %+v", lim)
	}
	s := &session{client: r.client, lim: lim}
	u, err := ReadURL(bot.Path)
	switch {
	case errors.Is(err, ErrNotURL):
		s.ready = sandbox.Reply{Fault: fault.Error, Detail: err.Error()}
		s.note(s.ready)
	case err != nil:
		return nil, fmt.Errorf("httpbot: bot %s: %w", bot.Name, err)
	default:
		s.url = u
	}
	return s, nil
}

type session struct {
	client *http.Client
	url    *url.URL
	lim    sandbox.Limits
	ready  sandbox.Reply // a fault when the file holds no URL
	closed atomic.Bool

	mu      sync.Mutex
	log     strings.Builder
	dropped int // notes not kept, past Limits.Log
}

func (s *session) Ready() sandbox.Reply { return s.ready }

// Log holds the judge's notes on the bot's faults: what the bot prints
// stays on its own machine.
func (s *session) Log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dropped > 0 {
		return s.log.String() + fmt.Sprintf("[judge] %d more notes were dropped\n", s.dropped)
	}
	return s.log.String()
}

func (s *session) note(r sandbox.Reply) {
	line := fmt.Sprintf("[judge] %s: %s\n", r.Fault, r.Detail)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.log.Len()+len(line) > s.lim.Log {
		s.dropped++
		return
	}
	s.log.WriteString(line)
}

// Close has nothing to stop: every message's connection ends with it.
func (s *session) Close(context.Context) error {
	s.closed.Store(true)
	return nil
}

// Ask POSTs request, exactly as the judge wrote it, and reads the answer, all
// within the move limit. An error means the judge gave up (ctx is done) or
// failed on its own side; anything else is the bot's answer or its fault.
func (s *session) Ask(ctx context.Context, request []byte) (sandbox.Reply, error) {
	if s.closed.Load() {
		return sandbox.Reply{}, sandbox.ErrClosed
	}
	if s.ready.Fault != fault.None {
		return sandbox.Reply{Fault: s.ready.Fault, Detail: s.ready.Detail}, nil
	}
	began := time.Now()
	r, err := s.post(ctx, request, began)
	if err != nil {
		return sandbox.Reply{}, err
	}
	r.Elapsed = time.Since(began)
	if r.Fault != fault.None {
		s.note(r)
	}
	return r, nil
}

func (s *session) post(ctx context.Context, request []byte, began time.Time) (sandbox.Reply, error) {
	mctx, cancel := context.WithTimeout(ctx, s.lim.Move)
	defer cancel()
	req, err := http.NewRequestWithContext(mctx, http.MethodPost, s.url.String(), bytes.NewReader(request))
	if err != nil {
		return sandbox.Reply{}, fmt.Errorf("httpbot: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "botjudge")
	resp, err := s.client.Do(req)
	if err != nil {
		return s.failed(ctx, mctx, err, fmt.Sprintf("no answer within %v", s.lim.Move), "")
	}
	defer resp.Body.Close()
	headers := time.Since(began)
	// One byte more than the limit tells an answer over it.
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(s.lim.Answer)+1))
	ok := resp.StatusCode >= 200 && resp.StatusCode <= 299
	if err != nil && ok {
		return s.failed(ctx, mctx, err,
			fmt.Sprintf("the headers came after %.3fs but the body did not end within %v", headers.Seconds(), s.lim.Move),
			"the connection ended in the middle of the answer")
	}
	if ctx.Err() != nil {
		return sandbox.Reply{}, ctx.Err()
	}
	// The status's own words are the server's: the standard ones are safe
	// to print and short.
	status := strings.TrimSpace(fmt.Sprintf("%d %s", resp.StatusCode, http.StatusText(resp.StatusCode)))
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode <= 399:
		return sandbox.Reply{Fault: fault.Error, Detail: fmt.Sprintf(
			"the server answered %s, a redirect to %s: the judge follows no redirect, put the final URL in the .url file",
			status, excerpt([]byte(resp.Header.Get("Location"))))}, nil
	case !ok:
		// Its body often says why (a PHP error): quote it when it came in
		// time, whatever it is.
		detail := "the server answered " + status
		if len(body) > 0 {
			detail += ": " + excerpt(body)
		}
		return sandbox.Reply{Fault: fault.Error, Detail: detail}, nil
	case len(body) > s.lim.Answer:
		return sandbox.Reply{Fault: fault.Output, Detail: fmt.Sprintf("more than %d bytes in the answer's body", s.lim.Answer)}, nil
	}
	data, why := parseAnswer(body)
	if why != "" {
		return sandbox.Reply{Fault: fault.Malformed, Detail: why}, nil
	}
	return sandbox.Reply{Data: data}, nil
}

// failed tells whose failure err is. A judge that gave up (ctx done) or that
// could not open a socket is the judge's: an error, never scored. The move's
// deadline is the bot's timeout; anything else that went wrong on the way
// to the server and back is a crash of the bot, with the reason.
func (s *session) failed(ctx, move context.Context, err error, timeout, cut string) (sandbox.Reply, error) {
	switch {
	case ctx.Err() != nil:
		return sandbox.Reply{}, ctx.Err()
	case move.Err() != nil:
		return sandbox.Reply{Fault: fault.Timeout, Detail: timeout}, nil
	case judgesOwn(err):
		return sandbox.Reply{}, fmt.Errorf("httpbot: reaching %s: %w", s.url.Redacted(), err)
	}
	return sandbox.Reply{Fault: fault.Crash, Detail: unreachable(err, s.url, cut)}, nil
}

// judgesOwn tells the failures of the judge's own machine: out of sockets.
func judgesOwn(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) || errors.Is(err, syscall.ENOBUFS)
}

// unreachable says in the author's words why the judge got no answer from
// u. cut, when not "", is what a connection that ended early means.
func unreachable(err error, u *url.URL, cut string) string {
	var (
		dns  *net.DNSError
		cert *tls.CertificateVerificationError
	)
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("connection refused: nothing listens at %s (is the bot's server running?)", u.Host)
	case errors.As(err, &dns):
		return fmt.Sprintf("cannot find the host %s: %s", u.Hostname(), dns.Err)
	case errors.As(err, &cert):
		return fmt.Sprintf("TLS: the server's certificate is refused: %v", cert.Err)
	case cut != "" && (errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)):
		return cut
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET):
		return "the server closed the connection without answering"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // without the method and URL, which the bot's page shows
	}
	return "cannot reach the bot: " + err.Error()
}
