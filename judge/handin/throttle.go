package handin

import (
	"strings"
	"sync"
	"time"
)

// The log-in throttle (the README's rule). Failures count per pair (the
// name as typed, any case; the client's address): a pair's first
// freeFailures cost nothing, then each failure doubles the pair's wait
// from firstDelay up to maxDelay. An address from which more than
// sprayNames different names failed within forgetAfter (someone trying
// the roster) gives its pairs no free failures. A pair is forgotten
// forgetAfter after its last failure, or when it logs in.
//
// Nothing is ever refused for another pair's failures: a classmate's wrong
// codes, or a whole classroom's behind one address, never delay a right
// code typed under another name or from another address, the organiser's
// included. Guessing stays hopeless all the same: a code is 59 bits, and a
// pair gets at most 12 tries an hour once its wait is at its cap.
const (
	freeFailures = 5
	sprayNames   = 20
	firstDelay   = time.Second
	maxDelay     = 5 * time.Minute
	forgetAfter  = time.Hour
	// sweepAt is the number of pairs past which forgotten ones are
	// dropped, so that addresses by the thousand cannot fill the memory.
	sweepAt = 4096
)

type pair struct{ name, addr string }

// strikes are a pair's failures: how many, and the last one's time.
type strikes struct {
	n    int
	last time.Time
}

// throttle counts failed log-ins and says how long a pair must wait.
type throttle struct {
	mu    sync.Mutex
	pairs map[pair]strikes
	// names are, per address, the names that failed from it and when last.
	names map[string]map[string]time.Time
}

func newThrottle() *throttle {
	return &throttle{pairs: map[pair]strikes{}, names: map[string]map[string]time.Time{}}
}

func pairOf(name, addr string) pair { return pair{strings.ToLower(name), addr} }

// wait is how long name must wait before its next try from addr, 0 when
// it may try now.
func (t *throttle) wait(name, addr string, now time.Time) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := pairOf(name, addr)
	s, ok := t.pairs[p]
	if !ok || now.Sub(s.last) >= forgetAfter {
		return 0
	}
	free := freeFailures
	if t.sprayed(addr, now) {
		free = 0
	}
	return max(0, s.last.Add(delayAfter(s.n, free)).Sub(now))
}

// delayAfter is the wait after n failures of which free cost nothing.
func delayAfter(n, free int) time.Duration {
	if n <= free {
		return 0
	}
	// Doubling past the cap would overflow: 2^9 s is past it already.
	return min(firstDelay<<min(n-free-1, 16), maxDelay)
}

// sprayed says whether more than sprayNames names failed from addr within
// forgetAfter.
func (t *throttle) sprayed(addr string, now time.Time) bool {
	n := 0
	for _, last := range t.names[addr] {
		if now.Sub(last) < forgetAfter {
			n++
		}
	}
	return n > sprayNames
}

// failed counts a failed log-in of name from addr.
func (t *throttle) failed(name, addr string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := pairOf(name, addr)
	s := t.pairs[p]
	if now.Sub(s.last) >= forgetAfter {
		s.n = 0
	}
	t.pairs[p] = strikes{n: s.n + 1, last: now}
	if t.names[addr] == nil {
		t.names[addr] = map[string]time.Time{}
	}
	t.names[addr][p.name] = now
	if len(t.pairs) > sweepAt {
		t.sweep(now)
	}
}

// passed forgets the failures of name from addr: it logged in.
func (t *throttle) passed(name, addr string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := pairOf(name, addr)
	delete(t.pairs, p)
	delete(t.names[addr], p.name)
}

// sweep drops what is forgotten.
func (t *throttle) sweep(now time.Time) {
	for p, s := range t.pairs {
		if now.Sub(s.last) >= forgetAfter {
			delete(t.pairs, p)
		}
	}
	for addr, names := range t.names {
		for n, last := range names {
			if now.Sub(last) >= forgetAfter {
				delete(names, n)
			}
		}
		if len(names) == 0 {
			delete(t.names, addr)
		}
	}
}
