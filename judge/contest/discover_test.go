package contest

import (
	"botjudge/games"
	"botjudge/sandbox"
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
	es, notices, err := Discover(dir, games.ProtocolIA, false)
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
	es, notices, err := Discover(dir, games.ProtocolProgram, false)
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
		es, notices, err := Discover(dir, games.ProtocolIA, false)
		if err != nil {
			t.Fatal(err)
		}
		if names(es) != "ok" || len(notices) != 1 || !strings.Contains(notices[0].Text, "leads nowhere") {
			t.Errorf("bots %q notices %v: want ok and one 'leads nowhere'", names(es), notices)
		}
		return
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "secret.py"), "", 0o000)
	_, notices, _ := Discover(dir, games.ProtocolIA, false)
	if len(notices) != 1 || !strings.Contains(notices[0].Text, "cannot read") {
		t.Errorf("notices = %v, want one 'cannot read'", notices)
	}
}

// TestLinksOutsideSkipped: a submission that is a link to a host file (from
// an unpacked archive) is never followed, so nothing of the host reaches a
// sandbox or a bot's error message; a link to a bot in the same folder plays.
func TestLinksOutsideSkipped(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "game")
	write(t, filepath.Join(dir, "real.py"), "def ia(g, s): return False\n", 0o644)
	write(t, filepath.Join(root, "outside.py"), "def ia(g, s): return False\n", 0o644)
	for link, target := range map[string]string{
		"passwd.py": "/etc/passwd", "escape.py": filepath.Join(root, "outside.py"),
		"relative.py": "../outside.py", "alias.py": "real.py",
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	es, notices, err := Discover(dir, games.ProtocolIA, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(es); got != "alias,real" {
		t.Errorf("bots %q, want alias,real", got)
	}
	skipped := map[string]bool{}
	for _, n := range notices {
		if strings.Contains(n.Text, "outside the game folder") && strings.Contains(n.Text, "never followed") {
			skipped[filepath.Base(n.Path)] = true
		}
	}
	for _, link := range []string{"passwd.py", "escape.py", "relative.py"} {
		if !skipped[link] {
			t.Errorf("%s: no notice that it was skipped (%v)", link, notices)
		}
	}
}

// TestStageSameContent: students copy the same example under other names
// and extensions, in several games: every copy stages, none hides another.
// TestDiscoverCompiled: single C, C++, Java and OCaml files and folders
// with only a build.sh are bots; a Java file keeps its name once staged,
// since javac wants its class's name there, and other sources take bot.*.
func TestDiscoverCompiled(t *testing.T) {
	dir, root := t.TempDir(), t.TempDir()
	for _, f := range []string{"c.c", "cpp.cpp", "Main.java", "ml.ml", "notes.h"} {
		write(t, filepath.Join(dir, f), "x", 0o644)
	}
	write(t, filepath.Join(dir, "made", "build.sh"), "gcc -o main main.c\n", 0o644)
	es, notices, err := Discover(dir, games.ProtocolProgram, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(es), "Main,c,cpp,made,ml"; got != want {
		t.Errorf("bots = %q, want %q", got, want)
	}
	if len(notices) != 1 || !strings.Contains(notices[0].Text, ".java") {
		t.Errorf("notices = %v, want one for notes.h that names the languages", notices)
	}
	staged := map[string]string{}
	for _, e := range es {
		p, err := Stage(root, e)
		if err != nil {
			t.Fatal(err)
		}
		staged[e.Name] = filepath.Base(p)
		if !sandbox.Compiled(p) {
			t.Errorf("%s staged as %s is not seen as compiled", e.Name, p)
		}
	}
	if staged["Main"] != "Main.java" || staged["c"] != "bot.c" || staged["made"] != "bot" {
		t.Errorf("staged names %v", staged)
	}
	if es, _, _ := Discover(dir, games.ProtocolIA, false); len(es) != 0 {
		t.Errorf("virus bots are Python: got %v", names(es))
	}
}

func TestStageSameContent(t *testing.T) {
	src, root := t.TempDir(), t.TempDir()
	same := "print('{}')\n"
	for _, f := range []string{"a.js", "b.py", "c.py", "d"} {
		write(t, filepath.Join(src, f), same, 0o644)
	}
	write(t, filepath.Join(src, "empty.js"), "", 0o644)
	write(t, filepath.Join(src, "empty.py"), "", 0o644)
	paths := map[string]string{}
	for _, f := range []string{"a.js", "b.py", "c.py", "d", "empty.js", "empty.py"} {
		e := Entry{Name: f, Source: filepath.Join(src, f), Kind: "file"}
		info, _ := os.Stat(e.Source)
		sum, err := hashBot(e.Source, info)
		if err != nil {
			t.Fatal(err)
		}
		e.SHA256 = sum
		// Twice, as two runs (or two games) would.
		for range 2 {
			p, err := Stage(root, e)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			paths[f] = p
		}
		if b, err := os.ReadFile(paths[f]); err != nil || string(b) != map[bool]string{true: "", false: same}[strings.HasPrefix(f, "empty")] {
			t.Errorf("%s staged as %q (%v)", f, b, err)
		}
	}
	if paths["b.py"] != paths["c.py"] {
		t.Errorf("the same .py content staged twice: %s, %s", paths["b.py"], paths["c.py"])
	}
	if paths["a.js"] == paths["b.py"] || paths["b.py"] == paths["d"] || paths["empty.js"] == paths["empty.py"] {
		t.Errorf("one staged copy for two extensions: %v", paths)
	}
	if filepath.Base(paths["d"]) != "bot" || filepath.Base(paths["a.js"]) != "bot.js" {
		t.Errorf("staged names %v", paths)
	}
}

// TestPrune: a staged copy goes when no bot in use has its content and no
// living process staged it, however old it is.
func TestPrune(t *testing.T) {
	src, root := t.TempDir(), t.TempDir()
	var es []Entry
	for i, f := range []string{"keep.py", "old.py", "other.py"} {
		write(t, filepath.Join(src, f), fmt.Sprintf("x = %d\n", i), 0o644)
		info, _ := os.Stat(filepath.Join(src, f))
		sum, _ := hashBot(filepath.Join(src, f), info)
		e := Entry{Name: f, Source: filepath.Join(src, f), Kind: "file", SHA256: sum}
		if _, err := Stage(root, e); err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	inUse := map[string]bool{es[0].SHA256: true}
	if n, err := Prune(root, inUse); err != nil || n != 0 {
		t.Fatalf("pruned %d (%v) copies this process staged", n, err)
	}
	endLease(t, root) // as when this process ends
	if _, err := Stage(filepath.Join(t.TempDir(), "elsewhere"), es[2]); err != nil {
		t.Fatal(err) // a lease under another root keeps nothing here
	}
	n, err := Prune(root, inUse)
	if err != nil || n != 2 {
		t.Fatalf("pruned %d (%v), want 2", n, err)
	}
	for i, want := range []bool{true, false, false} {
		if _, err := os.Stat(filepath.Join(root, stageKey(es[i]))); (err == nil) != want {
			t.Errorf("%s: present %v, want %v", es[i].Name, err == nil, want)
		}
	}
	if des, _ := os.ReadDir(filepath.Join(root, leaseDir)); len(des) != 0 {
		t.Errorf("the ended process's lease is left: %v", des)
	}
	// Staging again leases again.
	if _, err := Stage(root, es[1]); err != nil {
		t.Fatal(err)
	}
	if n, _ := Prune(root, inUse); n != 0 {
		t.Errorf("pruned %d just-staged copies", n)
	}
	if n, _ := Prune(filepath.Join(root, "missing"), nil); n != 0 {
		t.Error("pruned a missing folder")
	}
}

// endLease closes this process's lease of root, which releases its lock as
// the end of the process would.
func endLease(t *testing.T, root string) {
	t.Helper()
	leases.Lock()
	defer leases.Unlock()
	l := leases.byRoot[root]
	if l == nil {
		t.Fatalf("no lease for %s", root)
	}
	l.f.Close()
	delete(leases.byRoot, root)
}

func TestHashChangesWithContentOnly(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "b.py"), "x = 1\n", 0o644)
	es1, _, _ := Discover(dir, games.ProtocolIA, false)
	write(t, filepath.Join(dir, "b.py"), "x = 2\n", 0o644)
	es2, _, _ := Discover(dir, games.ProtocolIA, false)
	write(t, filepath.Join(dir, "b.py"), "x = 1\n", 0o600)
	es3, _, _ := Discover(dir, games.ProtocolIA, false)
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
	es, _, err := Discover(src, games.ProtocolProgram, false)
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
		{"two seats", 3, FreeForAll, 2, 2, "a free-for-all is a duel"},
		{"no duels", 3, Duels, 3, 4, "cannot be played in duels"},
	} {
		if _, err := Schedule(es[:c.bots], 1, 1, c.format, c.min, c.max); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	// More bots than seats: heats, every bot in one game a round.
	heats, err := Schedule(es, 2, 1, FreeForAll, 2, 3)
	if err != nil || len(heats) != 4 {
		t.Fatalf("4 bots, 3 seats: %d games (%v), want two heats of two a round", len(heats), err)
	}
	for _, h := range heats {
		if len(h.Seats) != 2 || !strings.HasPrefix(h.Key, fmt.Sprintf("r%d/heat/", h.Round)) {
			t.Errorf("heat %+v, want two bots", h)
		}
	}
	if plan, err := Schedule(es[:1], 1, 1, FreeForAll, 2, 12); err != nil || len(plan) != 0 {
		t.Errorf("one bot: %v %v, want no game", plan, err)
	}
}
