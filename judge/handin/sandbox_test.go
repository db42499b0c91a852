package handin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"

	"github.com/docker/docker/api/types"
	"github.com/docker/docker/client"
)

// TestSandboxCheck checks hand-ins in the real sandbox: a working bot is
// ready and plays a sparring game against each example bot, replayed on
// the screen's own page for its student; a broken one is not ready, and its
// page says why with its own error.
func TestSandboxCheck(t *testing.T) {
	d := sandboxtest.Docker(t)
	sc := &SandboxChecker{Run: d, StageRoot: t.TempDir(), Limits: sandbox.DefaultLimits()}
	c := newClass(t, Options{Checker: sc, Games: []string{"virus"}}, "alice", "bob")
	os.Remove(filepath.Join(c.subs, "virus", "example.py"))
	for _, ex := range []string{"first_cell.py", "greedy.py"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "submissions", "virus", ex))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(c.subs, "virus", ex), data, 0o644)
	}
	good, _ := os.ReadFile(filepath.Join("..", "..", "submissions", "virus", "greedy.py"))
	alice, bob := c.student("alice"), c.student("bob")
	loc := alice.location("virus", "mine.py", good)
	bob.location("virus", "broken.py", []byte("def ia(game, side):\n    return game.nope(\n"))

	h := waitDoneWithin(t, c, "alice", 1, 5*time.Minute)[0]
	rep, err := ReadReport(h)
	if err != nil || !rep.Ready || len(rep.Sparring) != 2 {
		t.Fatalf("alice's report: %s (%v): want ready, 2 sparring games (bob is a student, not an example)", h.Report, err)
	}
	for _, sp := range rep.Sparring {
		if len(sp.Opponents) != 1 || (sp.Opponents[0] != "first_cell" && sp.Opponents[0] != "greedy") {
			t.Errorf("a sparring game against %v", sp.Opponents)
		}
	}
	_, page := alice.get(loc)
	if !strings.Contains(page, `id="ready"`) || !strings.Contains(page, fmt.Sprintf(`href="/game/%d"`, rep.Sparring[0].GameID)) {
		t.Errorf("alice's page shows neither READY nor the replay:\n%s", page)
	}
	st, body := alice.get(fmt.Sprintf("/api/game/%d/replay.json", rep.Sparring[0].GameID))
	var rp struct {
		Consistent bool `json:"consistent"`
		Frames     []any
	}
	if st != http.StatusOK || json.Unmarshal([]byte(body), &rp) != nil || !rp.Consistent || len(rp.Frames) < 2 {
		t.Errorf("the sparring game's replay for alice: %d %.300s", st, body)
	}

	hb := waitDoneWithin(t, c, "bob", 1, 5*time.Minute)[0]
	rb, _ := ReadReport(hb)
	if rb.Ready || rb.Verdict == "" || len(rb.Sparring) != 0 {
		t.Errorf("bob's broken bot: %s", hb.Report)
	}
	_, page = bob.get(fmt.Sprintf("/hand-in/v/%d", hb.ID))
	if !strings.Contains(page, "NOT READY") || !strings.Contains(page, "SyntaxError") {
		t.Errorf("bob's page does not say why:\n%s", page)
	}
}

// TestEveryGame: a student hands in a bot for each game of the project,
// each a Python example bot of the game, and sees it checked in the sandbox
// and its sparring game against that example readable, as the issue's
// organiser opens every game on contest day.
func TestEveryGame(t *testing.T) {
	if testing.Short() {
		t.Skip("a check and a sparring game in Docker per game")
	}
	d := sandboxtest.Docker(t)
	sc := &SandboxChecker{Run: d, StageRoot: t.TempDir(), Limits: sandbox.DefaultLimits(), Opponents: 1}
	shipped := filepath.Join("..", "..", "submissions")
	folders, err := os.ReadDir(shipped)
	if err != nil {
		t.Fatal(err)
	}
	mine := map[string][]byte{}
	var gameNames []string
	for _, f := range folders {
		bots, _ := filepath.Glob(filepath.Join(shipped, f.Name(), "*.py"))
		if !f.IsDir() || len(bots) == 0 {
			continue
		}
		// The last in name order is the plainest (random_*, wanderer):
		// the check and the sparring are the same whatever the bot
		// thinks, and the thinkers' minutes of CPU are the examples'
		// own tests'.
		data, err := os.ReadFile(bots[len(bots)-1])
		if err != nil {
			t.Fatal(err)
		}
		gameNames = append(gameNames, f.Name())
		mine[f.Name()] = data
	}
	if len(gameNames) < 6 {
		t.Fatalf("%d games with a Python example, want the six: %v", len(gameNames), gameNames)
	}
	c := newClass(t, Options{Checker: sc, Games: gameNames}, "alice")
	os.Remove(filepath.Join(c.subs, "virus", "example.py"))
	for _, g := range gameNames {
		os.MkdirAll(filepath.Join(c.subs, g), 0o755)
		os.WriteFile(filepath.Join(c.subs, g, "example.py"), mine[g], 0o644)
	}
	alice := c.student("alice")
	for _, g := range gameNames {
		alice.location(g, "my bot.py", append([]byte("# alice's\n"), mine[g]...))
	}
	for _, h := range waitDoneWithin(t, c, "alice", len(gameNames), 15*time.Minute) {
		rep, err := ReadReport(h)
		if err != nil || !rep.Ready || len(rep.Sparring) != 1 {
			t.Errorf("%s: %s (%v): want ready with one sparring game", h.Game, h.Report, err)
			continue
		}
		if st, body := alice.get(fmt.Sprintf("/api/game/%d/replay.json", rep.Sparring[0].GameID)); st != http.StatusOK || !strings.Contains(body, `"consistent":true`) {
			t.Errorf("%s: the sparring game's replay: %d %.200s", h.Game, st, body)
		}
	}
}

// TestThirtyAtOnceDocker: thirty students hand in at the same moment, with
// the real sandbox and one check at a time: every version is kept, checked
// and ready, none times out for waiting its turn.
func TestThirtyAtOnceDocker(t *testing.T) {
	if testing.Short() {
		t.Skip("thirty checks in Docker")
	}
	d := sandboxtest.Docker(t)
	sc := &SandboxChecker{Run: d, StageRoot: t.TempDir(), Limits: sandbox.DefaultLimits(), Opponents: 1}
	names := make([]string, 30)
	for i := range names {
		names[i] = fmt.Sprintf("s%02d", i)
	}
	c := newClass(t, Options{Checker: sc, Games: []string{"virus"}, Workers: 1}, names...)
	os.Remove(filepath.Join(c.subs, "virus", "example.py"))
	bot, _ := os.ReadFile(filepath.Join("..", "..", "submissions", "virus", "first_cell.py"))
	os.WriteFile(filepath.Join(c.subs, "virus", "first_cell.py"), bot, 0o644)
	browsers := make([]*browser, len(names))
	for i, n := range names {
		browsers[i] = c.student(n)
	}
	start := time.Now()
	var wg sync.WaitGroup
	for i, b := range browsers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each its own content: thirty versions, not one staged once.
			b.location("virus", "bot.py", append([]byte(fmt.Sprintf("# %s\n", names[i])), bot...))
		}()
	}
	wg.Wait()
	accepted := time.Since(start)
	for _, n := range names {
		h := waitDoneWithin(t, c, n, 1, 10*time.Minute)[0]
		if rep, _ := ReadReport(h); !rep.Ready || len(rep.Sparring) != 1 {
			t.Errorf("%s: %s", n, h.Report)
		}
	}
	t.Logf("30 hand-ins accepted in %s, all checked with a sparring game each in %s (one check at a time)", accepted.Round(time.Millisecond), time.Since(start).Round(time.Second))
}

// TestJavaFile: a Java file handed in is named after its student yet
// compiles under its class's name, and plays.
func TestJavaFile(t *testing.T) {
	if testing.Short() {
		t.Skip("a JVM per request: minutes")
	}
	d := sandboxtest.Docker(t)
	sc := &SandboxChecker{Run: d, StageRoot: t.TempDir(), Limits: sandbox.DefaultLimits(), Opponents: 1}
	c := newClass(t, Options{Checker: sc, Games: []string{"battleships"}}, "alice")
	os.MkdirAll(filepath.Join(c.subs, "battleships"), 0o755)
	ex, _ := os.ReadFile(filepath.Join("..", "..", "submissions", "battleships", "random_shots.py"))
	os.WriteFile(filepath.Join(c.subs, "battleships", "random_shots.py"), ex, 0o755)
	src, err := os.ReadFile(filepath.Join("..", "..", "submissions", "battleships", "Checker.java"))
	if err != nil {
		t.Fatal(err)
	}
	c.student("alice").location("battleships", "MyBot.java", src)
	if _, err := os.Stat(filepath.Join(c.subs, "battleships", "alice", "Checker.java")); err != nil {
		t.Errorf("alice's Java bot: %v", err)
	}
	h := waitDoneWithin(t, c, "alice", 1, 5*time.Minute)[0]
	if rep, _ := ReadReport(h); !rep.Ready || len(rep.Sparring) != 1 {
		t.Errorf("alice's Java bot: %s", h.Report)
	}
}

// TestBuildOutputBounded: a folder bot whose build.sh writes 200 MB, and
// one writing 20,000 files, fail their build with the reason on their
// student's page; neither leaves anything in the stage folder or in the
// judge's volumes.
func TestBuildOutputBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("two builds in Docker")
	}
	d := sandboxtest.Docker(t)
	stage := t.TempDir()
	sc := &SandboxChecker{Run: d, StageRoot: stage, Limits: sandbox.DefaultLimits(), Opponents: 1}
	c := newClass(t, Options{Checker: sc, Games: []string{"tictactoe"}}, "big", "many")
	ex, _ := os.ReadFile(filepath.Join("..", "..", "submissions", "tictactoe", "random_cell.py"))
	os.WriteFile(filepath.Join(c.subs, "tictactoe", "random_cell.py"), ex, 0o644)
	builds := map[string]string{
		"big":  "dd if=/dev/zero of=big bs=1M count=200 2>/dev/null\n",
		"many": "mkdir d && cd d && i=0 && while [ $i -lt 20000 ]; do : > f$i; i=$((i+1)); done\n",
	}
	want := map[string]string{"big": "more than 64 MiB", "many": "more than 2000 files"}
	for name, build := range builds {
		c.student(name).location("tictactoe", "bot.zip", zipOf(t, map[string]string{"build.sh": build, "run.sh": "#!/bin/sh\nexec python3 bot.py\n", "bot.py": string(ex)}))
	}
	for name := range builds {
		h := waitDoneWithin(t, c, name, 1, 5*time.Minute)[0]
		rep, _ := ReadReport(h)
		if rep.Ready || !rep.BuildFailed || !strings.Contains(rep.Detail, want[name]) {
			t.Errorf("%s: %s, want a failed build saying %q", name, h.Report, want[name])
		}
		if _, page := c.student(name).get(fmt.Sprintf("/hand-in/v/%d", h.ID)); !strings.Contains(page, want[name]) {
			t.Errorf("%s's page does not say why", name)
		}
	}
	var bytes int64
	var files int
	filepath.WalkDir(stage, func(p string, de os.DirEntry, err error) error {
		if info, err := de.Info(); err == nil {
			bytes, files = bytes+info.Size(), files+1
		}
		return nil
	})
	if bytes > 1<<20 || files > 100 {
		t.Errorf("the stage folder kept %d files, %d bytes", files, bytes)
	}
	if size := volumesSize(t, d.Owner()); size > 1<<20 {
		t.Errorf("the judge's volumes hold %d bytes after two failed builds", size)
	}
}

// volumesSize is the bytes in the volumes of the judge owner.
func volumesSize(t *testing.T, owner string) int64 {
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	du, err := cli.DiskUsage(context.Background(), types.DiskUsageOptions{Types: []types.DiskUsageObject{types.VolumeObject}})
	if err != nil {
		t.Fatal(err)
	}
	var size int64
	for _, v := range du.Volumes {
		if v.Labels[sandbox.LabelOwner] == owner && v.UsageData != nil {
			size += v.UsageData.Size
		}
	}
	return size
}
