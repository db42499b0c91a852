package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"botjudge/judge/arena/arenatest"
	"botjudge/results"
)

// `judge arena` prints the ladder from the database alone, as a table or
// as the JSON rows the screen serves.
func TestArenaCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	d, err := results.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	arenatest.Class(t, d, "battleships")
	d.Close()

	code, out, errs := judge(t, "arena", "--db", path, "--format", "json", "battleships")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var l struct {
		SeedScore string                       `json:"seed_score"`
		Rows      []map[string]json.RawMessage `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil || len(l.Rows) != 4 || l.SeedScore != "brainjar" {
		t.Fatalf("json %s: %v", out, err)
	}
	for _, key := range []string{"name", "rating", "low", "high", "games", "wins", "draws", "losses", "examples", "seed_score"} {
		if _, ok := l.Rows[0][key]; !ok {
			t.Errorf("a row without %q: %s", key, out)
		}
	}
	if string(l.Rows[0]["name"]) != `"alice"` {
		t.Errorf("first row %s, want alice", out)
	}

	code, out, errs = judge(t, "arena", "--db", path, "battleships")
	if code != 0 || !strings.Contains(out, "battleships arena (4 bots, 9 games)") || !strings.Contains(out, "random (example)") ||
		!strings.Contains(out, "BrainJar") || !strings.Contains(out, "  1  alice") {
		t.Errorf("exit %d, table:\n%s%s", code, out, errs)
	}
	// With pseudonyms, as `judge serve --arena-names pseudonyms` shows them.
	code, out, errs = judge(t, "arena", "--db", path, "--names", "pseudonyms", "battleships")
	if code != 0 || !regexp.MustCompile(`(?m)^  1  [A-Z][a-z]+ [1-9][0-9] `).MatchString(out) || !strings.Contains(out, "random (example)") {
		t.Errorf("exit %d, table with pseudonyms:\n%s%s", code, out, errs)
	}
	for _, name := range []string{"alice", "bob", "carol"} {
		if strings.Contains(out, name) {
			t.Errorf("the table with pseudonyms names %s:\n%s", name, out)
		}
	}
	code, out, _ = judge(t, "arena", "--db", path, "tron")
	if code != 0 || !strings.Contains(out, "nobody on the ladder yet") {
		t.Errorf("a game without an arena: exit %d, %s", code, out)
	}
	for _, args := range [][]string{{"arena", "--db", path}, {"arena", "--db", path, "chess"}, {"arena", "--db", path, "--format", "csv", "tron"},
		{"arena", "--db", path, "--names", "initials", "tron"}} {
		if code, _, errs := judge(t, args...); code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, %q: want 2 and one line", args, code, errs)
		}
	}
}
