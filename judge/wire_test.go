package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"botjudge/judge/handin"
	"botjudge/judge/screen"
	"botjudge/results"
)

// wired is judge serve's server with the hand-in, on a real socket of
// 127.0.0.1, bounded by wr; its address, and alice's code.
func wired(t *testing.T, wr wire) (addr, code string) {
	t.Helper()
	dir := t.TempDir()
	db, err := results.Open(filepath.Join(dir, "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	code = handin.NewCode()
	if _, err := db.AddStudent(context.Background(), "alice", results.HashCode(code), false); err != nil {
		t.Fatal(err)
	}
	quiet := log.New(io.Discard, "", 0)
	wr.log = quiet
	hs := handin.New(db, screen.New(db, screen.Options{Log: quiet}), handin.Options{Submissions: dir, Games: []string{"virus"}, Log: quiet})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := wr.server(hs)
	go srv.Serve(wr.listen(ln))
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), code
}

// dialFrom opens a connection to addr from the local address ip.
func dialFrom(t *testing.T, ip, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// closedByServer says whether the server closes c (after answering or
// not) within the test's patience.
func closedByServer(c net.Conn) bool {
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	return !errors.As(err, &ne) || !ne.Timeout()
}

// TestSlowBodyCut: a log-in whose body comes one byte at a time is cut
// once its time is up, and so is an upload: the server does not hold them.
func TestSlowBodyCut(t *testing.T) {
	wr := defaultWire(nil)
	wr.body = time.Second
	addr, _ := wired(t, wr)
	c := dialFrom(t, "127.0.0.1", addr)
	fmt.Fprintf(c, "POST /hand-in/login HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n", addr)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			if _, err := c.Write([]byte("n")); err != nil {
				return
			}
		}
	}()
	if !closedByServer(c) {
		t.Errorf("a log-in sending one byte every 100 ms is still open after 30 s; its body has %v", wr.body)
	}
}

// TestHugeBodyRefusedAtOnce: a hand-in announcing 2 GB is refused before
// any of it is sent.
func TestHugeBodyRefusedAtOnce(t *testing.T) {
	addr, code := wired(t, defaultWire(nil))
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.PostForm("http://"+addr+"/hand-in/login", url.Values{"name": {"alice"}, "code": {code}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(resp.Cookies()) == 0 {
		t.Fatalf("alice's log-in: %d, no cookie", resp.StatusCode)
	}
	cookie := resp.Cookies()[0]
	c := dialFrom(t, "127.0.0.1", addr)
	fmt.Fprintf(c, "POST /hand-in/game/virus HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: %d\r\n\r\n",
		addr, cookie.Name+"="+cookie.Value, int64(2)<<30)
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	got, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("a 2 GB hand-in announced, nothing sent: %v, want 413 at once", err)
	}
	got.Body.Close()
	if got.StatusCode != http.StatusRequestEntityTooLarge || !got.Close {
		t.Errorf("a 2 GB hand-in announced: %d (close %v), want 413 and the connection closed", got.StatusCode, got.Close)
	}
}

// TestConnectionsPerAddress: past its cap, an address's new connections
// are closed at once, while other addresses are served, and a place freed
// is taken again.
func TestConnectionsPerAddress(t *testing.T) {
	wr := defaultWire(nil)
	wr.perAddress = 8
	addr, _ := wired(t, wr)
	held := make([]net.Conn, wr.perAddress)
	for i := range held {
		held[i] = dialFrom(t, "127.0.0.1", addr)
	}
	get := func(c net.Conn) (int, error) {
		fmt.Fprintf(c, "GET /hand-in/ HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		c.SetReadDeadline(time.Now().Add(30 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	if st, err := get(dialFrom(t, "127.0.0.1", addr)); err == nil {
		t.Errorf("a connection past the cap of %d was served: %d", wr.perAddress, st)
	}
	if st, err := get(dialFrom(t, "127.0.0.2", addr)); err != nil || st != http.StatusOK {
		t.Errorf("another address while the first is at its cap: %d %v", st, err)
	}
	held[0].Close()
	var st int
	var err error
	// The server sees the close when it reads: the place comes back soon.
	for range 100 {
		if st, err = get(dialFrom(t, "127.0.0.1", addr)); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil || st != http.StatusOK {
		t.Errorf("a new connection once one closed: %d %v", st, err)
	}
}
