package bench

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"botjudge/judge/contest"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// SPEC §5 (load): a tournament of bots that decide the same way given the
// same requests — the examples, a bot that thinks 60 % of the move limit
// in CPU on some moves, one that sleeps 40 % of it, a Tron duel — plays
// the same games, moves and verdicts, on a quiet machine and beside three
// busy processes per core; and no game was retried on the quiet run.
func TestSameGamesBesideAHog(t *testing.T) {
	runners := []struct {
		name string
		run  func(t *testing.T) contest.Runner
	}{
		{"local", func(*testing.T) contest.Runner { return sandbox.NewLocal() }},
		{"docker", func(t *testing.T) contest.Runner { return sandboxtest.Pool(t).Pool }},
	}
	examples := filepath.Join("..", "..", "submissions")
	ctx := context.Background()
	for _, r := range runners {
		t.Run(r.name, func(t *testing.T) {
			run := r.run(t)
			quiet, err := PlayLoad(ctx, run, t.TempDir(), examples)
			if err != nil {
				t.Fatal(err)
			}
			if quiet.Retried > 0 {
				t.Errorf("%d games retried on a quiet machine", quiet.Retried)
			}
			stop, err := HogPerCore(3, 5*time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			loaded, err := PlayLoad(ctx, run, t.TempDir(), examples)
			stop()
			if err != nil {
				t.Fatal(err)
			}
			if len(quiet.Games) == 0 {
				t.Fatal("no game played")
			}
			for _, k := range quiet.Differ(loaded) {
				t.Errorf("%s: alone\n%s\nbeside the hog\n%s", k, quiet.Games[k], loaded.Games[k])
			}
			t.Logf("%d games, %v alone, %v beside the hog (%d retried)", len(quiet.Games), quiet.Wall.Round(time.Second), loaded.Wall.Round(time.Second), loaded.Retried)
		})
	}
}
