package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlagsAfterArguments: for every command, the flags after an argument
// are read as those before it (judge run virus --db x.db), or refused in
// one line that names them; never silently ignored.
func TestFlagsAfterArguments(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such", "j.db")
	bot := filepath.Join(dir, "virus", "a.py")
	os.MkdirAll(filepath.Dir(bot), 0o755)
	os.WriteFile(bot, []byte("def ia(game, side):\n    return False\n"), 0o644)
	cases := []struct {
		args []string
		code int
		want string
	}{
		// The database named after the game is the one used: its folder is missing.
		{[]string{"run", "virus", "--db", missing, "--submissions", filepath.Join(dir)}, 1, "the folder " + filepath.Dir(missing) + " does not exist"},
		{[]string{"run", "virus", "--submissions", filepath.Join(dir, "nope")}, 1, "no submissions folder at " + filepath.Join(dir, "nope")},
		{[]string{"run", "virus", "--rounds", "-1"}, 2, "--rounds -1"},
		{[]string{"standings", "virus", "--db", missing}, 1, "no results database at " + missing},
		{[]string{"play", bot, bot, "--move-limit", "0"}, 2, "--move-limit 0s"},
		{[]string{"check", bot, "--memory", "5"}, 2, "--memory 5"},
		{[]string{"check", bot, "--frobnicate"}, 2, "flag provided but not defined: -frobnicate"},
		{[]string{"serve", "extra", "--db", missing}, 2, `serve takes no arguments, got ["extra"]`},
		{[]string{"image", "extra", "--quick"}, 2, "flag provided but not defined: -quick"},
		{[]string{"image", "extra"}, 2, `image takes no arguments, got ["extra"]`},
		{[]string{"bench", "extra", "--workers", "x"}, 2, `invalid value "x" for flag -workers`},
		{[]string{"bench", "--give-up", "-2"}, 2, "--give-up -2"},
		{[]string{"roster", "add", "alice", "--db", missing}, 1, filepath.Dir(missing)},
		{[]string{"roster", "reset", "alice", "--db", missing}, 1, filepath.Dir(missing)},
		// After "--", everything is an argument.
		{[]string{"standings", "--db", missing, "--", "--virus"}, 1, "no results database at " + missing},
	}
	for _, c := range cases {
		code, _, stderr := judge(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("judge %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, stderr, c.code, c.want)
		}
		if strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("judge %s: the message takes several lines: %q", strings.Join(c.args, " "), stderr)
		}
	}
	if _, err := os.Stat(filepath.Join("results", "judge.db")); err == nil {
		t.Errorf("a command used the default database results/judge.db")
	}
}
