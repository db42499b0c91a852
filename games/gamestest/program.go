package gamestest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
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
// which must work in the bots' runtime image.
type Program struct {
	Path string
	argv []string

	mu      sync.Mutex
	slowest time.Duration
}

// Interpreters run bot files by their extension, as the sandbox's table of
// languages does (games cannot read it: sandbox's tests check the two
// agree); other files are run as they are.
var Interpreters = map[string]string{".py": "python3", ".js": "node", ".coffee": "coffee", ".php": "php"}

// NewProgram is the bot file path. When its interpreter is missing the test
// is skipped, or fails under CI=true, where a skip would hide that the bots
// were never run.
func NewProgram(tb testing.TB, path string) *Program {
	tb.Helper()
	p := &Program{Path: path, argv: []string{path}}
	if name, ok := Interpreters[filepath.Ext(path)]; ok {
		exe, err := interpreter(name)
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

var (
	resolved   sync.Map // interpreter name → its executable
	selfReport = map[string][]string{"python3": {"-c", "import sys; print(sys.executable)"}}
)

// interpreter finds an interpreter's own executable: a version manager's
// shim (pyenv's python3 is a shell script) would cost every request of every
// bot a shell and a lookup, three times a Python bot's own start.
func interpreter(name string) (string, error) {
	if exe, ok := resolved.Load(name); ok {
		return exe.(string), nil
	}
	exe, err := exec.LookPath(name)
	if err != nil {
		return "", err
	}
	if args, ok := selfReport[name]; ok {
		if out, err := exec.Command(exe, args...).Output(); err == nil && strings.TrimSpace(string(out)) != "" {
			exe = strings.TrimSpace(string(out))
		}
	}
	resolved.Store(name, exe)
	return exe, nil
}

// Programs are the bot files of a submissions folder, dir, in name order;
// the test fails when there are none.
func Programs(tb testing.TB, dir string) []*Program {
	tb.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var programs []*Program
	for _, e := range entries {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
			programs = append(programs, NewProgram(tb, filepath.Join(dir, e.Name())))
		}
	}
	if len(programs) == 0 {
		tb.Fatalf("no bots in %s", dir)
	}
	return programs
}

// Name is the bot's name, its file name without the extension, as the judge
// names bots.
func (p *Program) Name() string {
	return strings.TrimSuffix(filepath.Base(p.Path), filepath.Ext(p.Path))
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

// Setup applies answers to s as Take does, failing tb on any fault: it
// sets a game up for a test, and returns s.
func Setup(tb testing.TB, s games.State, answers ...games.Answer) games.State {
	tb.Helper()
	for _, m := range Take(tb, s, answers...) {
		if m.Verdict != fault.None {
			tb.Fatalf("setting up the game: seat %d refused: %s %s", m.Seat, m.Verdict, m.Reason)
		}
	}
	return s
}

// Event decodes a move's event as a T, failing tb if it is not one.
func Event[T any](tb testing.TB, m games.Move) T {
	tb.Helper()
	var e T
	if err := json.Unmarshal(m.Event, &e); err != nil {
		tb.Fatalf("event %s: %v", m.Event, err)
	}
	return e
}

// Match plays n games of r between the programs a and b, a in seat 0 in the
// even games and in seat 1 in the odd ones, with seeds 1 to n, and fails tb
// on any verdict: an example bot must never be faulted. It returns a's
// wins, the draws and a's losses.
func Match(tb testing.TB, r games.Rules, a, b *Program, n int) (wins, draws, losses int) {
	tb.Helper()
	for i := range n {
		seats := []*Program{a, b}
		if i%2 == 1 {
			seats = []*Program{b, a}
		}
		s, steps := Play(tb, r, int64(i+1), []string{seats[0].Name(), seats[1].Name()}, []Bot{seats[0].Ask, seats[1].Ask})
		for _, st := range steps {
			for _, m := range st.Moves {
				if m.Verdict != fault.None {
					tb.Errorf("%s, game %d of %s against %s: %s was faulted: %s %s (answer %s)",
						r.Name(), i+1, a.Name(), b.Name(), seats[m.Seat].Name(), m.Verdict, m.Reason, m.Answer)
				}
			}
		}
		switch o := s.Outcome(); o.Points(i%2, 1-i%2) {
		case 1:
			wins++
		case 0.5:
			draws++
		default:
			losses++
		}
	}
	return wins, draws, losses
}

// CheckBots asks every program what it would play at a few positions of a
// game of r played by play (the init, the first turn, the middle turn), twice
// each, and fails t unless it answers the same both times and the rules take
// the answer without a fault. It logs each program's slowest answer.
func CheckBots(t *testing.T, r games.Rules, programs []*Program, play Player) {
	t.Helper()
	const seed = 42
	lo, _ := r.Seats()
	names := make([]string, lo)
	bots := make([]Bot, lo)
	rng := rand.New(rand.NewPCG(seed, 0))
	for i := range names {
		names[i] = fmt.Sprintf("player%d", i)
		bots[i] = func(req json.RawMessage) games.Answer { return games.Answer{Data: play(rng, req)} }
	}
	_, steps := Play(t, r, seed, names, bots)
	for _, k := range []int{0, 1, len(steps) / 2} {
		for i := range steps[k].Seats {
			req := steps[k].Requests[i]
			if req == nil {
				continue
			}
			for _, p := range programs {
				a := p.Ask(req)
				if again := p.Ask(req); !reflect.DeepEqual(a, again) {
					t.Errorf("%s answered %s, then %s to the same request %s", p.Name(), describe(a), describe(again), req)
				}
				s := r.New(seed, names)
				for _, st := range steps[:k] {
					s.Apply(st.Answers)
				}
				answers := slices.Clone(steps[k].Answers)
				answers[i] = a
				if m := s.Apply(answers)[i]; m.Verdict != fault.None {
					t.Errorf("%s answered %s to %s: %s %s", p.Name(), describe(a), req, m.Verdict, m.Reason)
				}
			}
		}
	}
	for _, p := range programs {
		t.Logf("%s: slowest answer %v", p.Name(), p.Slowest().Round(time.Millisecond))
	}
}

// Tournament plays every pair of programs two games (one in each seat) and
// strong against weak n more, the pairs two at a time, failing t on any
// fault (Match). It logs every result and returns strong's wins, draws and
// losses against weak. It is skipped in -short mode: it runs the bots'
// interpreters for hundreds of moves.
func Tournament(t *testing.T, r games.Rules, programs []*Program, strong, weak string, n int) (wins, draws, losses int) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the bots' interpreters for hundreds of moves")
	}
	find := func(name string) *Program {
		for _, p := range programs {
			if p.Name() == name {
				return p
			}
		}
		t.Fatalf("no bot %s among the examples", name)
		return nil
	}
	s, w := find(strong), find(weak)
	t.Run("pairs", func(t *testing.T) {
		for i, a := range programs {
			for _, b := range programs[i+1:] {
				t.Run(a.Name()+"-"+b.Name(), func(t *testing.T) {
					t.Parallel()
					w, d, l := Match(t, r, a, b, 2)
					t.Logf("%s against %s: %d wins, %d draws, %d losses", a.Name(), b.Name(), w, d, l)
				})
			}
		}
		t.Run(fmt.Sprintf("%s-%s-%d-games", strong, weak, n), func(t *testing.T) {
			t.Parallel()
			wins, draws, losses = Match(t, r, s, w, n)
			t.Logf("%s against %s, %d games: %d wins, %d draws, %d losses", strong, weak, n, wins, draws, losses)
		})
	})
	return wins, draws, losses
}
