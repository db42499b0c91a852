package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"botjudge/games"
	"botjudge/games/fault"
	"botjudge/results"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// slowBot is a virus bot that thinks 100 ms per move and stops placing after
// a few pieces, so that a game lasts about three seconds: long enough to be
// caught in the middle, short enough for a test. Each bot places a different
// number of pieces, so the games have different outcomes.
const slowBot = `import time

PLACES = %d


def ia(game, side):
    time.sleep(0.1)
    mine = game["references"][side]
    placed = sum(1 for h in game["history"] if h[0] == side and h[1] is not False)
    if placed >= PLACES:
        return False
    g = game["grid"]
    for r in range(10):
        for c in range(10):
            if g[r][c] == 0 and any(0 <= r + i < 10 and 0 <= c + j < 10 and g[r + i][c + j] == mine
                                    for i in (-1, 0, 1) for j in (-1, 0, 1)):
                return [r, c]
    return False
`

// slowContest writes four slow bots (12 games) and returns the arguments of
// a `judge run` over them.
func slowContest(t *testing.T) (dbPath string, args []string) {
	t.Helper()
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	for i := 1; i <= 4; i++ {
		writeFile(t, filepath.Join(subs, "virus", fmt.Sprintf("slow%d.py", i)), fmt.Sprintf(slowBot, 2*i), 0o644)
	}
	dbPath = filepath.Join(dir, "judge.db")
	return dbPath, []string{"run", "--workers", "2", "--db", dbPath, "--submissions", subs}
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// judgeBinary builds the real judge command once per test binary: these
// tests kill it, which they cannot do to themselves.
func judgeBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "judge-bin-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "judge")
		out, err := exec.Command("go", "build", "-o", builtBin, "botjudge/judge").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builtBin != "" {
		os.RemoveAll(filepath.Dir(builtBin))
	}
	os.Exit(code)
}

// syncBuffer is a child's output, read while the child writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// child is a `judge` process.
type child struct {
	cmd            *exec.Cmd
	stdout, stderr syncBuffer
	exited         chan struct{}
	err            error
}

func startJudge(t *testing.T, args ...string) *child {
	t.Helper()
	c := &child{exited: make(chan struct{})}
	c.cmd = exec.Command(judgeBinary(t), args...)
	c.cmd.Stdout, c.cmd.Stderr = &c.stdout, &c.stderr
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		c.err = c.cmd.Wait()
		close(c.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-c.exited:
		default:
			c.cmd.Process.Kill()
			<-c.exited
		}
	})
	return c
}

func (c *child) pid() string { return strconv.Itoa(c.cmd.Process.Pid) }

// wait waits for the child to exit and returns its exit code (-1 when a
// signal killed it).
func (c *child) wait(t *testing.T, limit time.Duration) int {
	t.Helper()
	select {
	case <-c.exited:
	case <-time.After(limit):
		t.Fatalf("judge still running after %v\nstdout:\n%s\nstderr:\n%s", limit, c.stdout.String(), c.stderr.String())
	}
	var ee *exec.ExitError
	if c.err != nil && !errors.As(c.err, &ee) {
		t.Fatal(c.err)
	}
	return c.cmd.ProcessState.ExitCode()
}

// waitFor polls cond until it holds, failing if the child exits first.
func (c *child) waitFor(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		select {
		case <-c.exited:
			t.Fatalf("judge exited before %s\nstdout:\n%s\nstderr:\n%s", what, c.stdout.String(), c.stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after %v\nstdout:\n%s\nstderr:\n%s", what, limit, c.stdout.String(), c.stderr.String())
		}
	}
}

// openRunning opens the database of a judge once it is playing, and the
// tournament it plays.
func openRunning(t *testing.T, c *child, dbPath string) (*results.DB, results.Tournament) {
	t.Helper()
	c.waitFor(t, "games being played", time.Minute, func() bool { return strings.Contains(c.stdout.String(), "games to play") })
	db, err := results.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ts, err := db.Tournaments(context.Background())
	if err != nil || len(ts) != 1 {
		t.Fatalf("tournaments = %v, %v; want one", ts, err)
	}
	return db, ts[0]
}

func played(t *testing.T, db *results.DB, tid int64) int {
	t.Helper()
	keys, err := db.PlayedKeys(context.Background(), tid)
	if err != nil {
		t.Fatal(err)
	}
	return len(keys)
}

func containersOf(t *testing.T, d *sandbox.Docker, c *child) int {
	t.Helper()
	ids, err := d.ContainersLabelled(context.Background(), sandbox.LabelPID, c.pid())
	if err != nil {
		t.Fatal(err)
	}
	return len(ids)
}

// stored is what must never change once a game is recorded.
type stored struct {
	id      int64
	outcome string
	moves   int
}

// storedGames reads every recorded game by key, checking that each one is
// whole: its moves replay through the rules to the end of the game and to
// the recorded outcome. It returns the games by key and how many keys were
// stored more than once.
func storedGames(t *testing.T, db *results.DB, tid int64) (map[string]stored, int) {
	t.Helper()
	ctx := context.Background()
	list, err := db.Games(ctx, tid, results.GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	rules, _ := games.Lookup("virus")
	out := map[string]stored{}
	dups := 0
	for _, sum := range list {
		g, err := db.Game(ctx, sum.ID)
		if err != nil {
			t.Fatal(err)
		}
		names := make([]string, len(g.Players))
		for i, p := range g.Players {
			names[i] = p.Name
		}
		answers := make([]games.Answer, len(g.Moves))
		for i, m := range g.Moves {
			answers[i] = games.Answer{Data: m.Answer}
			if len(m.Answer) == 0 {
				answers[i] = games.Answer{Fault: fault.Kind(m.Verdict), Detail: m.Detail}
			}
		}
		n := 0
		final, err := games.Replay(rules, g.Seed, names, answers, func(_ games.State, ms []games.Move) { n += len(ms) })
		var want games.Outcome
		switch {
		case err != nil:
			t.Errorf("game %s is not whole: %v", g.Key, err)
		case n != len(g.Moves):
			t.Errorf("game %s ended after %d of its %d moves", g.Key, n, len(g.Moves))
		case json.Unmarshal(g.Outcome, &want) != nil || fmt.Sprint(final.Outcome()) != fmt.Sprint(want):
			t.Errorf("game %s: recorded outcome %s, its moves give %v", g.Key, g.Outcome, final.Outcome())
		}
		if _, seen := out[g.Key]; seen {
			dups++
		}
		out[g.Key] = stored{g.ID, string(g.Outcome), len(g.Moves)}
	}
	return out, dups
}

func liveRows(t *testing.T, db *results.DB, tid int64) int {
	t.Helper()
	l, err := db.Live(context.Background(), tid)
	if err != nil {
		t.Fatal(err)
	}
	return len(l)
}

// A judge killed with SIGKILL mid-tournament and started again finishes the
// tournament: every game recorded before the kill is kept as it was, none
// is played twice, and the dead run's containers are removed.
func TestKilledJudgeResumes(t *testing.T) {
	d := sandboxtest.Docker(t)
	ctx := context.Background()
	dbPath, args := slowContest(t)

	first := startJudge(t, args...)
	db, tour := openRunning(t, first, dbPath)
	first.waitFor(t, "three recorded games", time.Minute, func() bool { return played(t, db, tour.ID) >= 3 })
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if code := first.wait(t, 10*time.Second); code != -1 {
		t.Fatalf("killed judge exited with %d", code)
	}
	before, dups := storedGames(t, db, tour.ID)
	if dups != 0 {
		t.Fatalf("%d games stored twice before the kill", dups)
	}
	if len(before) >= tour.Planned {
		t.Fatalf("the tournament (%d games) was over before the kill", tour.Planned)
	}
	// The engine finishes the requests of the killed judge on its own
	// (creating a container, removing one): wait until it is done, so that
	// the judge started again must find every container at once.
	orphans := containersOf(t, d, first)
	for stable := 0; stable < 5; stable++ {
		time.Sleep(300 * time.Millisecond)
		if n := containersOf(t, d, first); n != orphans {
			orphans, stable = n, -1
		}
	}
	if orphans == 0 {
		t.Fatal("the killed judge left no container: it was not killed mid-game, the test proves nothing")
	}
	staleLive := liveRows(t, db, tour.ID)

	second := startJudge(t, args...)
	second.waitFor(t, "games being played again", time.Minute, func() bool { return strings.Contains(second.stdout.String(), "games to play") })
	if n := containersOf(t, d, first); n != 0 {
		t.Errorf("%d containers of the killed judge still there once the next one plays", n)
	}
	if code := second.wait(t, 2*time.Minute); code != 0 {
		t.Fatalf("the judge started again exited with %d\nstdout:\n%s\nstderr:\n%s", code, second.stdout.String(), second.stderr.String())
	}
	// Judges that died elsewhere on this machine may add theirs to the count.
	m := regexp.MustCompile(`removed (\d+) containers left by a run that died`).FindStringSubmatch(second.stderr.String())
	reaped := 0
	if m != nil {
		reaped, _ = strconv.Atoi(m[1])
	}
	if reaped < orphans {
		t.Errorf("stderr %q does not say it removed the %d containers left", second.stderr.String(), orphans)
	}
	if want := fmt.Sprintf("%d games to play, %d already recorded", tour.Planned-len(before), len(before)); !strings.Contains(second.stdout.String(), want) {
		t.Errorf("stdout lacks %q:\n%s", want, second.stdout.String())
	}

	after, dups := storedGames(t, db, tour.ID)
	if len(after) != tour.Planned {
		t.Errorf("%d games recorded at the end, want the %d planned", len(after), tour.Planned)
	}
	lost := 0
	for key, g := range before {
		if after[key] != g {
			lost++
			t.Errorf("game %s recorded before the kill changed: %+v, now %+v", key, g, after[key])
		}
	}
	left := containersOf(t, d, first) + containersOf(t, d, second)
	if left != 0 {
		t.Errorf("%d containers left at the end", left)
	}
	if n := liveRows(t, db, tour.ID); n != 0 {
		t.Errorf("%d live rows left after the tournament (the killed run left %d)", n, staleLive)
	}
	if t2, err := db.Tournament(ctx, tour.ID); err != nil || t2.Finished.IsZero() {
		t.Errorf("tournament not marked finished: %+v, %v", t2, err)
	}
	figures := fmt.Sprintf("crash and resume: %d games planned; finished before the kill: %d; finished after the restart: %d; "+
		"lost: %d; duplicated: %d; containers left by the killed judge: %d (removed on restart); live rows left: %d (cleared on restart); containers left at the end: %d\n",
		tour.Planned, len(before), len(after)-len(before)+lost, lost, dups, orphans, staleLive, left)
	t.Log(figures)
	if path := os.Getenv("CRASH_FIGURES"); path != "" {
		if err := os.WriteFile(path, []byte(figures), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// Ctrl-C stops the judge between moves: it says so, exits with 130, and
// leaves only whole games, no judge failure, no live game and no container.
func TestInterruptedJudgeStopsCleanly(t *testing.T) {
	d := sandboxtest.Docker(t)
	dbPath, args := slowContest(t)

	c := startJudge(t, args...)
	db, tour := openRunning(t, c, dbPath)
	c.waitFor(t, "a recorded game and one in progress", time.Minute, func() bool {
		return played(t, db, tour.ID) >= 1 && liveRows(t, db, tour.ID) >= 1
	})
	if err := c.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	// Between moves means within one move (100 ms) plus removing the
	// containers.
	if code := c.wait(t, 20*time.Second); code != 130 {
		t.Errorf("exit code %d after Ctrl-C, want 130", code)
	}
	recorded, dups := storedGames(t, db, tour.ID)
	if dups != 0 {
		t.Errorf("%d games stored twice", dups)
	}
	if len(recorded) == 0 || len(recorded) >= tour.Planned {
		t.Errorf("%d of %d games recorded: not stopped mid-tournament", len(recorded), tour.Planned)
	}
	if want := fmt.Sprintf("Stopped. %d games of virus recorded; run again", len(recorded)); !strings.Contains(c.stdout.String(), want) {
		t.Errorf("stdout lacks %q:\n%s", want, c.stdout.String())
	}
	// Other lines may tell of containers left by other judges that died.
	if stderr := c.stderr.String(); !strings.HasSuffix(stderr, "\njudge run: stopped: context canceled\n") && stderr != "judge run: stopped: context canceled\n" ||
		strings.Count(stderr, "stopped") != 1 {
		t.Errorf("stderr = %q, want one line saying it stopped", stderr)
	}
	if f, err := db.Failures(context.Background(), tour.ID); err != nil || len(f) != 0 {
		t.Errorf("Ctrl-C recorded judge failures: %v, %v", f, err)
	}
	if n := liveRows(t, db, tour.ID); n != 0 {
		t.Errorf("%d games still shown live after Ctrl-C", n)
	}
	if n := containersOf(t, d, c); n != 0 {
		t.Errorf("%d containers left after Ctrl-C", n)
	}
}
