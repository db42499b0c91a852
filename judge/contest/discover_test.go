package contest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func write(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func names(es []Entry) string {
	var ns []string
	for _, e := range es {
		ns = append(ns, e.Name)
	}
	return strings.Join(ns, ",")
}

func TestDiscoverVirus(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "alice.py"), "def ia(g, s): return False\n", 0o600)
	write(t, filepath.Join(dir, "élodie bot.py"), "def ia(g, s): return False\n", 0o644)
	write(t, filepath.Join(dir, "-dash.py"), "", 0o644)
	write(t, filepath.Join(dir, "README.txt"), "hello", 0o644)
	write(t, filepath.Join(dir, "photo.png"), "\x89PNG", 0o644)
	write(t, filepath.Join(dir, ".DS_Store"), "x", 0o644)
	write(t, filepath.Join(dir, "sub", "x.py"), "", 0o644)
	write(t, filepath.Join(dir, ".py"), "", 0o644)
	es, notices, err := Discover(dir, "virus")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(es), "-dash,alice,élodie bot"; got != want {
		t.Errorf("bots = %q, want %q", got, want)
	}
	var nt []string
	for _, n := range notices {
		nt = append(nt, filepath.Base(n.Path))
	}
	if got, want := strings.Join(nt, ","), "README.txt,photo.png,sub"; got != want {
		t.Errorf("notices about %q, want %q (%v)", got, want, notices)
	}
	for _, n := range notices {
		if !strings.Contains(n.Text, "skipped") {
			t.Errorf("notice %q does not say what happened", n)
		}
	}
}

func TestDiscoverProgramsAndCollisions(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.py"), "print('{}')", 0o644)
	write(t, filepath.Join(dir, "a.js"), "console.log('{}')", 0o644)
	write(t, filepath.Join(dir, "tool"), "#!/bin/sh\necho '{}'\n", 0o755)
	write(t, filepath.Join(dir, "notes.txt"), "not a bot", 0o644)
	write(t, filepath.Join(dir, "folder", "run.sh"), "#!/bin/sh\n", 0o755)
	write(t, filepath.Join(dir, "empty", "readme"), "", 0o644)
	es, notices, err := Discover(dir, "program")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(es), "a.js,a.py,folder,tool"; got != want {
		t.Errorf("bots = %q, want %q", got, want)
	}
	if len(notices) != 4 { // two renames, notes.txt, empty/
		t.Errorf("notices = %v, want 4", notices)
	}
}

func TestDiscoverUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		// root reads everything; make the file unreadable by being a dangling link instead
		dir := t.TempDir()
		if err := os.Symlink(filepath.Join(dir, "gone.py"), filepath.Join(dir, "link.py")); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "ok.py"), "", 0o644)
		es, notices, err := Discover(dir, "virus")
		if err != nil {
			t.Fatal(err)
		}
		if names(es) != "ok" || len(notices) != 1 || !strings.Contains(notices[0].Text, "cannot read") {
			t.Errorf("bots %q notices %v: want ok and one 'cannot read'", names(es), notices)
		}
		return
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "secret.py"), "", 0o000)
	_, notices, _ := Discover(dir, "virus")
	if len(notices) != 1 || !strings.Contains(notices[0].Text, "cannot read") {
		t.Errorf("notices = %v, want one 'cannot read'", notices)
	}
}

func TestHashChangesWithContentOnly(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "b.py"), "x = 1\n", 0o644)
	es1, _, _ := Discover(dir, "virus")
	write(t, filepath.Join(dir, "b.py"), "x = 2\n", 0o644)
	es2, _, _ := Discover(dir, "virus")
	write(t, filepath.Join(dir, "b.py"), "x = 1\n", 0o600)
	es3, _, _ := Discover(dir, "virus")
	if es1[0].SHA256 == es2[0].SHA256 {
		t.Error("a changed file kept its hash")
	}
	if es1[0].SHA256 != es3[0].SHA256 {
		t.Error("the same content got another hash")
	}
}

func TestStageFolderAndModes(t *testing.T) {
	src := t.TempDir()
	write(t, filepath.Join(src, "bot", "run.sh"), "#!/bin/sh\n", 0o700)
	write(t, filepath.Join(src, "bot", "lib", "data.txt"), "d", 0o600)
	if err := os.Symlink("/etc/passwd", filepath.Join(src, "bot", "passwd")); err != nil {
		t.Fatal(err)
	}
	es, _, err := Discover(src, "program")
	if err != nil || len(es) != 1 {
		t.Fatalf("discover: %v %v", es, err)
	}
	root := t.TempDir()
	path, err := Stage(root, es[0])
	if err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]os.FileMode{"run.sh": 0o755, "lib/data.txt": 0o644} {
		fi, err := os.Stat(filepath.Join(path, f))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s mode %v, want %v", f, fi.Mode().Perm(), want)
		}
	}
	if _, err := os.Lstat(filepath.Join(path, "passwd")); !os.IsNotExist(err) {
		t.Errorf("a link out of the bot was staged (err %v)", err)
	}
	again, err := Stage(root, es[0])
	if err != nil || again != path {
		t.Errorf("staging twice: %q %v, want %q", again, err, path)
	}
}

func entries(names ...string) []Entry {
	es := make([]Entry, len(names))
	for i, n := range names {
		es[i] = Entry{Name: n, SHA256: strings.Repeat(strconv.Itoa(i+1), 64)}
	}
	return es
}

func TestSchedule(t *testing.T) {
	es := entries("a", "b", "c")
	plan, err := Schedule(es, 2, 7, Duels, 2, 2)
	if err != nil || len(plan) != 12 {
		t.Fatalf("%d games (%v), want 3 pairs × 2 seats × 2 rounds", len(plan), err)
	}
	first := map[string]int{}
	keys := map[string]bool{}
	for _, p := range plan {
		first[es[p.Seats[0]].Name]++
		if keys[p.Key] {
			t.Errorf("key %s twice", p.Key)
		}
		keys[p.Key] = true
	}
	for _, e := range es {
		if first[e.Name] != 4 {
			t.Errorf("%s is first %d times, want 4", e.Name, first[e.Name])
		}
	}
	// One round more only adds the new round's games: the first rounds'
	// keys do not change.
	more, _ := Schedule(es, 3, 7, Duels, 2, 2)
	added := 0
	for _, p := range more {
		if !keys[p.Key] {
			added++
			if p.Round != 3 {
				t.Errorf("round %d game %s is new with 3 rounds", p.Round, p.Key)
			}
		}
	}
	if added != 6 {
		t.Errorf("3 rounds add %d games to 2 rounds, want 6", added)
	}
	// A new version of c changes the keys of c's games only.
	es[2].SHA256 = strings.Repeat("4", 64)
	changed := 0
	again, _ := Schedule(es, 2, 7, Duels, 2, 2)
	for _, p := range again {
		if !keys[p.Key] {
			changed++
		}
	}
	if changed != 8 {
		t.Errorf("%d games changed, want the 8 of c", changed)
	}
	if GameSeed(7, plan[0].Key) == GameSeed(8, plan[0].Key) {
		t.Error("the tournament seed does not reach the game seed")
	}
}

func TestScheduleFreeForAll(t *testing.T) {
	es := entries("a", "b", "c", "d")
	plan, err := Schedule(es, 5, 1, FreeForAll, 2, 12)
	if err != nil || len(plan) != 5 {
		t.Fatalf("%d games (%v), want one per round", len(plan), err)
	}
	for r, p := range plan {
		if len(p.Seats) != 4 || p.Round != r+1 || !strings.HasPrefix(p.Key, fmt.Sprintf("r%d/ffa/", r+1)) {
			t.Errorf("round %d: %+v, want the 4 bots", r+1, p)
		}
		// Seat order rotates by one each round: every bot holds the first
		// seat in turn.
		if want := r % 4; p.Seats[0] != want || p.Seats[1] != (want+1)%4 {
			t.Errorf("round %d seats %v, want %d first", r+1, p.Seats, want)
		}
	}
	// Duels of a many-seat game: every pair both ways.
	if duels, err := Schedule(es, 1, 1, Duels, 2, 12); err != nil || len(duels) != 12 {
		t.Errorf("duels: %d games (%v), want 12", len(duels), err)
	}
	for _, c := range []struct {
		name     string
		bots     int
		format   Format
		min, max int
		want     string
	}{
		{"too many bots", 4, FreeForAll, 2, 3, "use the duel format"},
		{"two seats", 3, FreeForAll, 2, 2, "a free-for-all is a duel"},
		{"no duels", 3, Duels, 3, 4, "cannot be played in duels"},
	} {
		if _, err := Schedule(es[:c.bots], 1, 1, c.format, c.min, c.max); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	if plan, err := Schedule(es[:1], 1, 1, FreeForAll, 2, 12); err != nil || len(plan) != 0 {
		t.Errorf("one bot: %v %v, want no game", plan, err)
	}
}
