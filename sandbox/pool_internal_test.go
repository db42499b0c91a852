package sandbox

import (
	"bytes"
	"fmt"
	"testing"
)

// TestLogEndsBeforeTheGame: the engine relays a container's stdout and
// stderr independently, so the warden's report may come before the last of
// the game's log. The game ends only once both have come, whatever the
// order and however the streams are cut, and the log holds everything the
// bot wrote, without the warden's mark.
func TestLogEndsBeforeTheGame(t *testing.T) {
	const nonce = "5f0c2b6e"
	logText := "Traceback (most recent call last):\n  ModuleNotFoundError: no_such_module\n"
	stderr := logText + logEnd + nonce + "\n"
	report := fmt.Sprintf(`{"warden": %q, "status": 0, "oom": false, "clean": true}`+"\n", nonce)
	for _, reportFirst := range []bool{true, false} {
		for cut := 0; cut < len(stderr); cut++ {
			var log, out bytes.Buffer
			w := &warm{}
			sh := &shift{w: w, nonce: nonce, out: &out, log: &log, ended: make(chan struct{})}
			w.cur = sh
			l := logRoute{w}
			ended := func() bool {
				select {
				case <-sh.ended:
					return true
				default:
					return false
				}
			}
			if reportFirst {
				w.Write([]byte(report))
				if ended() {
					t.Fatalf("cut %d: the game ended on the report, before its log", cut)
				}
			}
			l.Write([]byte(stderr[:cut]))
			if ended() {
				t.Fatalf("cut %d: the game ended before the end of its log", cut)
			}
			l.Write([]byte(stderr[cut:]))
			if !reportFirst {
				if ended() {
					t.Fatalf("cut %d: the game ended before the warden's report", cut)
				}
				w.Write([]byte(report))
			}
			if !ended() || sh.result == nil || !sh.result.Clean {
				t.Fatalf("cut %d, report first %v: the game did not end with its report", cut, reportFirst)
			}
			if log.String() != logText {
				t.Fatalf("cut %d: log %q, want %q", cut, log.String(), logText)
			}
			if w.cur != nil {
				t.Fatalf("cut %d: the ended game still takes the container's output", cut)
			}
		}
	}
	// A log read before its end holds every line so far.
	var early bytes.Buffer
	w0 := &warm{}
	w0.cur = &shift{w: w0, nonce: nonce, out: &bytes.Buffer{}, log: &early, ended: make(chan struct{})}
	logRoute{w0}.Write([]byte("hello\n"))
	if early.String() != "hello\n" {
		t.Errorf("log before its end %q, want every line", early.String())
	}
	// A bot that writes a mark of its own (without the nonce, which it
	// never sees) does not end its log.
	var log bytes.Buffer
	w := &warm{}
	sh := &shift{w: w, nonce: nonce, out: &bytes.Buffer{}, log: &log, ended: make(chan struct{})}
	w.cur = sh
	forged := logEnd + "0000\n"
	logRoute{w}.Write([]byte(forged))
	w.Write([]byte(report))
	select {
	case <-sh.ended:
		t.Error("a forged mark ended the log")
	default:
	}
	if log.String() != forged {
		t.Errorf("log %q, want the forged mark kept: %q", log.String(), forged)
	}
}
