package handin

import (
	"crypto/rand"
	"encoding/base64"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// limiter counts events per key in a sliding window: hand-ins per student.
type limiter struct {
	max    int
	window time.Duration
	mu     sync.Mutex
	seen   map[string][]time.Time
}

func newLimiter(max int, window time.Duration) *limiter {
	return &limiter{max: max, window: window, seen: map[string][]time.Time{}}
}

// wait is how long key must wait before its next event, 0 when it may go.
func (l *limiter) wait(key string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	ts := l.recent(key, now)
	if len(ts) < l.max {
		return 0
	}
	return ts[len(ts)-l.max].Add(l.window).Sub(now)
}

// add counts one event of key.
func (l *limiter) add(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen[key] = append(l.recent(key, now), now)
}

// recent drops key's events older than the window, and the key with them,
// so that the map holds only what can still count.
func (l *limiter) recent(key string, now time.Time) []time.Time {
	ts := l.seen[key]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= l.window {
		i++
	}
	ts = ts[i:]
	if len(ts) == 0 {
		delete(l.seen, key)
	}
	return ts
}

// address is the client's IP address, without its port. The judge serves
// the class directly: a header saying otherwise is the client's word.
func address(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// session is a logged-in student (or the organiser).
type session struct {
	student int64
	// name is the student's file name, display their name as written.
	name, display string
	organiser     bool
	expires       time.Time
}

// sessions are kept in memory: a restarted server asks everyone to log in
// again, which costs a student a few seconds.
type sessions struct {
	mu   sync.Mutex
	byID map[string]session
}

const (
	cookieName  = "handin"
	sessionLife = 12 * time.Hour
)

func (s *sessions) create(w http.ResponseWriter, se session, secure bool, now time.Time) {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand)
	id := base64.RawURLEncoding.EncodeToString(b)
	se.expires = now.Add(sessionLife)
	s.mu.Lock()
	if s.byID == nil {
		s.byID = map[string]session{}
	}
	for k, v := range s.byID {
		if now.After(v.expires) {
			delete(s.byID, k)
		}
	}
	s.byID[id] = se
	s.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: id, Path: "/", HttpOnly: true, Secure: secure,
		SameSite: http.SameSiteStrictMode, Expires: se.expires})
}

func (s *sessions) get(r *http.Request, now time.Time) (session, bool) {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return session{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	se, ok := s.byID[c.Value]
	if !ok || now.After(se.expires) {
		return session{}, false
	}
	return se, true
}

func (s *sessions) end(w http.ResponseWriter, r *http.Request, secure bool) {
	if c, err := r.Cookie(cookieName); err == nil {
		s.mu.Lock()
		delete(s.byID, c.Value)
		s.mu.Unlock()
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", HttpOnly: true, Secure: secure,
		SameSite: http.SameSiteStrictMode, MaxAge: -1})
}

// NewCode draws a log-in code: 12 letters and digits from an alphabet of
// 31 that cannot be misread (no 0/O, 1/I/L), 59 bits from crypto/rand,
// shown in groups of four. Guessing one through the log-in page, at most
// 12 tries an hour per name and address once throttled (throttle.go),
// would take longer than the universe has existed.
func NewCode() string {
	const alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
	var b strings.Builder
	buf := make([]byte, 1)
	for i := 0; i < 12; {
		rand.Read(buf)
		if int(buf[0]) >= 256/len(alphabet)*len(alphabet) {
			continue // no bias towards the first letters
		}
		if i > 0 && i%4 == 0 {
			b.WriteByte('-')
		}
		b.WriteByte(alphabet[int(buf[0])%len(alphabet)])
		i++
	}
	return b.String()
}

// normCode reads a code as a person types it: any case, with or without
// dashes and spaces.
func normCode(s string) string {
	s = strings.ToUpper(strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		return r
	}, s))
	if len(s) != 12 {
		return s
	}
	return s[:4] + "-" + s[4:8] + "-" + s[8:]
}
