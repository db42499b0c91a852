package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"botjudge/games/fault"
	"botjudge/results"
	"botjudge/sandbox/sandboxtest"
)

// A results database on read-only media (a USB stick, a read-only mount)
// is read as it is by `judge standings` and `judge serve`.
func TestReadOnlyDatabase(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "judge.db")
	db, err := results.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, _ := db.AddBot(ctx, results.Bot{Game: "virus", Name: "alpha", SHA256: strings.Repeat("a", 64)})
	b, _ := db.AddBot(ctx, results.Bot{Game: "virus", Name: "beta", SHA256: strings.Repeat("b", 64)})
	tour, err := db.EnsureTournament(ctx, "virus", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.StartRun(ctx, tour.ID, results.Run{BotIDs: []int64{a.ID, b.ID}, Planned: 1, Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveGame(ctx, results.Game{TournamentID: tour.ID, Key: "g", Round: 1, Reason: "grid full",
		Players: []results.Player{{Seat: 0, BotID: a.ID, Rank: 1}, {Seat: 1, BotID: b.ID, Rank: 2}}}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	readOnlyMount(t, dir)

	code, stdout, stderr := judge(t, "standings", "--db", path)
	if code != 0 || !strings.Contains(stdout, "virus standings (2 bots, 1 of 1 games)") {
		t.Fatalf("standings of a read-only database: exit %d\n%s%s", code, stdout, stderr)
	}
	served, err := openStore(path, false)
	if err != nil {
		t.Fatalf("the screen cannot open a read-only database: %v", err)
	}
	defer served.Close()
	if st, err := served.Standings(ctx, tour.ID, ""); err != nil || len(st) != 2 || st[0].Bot.Name != "alpha" {
		t.Errorf("standings read-only: %+v, %v", st, err)
	}
	if code, _, stderr := judge(t, "run", "--db", path, "--submissions", "../submissions"); code == 0 || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
		t.Errorf("run on a read-only database: exit %d, %q: want one line and a failure", code, stderr)
	}
}

// readOnlyMount makes dir a read-only bind mount of itself for the rest of
// the test: root ignores file modes, not a read-only mount.
func readOnlyMount(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("read-only media are tested with a bind mount, which needs root under CI=true")
		}
		t.Skip("read-only media are tested with a bind mount, which needs root")
	}
	if err := syscall.Mount(dir, dir, "", syscall.MS_BIND, ""); err != nil {
		t.Fatalf("bind mount: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	if err := syscall.Mount("", dir, "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Fatalf("remount read-only: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "probe"), nil, 0o644); err == nil {
		t.Fatal("the read-only mount is writable")
	}
}

// Students copy the same example under other names, with other extensions,
// in several games of one database: every copy plays as a bot of its own,
// and a second run plays nothing new.
func TestSameContentBots(t *testing.T) {
	sandboxtest.Docker(t)
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	shots, err := os.ReadFile(filepath.Join("..", "submissions", "battleships", "random_shots.py"))
	if err != nil {
		t.Fatal(err)
	}
	greedy, err := os.ReadFile(filepath.Join("..", "submissions", "virus", "greedy.py"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(subs, "battleships", "alice.py"), string(shots), 0o755)
	writeFile(t, filepath.Join(subs, "battleships", "bob"), string(shots), 0o755)
	writeFile(t, filepath.Join(subs, "battleships", "a.js"), "", 0o644)
	writeFile(t, filepath.Join(subs, "battleships", "b.py"), "", 0o644)
	writeFile(t, filepath.Join(subs, "virus", "b.py"), "", 0o644)
	writeFile(t, filepath.Join(subs, "virus", "greedy.py"), string(greedy), 0o644)
	writeFile(t, filepath.Join(subs, "virus", "copy.py"), string(greedy), 0o644)
	db := filepath.Join(dir, "judge.db")
	for run := range 2 {
		code, stdout, stderr := judge(t, "run", "--db", db, "--submissions", subs, "--rounds", "1", "--move-limit", "5s")
		if code != 0 {
			t.Fatalf("run %d: exit %d\n%s%s", run+1, code, stdout, stderr)
		}
		if run == 1 && (!strings.Contains(stdout, "0 games to play, 12 already recorded") || !strings.Contains(stdout, "0 games to play, 6 already recorded")) {
			t.Errorf("the second run played again:\n%s", stdout)
		}
	}
	store, err := results.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ts, _ := store.Tournaments(context.Background())
	played := map[string]int{}
	for _, tour := range ts {
		st, err := store.Standings(context.Background(), tour.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range st {
			played[tour.Game+"/"+s.Bot.Name] = s.Games
		}
	}
	want := map[string]int{"battleships/alice": 6, "battleships/bob": 6, "battleships/a": 6, "battleships/b": 6,
		"virus/b": 4, "virus/greedy": 4, "virus/copy": 4}
	for bot, n := range want {
		if played[bot] != n {
			t.Errorf("%s played %d games, want %d (all: %v)", bot, played[bot], n, played)
		}
	}
}

// A bot that times out on every move costs its games the requests it gets,
// GiveUp of them (3 by default), not every move's limit.
func TestAlwaysTimeoutBounded(t *testing.T) {
	sandboxtest.Docker(t)
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	greedy, err := os.ReadFile(filepath.Join("..", "submissions", "virus", "greedy.py"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(subs, "virus", "greedy.py"), string(greedy), 0o644)
	writeFile(t, filepath.Join(subs, "virus", "sleeper.py"), "import time\ndef ia(game, side):\n    time.sleep(60)\n", 0o644)
	db := filepath.Join(dir, "judge.db")
	code, stdout, stderr := judge(t, "run", "--db", db, "--submissions", subs, "--move-limit", "300ms")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "at most") {
		t.Errorf("no worst case printed before playing:\n%s", stdout)
	}
	store, err := results.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ts, _ := store.Tournaments(context.Background())
	list, err := store.Games(context.Background(), ts[0].ID, results.GameFilter{})
	if err != nil || len(list) != 2 {
		t.Fatalf("%d games (%v), want 2", len(list), err)
	}
	gaveUp := false
	for _, item := range list {
		g, err := store.Game(context.Background(), item.ID)
		if err != nil {
			t.Fatal(err)
		}
		asked, skipped := 0, 0
		for _, m := range g.Moves {
			switch {
			case g.Players[m.Seat].Name != "sleeper" || m.Reason == "no legal move":
			case m.Verdict != fault.Timeout:
				t.Errorf("game %d: the sleeper's move is %q: %s", g.ID, m.Verdict, m.Reason)
			case strings.HasPrefix(m.Detail, "not asked: given up"):
				skipped++
			default:
				asked++
			}
		}
		if asked > 3 || (skipped > 0 && asked != 3) {
			t.Errorf("game %d: the sleeper was asked %d times and skipped %d, want asked at most 3 times", g.ID, asked, skipped)
		}
		gaveUp = gaveUp || skipped > 0
	}
	if !gaveUp {
		t.Error("the judge never gave up on the sleeper: the test shows nothing")
	}
}

// The tournament's identity is what changes its games: another point scheme
// only recomputes the standings, and more rounds only play the new rounds.
func TestPointsAndRoundsKeepTheGames(t *testing.T) {
	sandboxtest.Docker(t)
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	for _, bot := range []string{"greedy.py", "first_cell.py"} {
		src, err := os.ReadFile(filepath.Join("..", "submissions", "virus", bot))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(subs, "virus", bot), string(src), 0o644)
	}
	db := filepath.Join(dir, "judge.db")
	run := func(args ...string) string {
		t.Helper()
		code, stdout, stderr := judge(t, append([]string{"run", "--db", db, "--submissions", subs}, args...)...)
		if code != 0 {
			t.Fatalf("judge run %v: exit %d\n%s%s", args, code, stdout, stderr)
		}
		return stdout
	}
	run()
	if out := run("--points", "3-1-0"); !strings.Contains(out, "0 games to play, 2 already recorded") || !strings.Contains(out, "points") {
		t.Errorf("--points 3-1-0 after a run: want no game played and the table:\n%s", out)
	}
	// The scheme of the latest run is the tournament's own: `judge
	// standings` counts 3 a win too.
	code, stdout, _ := judge(t, "standings", "--db", db, "--format", "json")
	var st []results.Standing
	if err := json.Unmarshal([]byte(stdout), &st); code != 0 || err != nil || len(st) != 2 {
		t.Fatalf("standings: exit %d, %v:\n%s", code, err, stdout)
	}
	for _, s := range st {
		if s.Points != float64(3*s.Wins+s.Draws) {
			t.Errorf("%s: %v points for %d wins and %d draws, want 3/1/0", s.Bot.Name, s.Points, s.Wins, s.Draws)
		}
	}
	out := run("--rounds", "2")
	if !strings.Contains(out, "2 games to play, 2 already recorded") || !strings.Contains(out, "(2 bots, 4 of 4 games)") {
		t.Errorf("--rounds 2 after one round: want the 2 games of round 2 only:\n%s", out)
	}
	// Back to one round: round 2's games are kept but not counted.
	out = run("--rounds", "1")
	if !strings.Contains(out, "0 games to play, 2 already recorded") || !strings.Contains(out, "(2 bots, 2 of 2 games)") {
		t.Errorf("--rounds 1 after two rounds:\n%s", out)
	}
	store, err := results.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if ts, _ := store.Tournaments(context.Background()); len(ts) != 1 {
		t.Errorf("%d tournaments, want one: points and rounds are not its identity", len(ts))
	}
}
