package main

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"botjudge/results"
	"botjudge/sandbox/sandboxtest"
)

// A real `judge run` over a messy submissions folder: every mistake gets
// one line saying what happened to it, and the good bots, odd names and
// all, play their tournament.
func TestRunOverMessyFolder(t *testing.T) {
	sandboxtest.Docker(t)
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	example, err := os.ReadFile(filepath.Join("..", "submissions", "virus", "first_cell.py"))
	if err != nil {
		t.Fatal(err)
	}
	good := []string{"élodie bot.py", "-dash.py", "x..y.py", "Twin.py", "twin.py"}
	for i, name := range good {
		// Different content, so that each is its own bot version.
		writeFile(t, filepath.Join(subs, "virus", name), string(example)+strings.Repeat("\n", i), 0o644)
	}
	bad := map[string]string{ // file in submissions/ → what its notice says
		"README.md":              "not a game folder",
		"chess":                  "not a game folder",
		"battleships":            "no bots in it",
		"virus/README.txt":       "not a Python file",
		"virus/photo.png":        "not a Python file",
		"virus/folder":           "a folder",
		"virus/gone.py":          "leads nowhere",
		"virus/" + good[3]:       `another bot is also named "Twin"`,
		"virus/" + good[4]:       `another bot is also named "twin"`,
		"virus/unreadable.py":    "cannot read it",
		"virus/.hidden.py":       "", // dot files are the system's: skipped in silence
		"virus/editor-backup~":   "",
		"virus/folder/inside.py": "",
	}
	writeFile(t, filepath.Join(subs, "README.md"), "# the contest\n", 0o644)
	writeFile(t, filepath.Join(subs, "chess", "a.py"), string(example), 0o644)
	if err := os.MkdirAll(filepath.Join(subs, "battleships"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(subs, "virus", "README.txt"), "how to play\n", 0o644)
	writeFile(t, filepath.Join(subs, "virus", "photo.png"), "\x89PNG\r\n\x1a\n", 0o644)
	writeFile(t, filepath.Join(subs, "virus", "folder", "inside.py"), string(example), 0o644)
	writeFile(t, filepath.Join(subs, "virus", ".hidden.py"), string(example), 0o644)
	writeFile(t, filepath.Join(subs, "virus", "editor-backup~"), string(example), 0o644)
	if err := os.Symlink(filepath.Join(dir, "nowhere.py"), filepath.Join(subs, "virus", "gone.py")); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 { // root reads anything: the dangling link stands for it
		writeFile(t, filepath.Join(subs, "virus", "unreadable.py"), string(example), 0o000)
	} else {
		delete(bad, "virus/unreadable.py")
	}

	dbPath := filepath.Join(dir, "judge.db")
	code, stdout, stderr := judge(t, "run", "--workers", "2", "--db", dbPath, "--submissions", subs)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	lines := strings.Split(stdout+stderr, "\n")
	for name, want := range bad {
		path := filepath.Join(subs, name)
		var about []string
		for _, l := range lines {
			if strings.Contains(l, path+":") {
				about = append(about, l)
			}
		}
		switch {
		case want == "" && len(about) != 0:
			t.Errorf("%s: unexpected notice %q", name, about)
		case want != "" && (len(about) != 1 || !strings.Contains(about[0], want)):
			t.Errorf("%s: notices %q, want one line with %q", name, about, want)
		}
	}

	// The good bots, and only they, played every game among them.
	db, err := results.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ts, err := db.Tournaments(context.Background())
	if err != nil || len(ts) != 1 {
		t.Fatalf("tournaments = %v, %v; want the virus one", ts, err)
	}
	st, err := db.Standings(context.Background(), ts[0].ID, results.SchemeDefault)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range st {
		got = append(got, s.Bot.Name)
		if s.Games != 2*(len(good)-1) || !s.Check.OK {
			t.Errorf("%s: %d games, check %+v; want %d games and a passed check", s.Bot.Name, s.Games, s.Check, 2*(len(good)-1))
		}
	}
	sort.Strings(got)
	want := []string{"-dash", "Twin.py", "twin.py", "x..y", "élodie bot"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("bots ranked %q, want %q", got, want)
	}

	// fmt pads in characters: accents do not shift the columns.
	table := stdout[strings.Index(stdout, "virus standings"):]
	rows := strings.Split(table[:strings.Index(table, "faults =")], "\n")[2:]
	for _, row := range rows[:len(rows)-1] {
		if utf8.RuneCountInString(row) != utf8.RuneCountInString(rows[0]) {
			t.Errorf("standings columns not aligned:\n%s", strings.Join(rows, "\n"))
			break
		}
	}

	// A game named by a path is refused before anything runs.
	if code, _, stderr := judge(t, "run", "--db", dbPath, "--submissions", subs, "../virus"); code != 2 || !strings.Contains(stderr, `unknown game "../virus"`) {
		t.Errorf("judge run ../virus: exit %d, stderr %q; want 2 and unknown game", code, stderr)
	}
}

// A game named on the command line whose folder is missing or empty is
// skipped with one line, like a discovered one.
func TestNamedGameWithoutBots(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "virus"), 0o755); err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	_, err := gameFolders(dir, []string{"virus", "battleships"}, &stderr)
	if err == nil || !strings.Contains(err.Error(), "no bots in") {
		t.Errorf("err = %v, want 'no bots in'", err)
	}
	want := filepath.Join(dir, "virus") + ": no bots in it, skipped\n" +
		"judge: " + filepath.Join(dir, "battleships") + ": no such folder, skipped\n"
	if got := strings.TrimPrefix(stderr.String(), "judge: "); got != want {
		t.Errorf("notices:\n%s\nwant:\n%s", got, want)
	}
	writeFile(t, filepath.Join(dir, "virus", "a.py"), "", 0o644)
	if rules, err := gameFolders(dir, []string{"virus"}, &stderr); err != nil || len(rules) != 1 {
		t.Errorf("gameFolders = %v, %v; want virus", rules, err)
	}
}
