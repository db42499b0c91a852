package contest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"botjudge/games/battleships"
	"botjudge/games/fault"
	"botjudge/results"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// countingDocker counts the builds it is asked for.
type countingDocker struct {
	*sandbox.Docker
	builds atomic.Int32
}

func (c *countingDocker) Build(ctx context.Context, src, dst string, lim sandbox.BuildLimits) (sandbox.Built, error) {
	c.builds.Add(1)
	return c.Docker.Build(ctx, src, dst, lim)
}

// TestTournamentCompiledDocker: the C, Java and OCaml example bots are built
// once, checked and played; a bot that does not compile is ranked last with
// the compiler's messages as its check; a second run builds nothing again.
func TestTournamentCompiledDocker(t *testing.T) {
	d := &countingDocker{Docker: sandboxtest.Docker(t)}
	ctx := context.Background()
	root := t.TempDir()
	subs := filepath.Join(root, "battleships")
	for _, name := range []string{"sweep.c", "Checker.java", "backwards.ml"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "submissions", "battleships", name))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(subs, name), string(b), 0o644)
	}
	write(t, filepath.Join(subs, "broken.c"), "int main(void) { return 0 }\n", 0o644)
	db, err := results.Open(filepath.Join(root, "judge.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cfg := Config{Rules: battleships.Rules{}, Dir: subs, StageRoot: filepath.Join(root, "_bots"), Rounds: 1, Seed: 1,
		Scheme: results.SchemeDefault, Limits: sandbox.DefaultLimits(), Workers: 2, Image: "test"}
	sum, err := Run(ctx, d, db, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Played != 12 || sum.Failed != 0 || d.builds.Load() != 4 {
		t.Fatalf("played %d failed %d with %d builds, want 12 0 and 4", sum.Played, sum.Failed, d.builds.Load())
	}
	entries, err := db.Entries(ctx, sum.Tournament.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		c := e.Check
		broken := e.Bot.Name == "broken"
		if c.OK == broken || broken && (c.Verdict != string(fault.Build) || !strings.Contains(c.Detail, "bot.c:1:26: error") || !strings.Contains(c.Log, "error")) {
			t.Errorf("check of %s: %+v", e.Bot.Name, c)
		}
	}
	st, err := db.Standings(ctx, sum.Tournament.ID, results.SchemeDefault)
	if err != nil {
		t.Fatal(err)
	}
	if last := st[len(st)-1]; last.Bot.Name != "broken" || last.Losses != 6 {
		t.Errorf("the bot that did not compile should lose every game: %+v", last)
	}
	for _, s := range st[:len(st)-1] {
		if s.Wins < 2 {
			t.Errorf("%s won %d games: it should at least beat broken twice", s.Bot.Name, s.Wins)
		}
	}

	// Another tournament of the same bots reuses their builds.
	cfg.Seed = 2
	cfg.Dir = filepath.Join(root, "again")
	write(t, filepath.Join(cfg.Dir, "broken.c"), "int main(void) { return 0 }\n", 0o644)
	if err := os.Link(filepath.Join(subs, "sweep.c"), filepath.Join(cfg.Dir, "sweep.c")); err != nil {
		t.Fatal(err)
	}
	if sum, err := Run(ctx, d, db, cfg, nil); err != nil || sum.Played != 2 || d.builds.Load() != 4 {
		t.Fatalf("second tournament: played %d (%v) with %d builds in all, want 2 and still 4", sum.Played, err, d.builds.Load())
	}

	// A program removed by hand is built again, not missed by every game.
	built, _ := filepath.Glob(filepath.Join(cfg.StageRoot, "*-bot.c", "built", "main"))
	if len(built) != 1 {
		t.Fatalf("built programs of C bots: %v, want sweep's only", built)
	}
	if err := os.RemoveAll(filepath.Dir(built[0])); err != nil {
		t.Fatal(err)
	}
	seat, err := BuildSeat(ctx, d, Seat{Name: "sweep", Bot: sandbox.Bot{Name: "sweep", Path: filepath.Join(filepath.Dir(filepath.Dir(built[0])), "bot.c"), Protocol: sandbox.ProtocolProgram}}, sandbox.DefaultBuildLimits())
	if err != nil || seat.Build.Reused || seat.Bot.Path != filepath.Dir(built[0]) || d.builds.Load() != 5 {
		t.Errorf("rebuilt: %+v %v, %d builds in all, want 5", seat, err, d.builds.Load())
	}
	if _, err := os.Stat(built[0]); err != nil {
		t.Error(err)
	}
}
