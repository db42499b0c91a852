package handin

import (
	"fmt"
	"net"
	"net/http"
	"net/http/cookiejar"
	"strconv"
	"strings"
	"testing"
	"time"

	"botjudge/results"
)

// from is a browser on the address ip (127.0.0.x: every one of them is
// this machine's, and the server sees each as a client of its own).
func (c *class) from(ip string) *browser {
	jar, _ := cookiejar.New(nil)
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &browser{c: c, client: &http.Client{Jar: jar, Transport: &http.Transport{DialContext: d.DialContext},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// later moves the class's clock on by d.
func (c *class) later(d time.Duration) {
	now := c.now.Load().Add(d)
	c.now.Store(&now)
}

// wrong tries n wrong codes for name, each as soon as it may, and returns
// how long it was made to wait before each try.
func (b *browser) wrong(name string, n int) []int {
	b.c.t.Helper()
	var waits []int
	for i := 0; i < n; i++ {
		resp := b.tryLogIn(name, fmt.Sprintf("WRNG-%04d-XXXX", i))
		switch resp.StatusCode {
		case http.StatusUnauthorized:
		case http.StatusTooManyRequests:
			s, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			waits = append(waits, s)
			b.c.later(time.Duration(s) * time.Second)
			i--
		default:
			b.c.t.Fatalf("wrong code %d of %s: %d", i, name, resp.StatusCode)
		}
	}
	return waits
}

func (b *browser) tryLogIn(name, code string) *http.Response {
	b.c.t.Helper()
	req, _ := http.NewRequest("POST", b.c.http.URL+"/hand-in/login", strings.NewReader("name="+name+"&code="+code))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := b.client.Do(req)
	if err != nil {
		b.c.t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// TestBruteForceSlowed: one name guessed from one address gets waits that
// double, up to five minutes; the wrong code is never tried in them.
func TestBruteForceSlowed(t *testing.T) {
	c := newClass(t, Options{}, "alice")
	waits := c.from("127.0.0.2").wrong("alice", 20)
	// Five free failures, then 1 s after the sixth, doubling.
	want := []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300, 300, 300}
	if fmt.Sprint(waits) != fmt.Sprint(want) {
		t.Errorf("waits before each of 20 wrong codes (s): %v, want %v", waits, want)
	}
}

// TestClassmateCannotLockOut: a classmate's wrong codes for alice, from
// their own address or from the classroom's, never keep alice's right code
// out from her address, nor bob's from the classroom's.
func TestClassmateCannotLockOut(t *testing.T) {
	c := newClass(t, Options{}, "alice", "bob", "carol")
	classroom := c.from("127.0.0.2")
	classroom.wrong("alice", 10)
	if st := c.from("127.0.0.3").logIn("alice", c.codes["alice"]); st != http.StatusSeeOther {
		t.Errorf("alice's right code from her own address after a classmate's 10 wrong ones: %d, want in at once", st)
	}
	// Thirty failures of one student behind the classroom's address.
	classroom.wrong("carol", 30)
	if st := c.from("127.0.0.2").logIn("bob", c.codes["bob"]); st != http.StatusSeeOther {
		t.Errorf("bob's right code from the classroom's address after 40 failures of others there: %d, want in at once", st)
	}
}

// TestOrganiserNeverLockedOut: a hundred failures of students, from the
// organiser's own address too, even someone trying the whole roster, do
// not delay the organiser's right code.
func TestOrganiserNeverLockedOut(t *testing.T) {
	names := make([]string, 30)
	for i := range names {
		names[i] = fmt.Sprintf("student%02d", i)
	}
	c := newClass(t, Options{}, names...)
	room := c.from("127.0.0.2")
	room.wrong("student29", 75)
	for _, n := range names[:25] {
		room.wrong(n, 1)
	}
	if st := room.logIn(results.OrganiserName, c.codes[results.OrganiserName]); st != http.StatusSeeOther {
		t.Errorf("the organiser after 100 students' failures from the same address: %d, want in at once", st)
	}
	// The roster tried from one address: each name's next failure there
	// waits at once, but a name that has not failed there is tried.
	if resp := room.tryLogIn("student01", "WRONG"); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a second wrong code of a name of the roster tried from one address: %d, want a wait", resp.StatusCode)
	}
	if st := c.from("127.0.0.4").logIn("student01", c.codes["student01"]); st != http.StatusSeeOther {
		t.Errorf("student01 from another address: %d, want in at once", st)
	}
}

// TestWaitSaid: the refusal says the wait in minutes or seconds, in the
// reader's language, rounded up, and Retry-After in seconds.
func TestWaitSaid(t *testing.T) {
	for _, c := range []struct {
		lang string
		d    time.Duration
		want string
	}{
		{"en", 600 * time.Second, "10 minutes"},
		{"en", 601 * time.Second, "11 minutes"},
		{"en", 90 * time.Second, "2 minutes"},
		{"en", 60 * time.Second, "60 seconds"},
		{"en", 200 * time.Millisecond, "1 second"},
		{"en", 61 * time.Second, "2 minutes"},
		{"fr", 30 * time.Second, "30 secondes"},
		{"fr", 300 * time.Second, "5 minutes"},
		{"fr", time.Second, "1 seconde"},
	} {
		if got := waitWords(c.lang, c.d); got != c.want {
			t.Errorf("waitWords(%s, %v) = %q, want %q", c.lang, c.d, got, c.want)
		}
	}
	cl := newClass(t, Options{}, "alice")
	b := cl.from("127.0.0.2")
	b.wrong("alice", 14) // the next wait is 256 s
	req, _ := http.NewRequest("POST", cl.http.URL+"/hand-in/login", strings.NewReader("name=alice&code=x"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept-Language", "fr")
	st, page := b.do(req)
	if st != http.StatusTooManyRequests || !strings.Contains(page, "attendez 5 minutes et recommencez") {
		t.Errorf("the wait in French: %d\n%s", st, page)
	}
}
