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

// Bad command lines get one clear message and exit code 2, before anything
// is started.
func TestBadCommandLines(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"run", "--rounds=x"}, 2, "invalid value"},
		{[]string{"run", "--points", "2-1-0", "--submissions", dir}, 2, "use 1-0.5-0 or 3-1-0"},
		{[]string{"run", "--submissions", filepath.Join(dir, "nope")}, 1, "no submissions folder"},
		{[]string{"run", "--submissions", dir}, 1, "no bots in"},
		{[]string{"run", "--submissions", dir, "chess"}, 2, `unknown game "chess"`},
		{[]string{"play", "a.py"}, 2, "give two bots"},
		{[]string{"check"}, 2, "give one bot"},
		{[]string{"check", filepath.Join(dir, "x.py")}, 2, "cannot tell the game"},
		{[]string{"standings", "--db", filepath.Join(dir, "empty.db")}, 1, "no tournament"},
		{[]string{"run", "--sandbox", "vm", "--db", filepath.Join(dir, "j.db"), "--submissions", "../submissions", "virus"}, 2, "unknown --sandbox"},
	}
	for _, c := range cases {
		code, _, stderr := judge(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("judge %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, stderr, c.code, c.want)
		}
		if strings.Count(strings.TrimSpace(stderr), "\n") > 0 && c.code == 1 {
			t.Errorf("judge %s: the message takes several lines: %q", strings.Join(c.args, " "), stderr)
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
