package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"botjudge/sandbox/httpbot/httpbottest"
)

// urlSubmissions is a submissions folder of battleships bots reached by URL,
// served by the test on 127.0.0.1: alice and bob play, down's server never
// started listening.
func urlSubmissions(t *testing.T) (root string) {
	root = t.TempDir()
	dir := filepath.Join(root, "submissions", "battleships")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	httpbottest.Serve(t, dir, "alice", httpbottest.Battleships())
	httpbottest.Serve(t, dir, "bob", httpbottest.Battleships())
	httpbottest.URLFile(t, dir, "down", "http://127.0.0.1:1/bot")
	return root
}

// TestRunURLBots: `judge run --allow-url-bots` plays bots reached by URL (no
// Docker needed: nothing runs on the judge's machine), a bot whose server is
// down costs only itself, and the standings mark them all.
func TestRunURLBots(t *testing.T) {
	root := urlSubmissions(t)
	db := filepath.Join(root, "j.db")
	code, stdout, stderr := judge(t, "run", "--db", db, "--submissions", filepath.Join(root, "submissions"),
		"--sandbox", "none", "--allow-url-bots", "--rounds", "1", "--move-limit", "2s")
	if code != 0 {
		t.Fatalf("judge run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"ready    alice", "ready    bob",
		"BROKEN   down: crash: connection refused: nothing listens at 127.0.0.1:1 (is the bot's server running?)",
		"6 games played",
		"alice (by URL)", "bob (by URL)", "down (by URL)",
		"(by URL) = reached by URL, not sandboxed",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("judge run's output lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "WARNING: --allow-url-bots") {
		t.Errorf("no warning that URL bots are not sandboxed: %q", stderr)
	}
	// The same bots beat down, and are a match for each other.
	if line := standingsLine(stdout, "down (by URL)"); !strings.HasPrefix(strings.TrimSpace(line), "3 ") {
		t.Errorf("down is not last: %q", line)
	}
	_, stdout, _ = judge(t, "standings", "--db", db)
	if !strings.Contains(stdout, "alice (by URL)") {
		t.Errorf("judge standings does not mark bots reached by URL:\n%s", stdout)
	}
}

func standingsLine(out, name string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, name) && !strings.Contains(l, "BROKEN") {
			return l
		}
	}
	return ""
}

// TestURLBotsNeedTheFlag: without --allow-url-bots a bot reached by URL gets
// one line saying how to allow it, and never plays.
func TestURLBotsNeedTheFlag(t *testing.T) {
	root := urlSubmissions(t)
	db := filepath.Join(root, "j.db")
	subs := filepath.Join(root, "submissions")
	code, stdout, stderr := judge(t, "run", "--db", db, "--submissions", subs, "--sandbox", "none")
	for _, name := range []string{"alice", "bob", "down"} {
		want := filepath.Join(subs, "battleships", name+".url") + ": a bot reached by URL (http://127.0.0.1:"
		if n := strings.Count(stdout, want); n != 1 {
			t.Errorf("judge run: %d lines %q, want 1:\n%s", n, want, stdout)
		}
	}
	if strings.Count(stdout, "it plays only if the organiser allows it with --allow-url-bots\n") != 3 || strings.Contains(stdout, "  ready ") {
		t.Errorf("judge run (exit %d) did not skip the bots with one line each:\n%s\n%s", code, stdout, stderr)
	}

	bot := filepath.Join(subs, "battleships", "alice.url")
	for _, cmd := range []string{"check", "play"} {
		args := []string{cmd, "--db", db, "--sandbox", "none", bot}
		if cmd == "play" {
			args = append(args, bot)
		}
		code, _, stderr := judge(t, args...)
		if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "it plays only if the organiser allows it with --allow-url-bots") {
			t.Errorf("judge %s without the flag: exit %d, %q; want one line saying how to allow it", cmd, code, stderr)
		}
	}
}

// TestCheckAndPlayURLBot: `judge check` and `judge play` take a bot reached by
// URL with the flag.
func TestCheckAndPlayURLBot(t *testing.T) {
	root := urlSubmissions(t)
	db := filepath.Join(root, "j.db")
	dir := filepath.Join(root, "submissions", "battleships")
	code, stdout, stderr := judge(t, "check", "--db", db, "--sandbox", "none", "--allow-url-bots", filepath.Join(dir, "alice.url"))
	// A bot reached by URL is charged wall time: there is no CPU to show.
	if code != 0 || !strings.Contains(stdout, "READY: alice played a whole game without a fault.") ||
		!strings.Contains(stdout, "First answer accepted: it took ") || strings.Contains(stdout, "of CPU") {
		t.Errorf("judge check alice.url: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, _ = judge(t, "check", "--db", db, "--sandbox", "none", "--allow-url-bots", filepath.Join(dir, "down.url"))
	if code != 1 || !strings.Contains(stdout, "NOT READY: its first answer was refused (your bot crashed).\n  connection refused: nothing listens at 127.0.0.1:1") {
		t.Errorf("judge check down.url: exit %d\n%s", code, stdout)
	}
	code, stdout, stderr = judge(t, "play", "--db", db, "--sandbox", "none", "--allow-url-bots", "--quiet", filepath.Join(dir, "alice.url"), filepath.Join(dir, "bob.url"))
	if code != 0 || !strings.Contains(stdout, "Result: alice 14 – bob") {
		t.Errorf("judge play alice.url bob.url: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
