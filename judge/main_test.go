package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func judge(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runMain(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// Bad command lines get one clear message and exit code 2 (1 for a missing
// file or folder), before anything is started or recorded: no database file
// appears.
func TestBadCommandLines(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "j.db")
	run := func(args ...string) []string {
		return append([]string{"run", "--db", db, "--submissions", "../submissions"}, args...)
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{run("--rounds=x"), 2, "invalid value"},
		{run("--points", "2-1-0"), 2, "use 1-0.5-0 or 3-1-0"},
		{run("--format", "knockout"), 2, `unknown format "knockout"`},
		{run("--move-limit", "-1s"), 2, "--move-limit -1s: give a time from 10ms to 1h0m0s"},
		{run("--move-limit", "0"), 2, "--move-limit 0s: give a time"},
		{run("--startup-limit", "-5s"), 2, "--startup-limit -5s: give a time"},
		{run("--memory", "1000"), 2, "--memory 1000: give at least 33554432 bytes"},
		{run("--rounds", "-1"), 2, "--rounds -1: give a number of rounds"},
		{run("--workers", "-3"), 2, "--workers -3: give a number of games"},
		{run("--give-up", "-1"), 2, "--give-up -1"},
		{run("--budget", "-1s"), 2, "--budget -1s"},
		{[]string{"play", "--db", db, "--move-limit", "0", "x.py"}, 2, "--move-limit 0s"},
		{[]string{"check", "--db", db, "--memory", "5", "x.py"}, 2, "--memory 5"},
		{[]string{"run", "--db", filepath.Join(dir, "no", "such", "j.db"), "--submissions", "../submissions"}, 1, "the folder " + filepath.Join(dir, "no", "such") + " does not exist"},
		{[]string{"run", "--db", db, "--submissions", filepath.Join(dir, "nope")}, 1, "no submissions folder"},
		{[]string{"run", "--db", db, "--submissions", dir}, 1, "no bots in"},
		{[]string{"run", "--db", db, "--submissions", dir, "chess"}, 2, `unknown game "chess"`},
		{[]string{"play"}, 2, "give the bots in seat order"},
		{[]string{"check"}, 2, "give one bot"},
		{[]string{"check", filepath.Join(dir, "x.py")}, 2, "cannot tell the game"},
		{[]string{"standings", "--db", db}, 1, "no results database at " + db + ": run `judge run`"},
		{[]string{"serve", "--db", db}, 1, "no results database at " + db},
		{run("--sandbox", "vm", "virus"), 2, "unknown --sandbox"},
	}
	for _, c := range cases {
		code, _, stderr := judge(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("judge %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, stderr, c.code, c.want)
		}
		if strings.Count(strings.TrimSpace(stderr), "\n") > 0 && c.args[0] != "frobnicate" {
			t.Errorf("judge %s: the message takes several lines: %q", strings.Join(c.args, " "), stderr)
		}
		if _, err := os.Stat(db); !os.IsNotExist(err) {
			t.Fatalf("judge %s recorded something: %s exists", strings.Join(c.args, " "), db)
		}
	}
}

func TestUnknownAndEmptyFoldersAreSkipped(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"chess", "virus", "battleships"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var stderr bytes.Buffer
	_, err := gameFolders(dir, nil, &stderr)
	if err == nil || !strings.Contains(err.Error(), "no bots in") {
		t.Errorf("err = %v, want 'no bots in'", err)
	}
	for _, want := range []string{"chess: not a game folder", "virus: no bots in it", "battleships: no bots in it"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("notices %q lack %q", stderr.String(), want)
		}
	}
	os.WriteFile(filepath.Join(dir, "virus", "a.py"), nil, 0o644)
	rules, err := gameFolders(dir, nil, &stderr)
	if err != nil || len(rules) != 1 || rules[0].Name() != "virus" {
		t.Errorf("gameFolders = %v, %v; want virus", rules, err)
	}
}
