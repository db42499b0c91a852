package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"botjudge/results"
	"botjudge/sandbox/sandboxtest"
)

// nothingRecorded checks that a judge that could not run recorded no
// tournament, so no bot was scored for it.
func nothingRecorded(t *testing.T, dbPath string) {
	t.Helper()
	db, err := results.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if ts, err := db.Tournaments(context.Background()); err != nil || len(ts) != 0 {
		t.Errorf("tournaments recorded: %v, %v", ts, err)
	}
}

// judgeFails runs the judge, which must fail with exit code 1 and one line
// on stderr saying what to do.
func judgeFails(t *testing.T, want string, args ...string) {
	t.Helper()
	code, _, stderr := judge(t, args...)
	// Judges that died elsewhere on this machine may have left containers:
	// removing them is said on lines of their own.
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if !strings.HasPrefix(l, "judge: removed ") {
			lines = append(lines, l)
		}
	}
	if code != 1 || len(lines) != 1 || !strings.Contains(lines[0], want) {
		t.Errorf("judge %s: exit %d, stderr %q; want exit 1 and one line with %q", args[0], code, stderr, want)
	}
}

// An unreachable engine is the judge's failure: nothing is played or
// recorded, and the organiser is told to start Docker.
func TestDockerUnreachable(t *testing.T) {
	t.Setenv("DOCKER_HOST", "unix:///nonexistent.sock")
	dbPath, args := slowContest(t)
	judgeFails(t, "start Docker", args...)
	nothingRecorded(t, dbPath)
	bot := filepath.Join(args[len(args)-1], "virus", "slow1.py")
	judgeFails(t, "start Docker", "check", "--db", dbPath, bot)
}

// A missing runtime image is the judge's failure too, and the message says
// how to build it.
func TestImageMissing(t *testing.T) {
	sandboxtest.Docker(t) // a reachable engine, or skip (fail under CI)
	t.Setenv(imageEnv, "botjudge-runtime:missing-for-test")
	dbPath, args := slowContest(t)
	judgeFails(t, "run `make image`", args...)
	nothingRecorded(t, dbPath)
}
