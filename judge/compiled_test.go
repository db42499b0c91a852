package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"botjudge/sandbox/sandboxtest"
)

// TestCheckCompiled: `judge check` shows a compile error in plain words
// with the compiler's messages, and a bot that compiles is built once: its
// second check says so.
func TestCheckCompiled(t *testing.T) {
	sandboxtest.Docker(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "judge.db")
	games := filepath.Join(dir, "battleships")
	if err := os.MkdirAll(games, 0o755); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(games, "broken.c")
	writeFile(t, broken, "#include <stdio.h>\nint main(void) { puts(\"{}\") return 0; }\n", 0o644)
	code, stdout, stderr := judge(t, "check", "--db", db, broken)
	if code != 1 || !strings.Contains(stdout, "NOT READY: your bot did not compile:\n") ||
		!strings.Contains(stdout, "bot.c:2:28: error: expected") || strings.Contains(stdout, "Compiled in") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	src, err := os.ReadFile(filepath.Join("..", "submissions", "battleships", "sweep.c"))
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(games, "sweep.c")
	writeFile(t, good, string(src), 0o644)
	for _, want := range []string{"Compiled in", "Compiled before"} {
		code, stdout, stderr := judge(t, "check", "--db", db, good)
		if code != 0 || !strings.Contains(stdout, want) || !strings.Contains(stdout, "READY: sweep played a whole game") {
			t.Errorf("exit %d, want 0 and %q\nstdout:\n%s\nstderr:\n%s", code, want, stdout, stderr)
		}
	}

	// A bot that does not compile loses a game as any broken bot does.
	code, stdout, stderr = judge(t, "play", "--quiet", "--db", db, broken, good)
	if code != 0 || !strings.Contains(stdout, "sweep wins") {
		t.Errorf("play: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	// Plain processes cannot build: one line says what to do, after the
	// warning every --sandbox=none gets.
	code, _, stderr = judge(t, "check", "--sandbox", "none", "--db", db, good)
	if lines := strings.Split(strings.TrimSpace(stderr), "\n"); code != 1 || len(lines) != 2 || !strings.Contains(lines[1], "run without --sandbox=none") {
		t.Errorf("check --sandbox none: exit %d, stderr %q", code, stderr)
	}
}
