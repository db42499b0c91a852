package main

import (
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"
)

// wire bounds what a client of judge serve holds: a client that sends its
// request slowly, or opens connections by the hundred, costs the server a
// connection for a bounded time, and one address only so many at once.
type wire struct {
	// header is the time to send a request's headers.
	header time.Duration
	// body is the time to send a request's whole body: 1 MiB (the largest
	// hand-in) in a minute is 140 kbit/s.
	body time.Duration
	// idle is how long a connection waits for its next request.
	idle time.Duration
	// perAddress bounds the connections open at once from one address: a
	// classroom of 40 behind one address, six each as browsers open.
	perAddress int
	log        *log.Logger
}

func defaultWire(lg *log.Logger) wire {
	return wire{header: 10 * time.Second, body: time.Minute, idle: time.Minute, perAddress: 256, log: lg}
}

// server is judge serve's HTTP server. It has no ReadTimeout nor
// WriteTimeout: the live pages keep an event stream open, and a read
// deadline left on a connection cancels its request when it passes.
func (wr wire) server(h http.Handler) *http.Server {
	return &http.Server{Handler: wr.bodies(h), ReadHeaderTimeout: wr.header, IdleTimeout: wr.idle, ErrorLog: wr.log}
}

// bodies gives each request's body wr.body to arrive; past it, reading it
// fails and the connection is closed.
func (wr wire) bodies(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			rc := http.NewResponseController(w)
			if rc.SetReadDeadline(time.Now().Add(wr.body)) == nil {
				r.Body = &timedBody{ReadCloser: r.Body, rc: rc}
			}
		}
		h.ServeHTTP(w, r)
	})
}

// timedBody lifts the body's deadline once it is read to its end: the
// connection then waits for its next request, or for the client going
// away while the request is handled, without a deadline.
type timedBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	read bool
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.read {
		b.read = true
		b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// listen bounds ln's connections open at once per client address: past
// wr.perAddress, a new one is closed at once.
func (wr wire) listen(ln net.Listener) net.Listener {
	return &capped{Listener: ln, max: wr.perAddress, log: wr.log, open: map[string]int{}, warned: map[string]bool{}}
}

type capped struct {
	net.Listener
	max int
	log *log.Logger

	mu     sync.Mutex
	open   map[string]int
	warned map[string]bool
}

func (l *capped) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host := hostOf(c.RemoteAddr())
		if l.take(host) {
			return &cappedConn{Conn: c, l: l, host: host}, nil
		}
		c.Close()
	}
}

// take counts a connection of host, unless host holds its most already;
// the first refusal is said in the log.
func (l *capped) take(host string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[host] < l.max {
		l.open[host]++
		return true
	}
	if !l.warned[host] && l.log != nil {
		l.log.Printf("%s holds %d connections open: refusing more until some close", host, l.max)
		l.warned[host] = true
	}
	return false
}

func (l *capped) release(host string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[host]--; l.open[host] <= 0 {
		delete(l.open, host)
		delete(l.warned, host)
	}
}

func hostOf(a net.Addr) string {
	if host, _, err := net.SplitHostPort(a.String()); err == nil {
		return host
	}
	return a.String()
}

// cappedConn gives its place back when it closes, once.
type cappedConn struct {
	net.Conn
	l    *capped
	host string
	once sync.Once
}

func (c *cappedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.host) })
	return err
}
