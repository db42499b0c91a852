package gamestest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"botjudge/games"
	"botjudge/games/fault"
)

// MoveLimit is the time a program gets per request, the sandbox's default.
const MoveLimit = 10 * time.Second

// Program is a bot file run as the judge runs program bots, one process per
// request with the request's JSON in argv[1] and on stdin, printing one JSON
// value, but outside any sandbox: it is for the tests of the example bots,
// which must work in the bots' runtime image (Python 3 and Node.js).
type Program struct {
	Path string
	argv []string

	mu      sync.Mutex
	slowest time.Duration
}

// interpreters run bot files by their extension; other files are run as
// they are.
var interpreters = map[string]string{".py": "python3", ".js": "node"}

// NewProgram is the bot file path. When its interpreter is missing the test
// is skipped, or fails under CI=true, where a skip would hide that the bots
// were never run.
func NewProgram(tb testing.TB, path string) *Program {
	tb.Helper()
	p := &Program{Path: path, argv: []string{path}}
	if name, ok := interpreters[filepath.Ext(path)]; ok {
		exe, err := exec.LookPath(name)
		if err != nil {
			if os.Getenv("CI") == "true" {
				tb.Fatalf("%s is required under CI=true to run %s: %v", name, path, err)
			}
			tb.Skipf("%s is missing, %s is not run (under CI=true this fails): %v", name, path, err)
		}
		p.argv = []string{exe, path}
	}
	return p
}

// Slowest is the longest time the program took to answer a request.
func (p *Program) Slowest() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.slowest
}

// Ask runs the program on one request and turns what it did into the
// answer the rules judge, as the sandbox does: a timeout, an error exit, an
// answer too large or not JSON are faults.
func (p *Program) Ask(req json.RawMessage) games.Answer {
	ctx, cancel := context.WithTimeout(context.Background(), MoveLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.argv[0], append(p.argv[1:], string(req))...)
	cmd.Stdin = bytes.NewReader(req)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	began := time.Now()
	err := cmd.Run()
	elapsed := time.Since(began)
	p.mu.Lock()
	p.slowest = max(p.slowest, elapsed)
	p.mu.Unlock()

	out := bytes.TrimSpace(stdout.Bytes())
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return games.Answer{Fault: fault.Timeout, Detail: fmt.Sprintf("no answer within %v", MoveLimit)}
	case errors.As(err, &exit):
		return games.Answer{Fault: fault.Error, Detail: fmt.Sprintf("%v: %s", err, tail(stderr.String()))}
	case err != nil:
		return games.Answer{Fault: fault.Crash, Detail: err.Error()}
	case len(out) > answerLimit:
		return games.Answer{Fault: fault.Output, Detail: fmt.Sprintf("an answer of %d bytes", len(out))}
	case !json.Valid(out):
		return games.Answer{Fault: fault.Malformed, Detail: fmt.Sprintf("the answer is not JSON: %q", tail(string(out)))}
	}
	return games.Answer{Data: out}
}

// tail is the end of a program's output, where the error is.
func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = "…" + s[len(s)-300:]
	}
	return s
}

// Bot answers a request, as a Program's Ask.
type Bot func(req json.RawMessage) games.Answer

// Scripted is a bot that gives answers in order, whatever it is asked, then
// times out.
func Scripted(answers ...games.Answer) Bot {
	return func(json.RawMessage) games.Answer {
		if len(answers) == 0 {
			return games.Answer{Fault: fault.Timeout, Detail: "the script ran out"}
		}
		a := answers[0]
		answers = answers[1:]
		return a
	}
}

// Data is an answer of JSON text.
func Data(text string) games.Answer { return games.Answer{Data: json.RawMessage(text)} }

// Step is one Apply of a game: the seats of ToMove, their requests (nil
// for a seat not asked), their answers and the moves.
type Step struct {
	Seats    []int
	Requests []json.RawMessage
	Answers  []games.Answer
	Moves    []games.Move
}

// Play plays one game of r between bots, one per seat, as the judge does:
// the seats of ToMove are asked in order, a seat whose Request is nil is not
// asked, and the game stops, failing tb, if it runs past its bound. It
// returns the final state and every step.
func Play(tb testing.TB, r games.Rules, seed int64, names []string, bots []Bot) (games.State, []Step) {
	tb.Helper()
	limit := unbounded
	if b, ok := r.(games.Bounded); ok {
		limit = len(bots) * b.MaxRequests(len(bots))
	}
	s := r.New(seed, names)
	var steps []Step
	for len(s.ToMove()) > 0 {
		if len(steps) >= limit {
			tb.Fatalf("%s between %v: not over after %d steps", r.Name(), names, len(steps))
		}
		st := Step{Seats: s.ToMove()}
		for _, seat := range st.Seats {
			var a games.Answer
			req := s.Request(seat)
			if req != nil {
				a = bots[seat](req)
			}
			st.Requests = append(st.Requests, req)
			st.Answers = append(st.Answers, a)
		}
		st.Moves = s.Apply(st.Answers)
		steps = append(steps, st)
	}
	return s, steps
}

// Take applies answers to s in order, as many at each step as ToMove asks,
// and returns the moves; it fails tb when the game ends with answers left
// or needs more than there are.
func Take(tb testing.TB, s games.State, answers ...games.Answer) []games.Move {
	tb.Helper()
	var moves []games.Move
	for len(answers) > 0 {
		n := len(s.ToMove())
		if n == 0 || n > len(answers) {
			tb.Fatalf("%d answers left for seats %v", len(answers), s.ToMove())
		}
		moves = append(moves, s.Apply(answers[:n])...)
		answers = answers[n:]
	}
	return moves
}
