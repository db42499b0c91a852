package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"botjudge/sandbox/sandboxtest"
)

// TestCheckInterpretedLanguages: the runtime image runs the languages the
// original contests' bots are written in, unchanged: BrainJar's starter
// bot (a folder whose run.sh calls `coffee bot.coffee $1`), a PHP bot as
// botsArena's are, and one served over HTTP (index.php), each a whole game
// of `judge check` in Docker.
func TestCheckInterpretedLanguages(t *testing.T) {
	sandboxtest.Docker(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "judge.db")
	for _, bot := range []struct{ game, path, name string }{
		{"battleships", "starter", "starter"},
		{"tictactoe", "lines.php", "lines"},
		{"tictactoe", "served", "served"},
	} {
		src := filepath.Join("..", "submissions", bot.game, bot.path)
		dst := filepath.Join(dir, bot.game, bot.path)
		if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
			// A single file: CopyFS wants a folder.
			b, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, dst, string(b), 0o644)
		}
		code, stdout, stderr := judge(t, "check", "--db", db, dst)
		if code != 0 || !strings.Contains(stdout, "READY: "+bot.name+" played a whole game") ||
			!checkTimes.MatchString(stdout) || !strings.Contains(stdout, "Its slowest answer took ") {
			t.Errorf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", bot.path, code, stdout, stderr)
		}
	}
}

// checkTimes is how `judge check` gives a sandboxed answer's times: what
// it was charged, CPU, beside its wall time.
var checkTimes = regexp.MustCompile(`First answer accepted: it took \d+(\.\d)? m?s of CPU, \d+(\.\d)? m?s of wall time\.`)

// `judge check --sandbox none` says which of the host's programs runs each
// language: the system's python3 first, not a PATH's shim.
func TestCheckSaysHostInterpreters(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3 on this machine")
	}
	dir := t.TempDir()
	bot := filepath.Join(dir, "tictactoe", "random_cell.py")
	src, err := os.ReadFile(filepath.Join("..", "submissions", "tictactoe", "random_cell.py"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, bot, string(src), 0o644)
	code, stdout, stderr := judge(t, "check", "--sandbox", "none", "--db", filepath.Join(dir, "judge.db"), bot)
	if code != 0 || !strings.Contains(stdout, "Plain processes (--sandbox none) run Python with /usr/bin/python3, Node.js with ") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
}
