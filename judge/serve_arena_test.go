package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --arena goes with --hand-in, names only games open for hand-in, and
// --arena-parallel takes a number above 0: each mistake is one line and
// exit code 2, before anything starts (no database appears).
func TestServeArenaFlags(t *testing.T) {
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	os.MkdirAll(filepath.Join(subs, "virus"), 0o755)
	db := filepath.Join(dir, "judge.db")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--arena"}, "--arena are for --hand-in"},
		{[]string{"--hand-in", "--submissions", subs, "--arena=tron"}, `--arena names "tron", which is not open for hand-in: use some of virus`},
		{[]string{"--hand-in", "--submissions", subs, "--arena", "--arena-parallel", "0"}, "--arena-parallel take a number above 0"},
		{[]string{"--arena-names", "initials"}, `invalid value "initials" for flag -arena-names: "initials": use real or pseudonyms`},
	}
	for _, c := range cases {
		code, _, errs := judge(t, append([]string{"serve", "--db", db}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, %q: want 2 and %q", c.args, code, errs, c.want)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a mistaken command line made a database")
	}
}

func TestArenaFlag(t *testing.T) {
	open := []string{"tron", "virus"}
	var f arenaFlag
	if got, _ := f.arenaGames(open); f.on || len(got) != 2 {
		t.Errorf("unset: on %v, games %v", f.on, got)
	}
	f.Set("true")
	if got, err := f.arenaGames(open); !f.on || err != nil || strings.Join(got, ",") != "tron,virus" {
		t.Errorf("--arena: on %v, games %v, %v: want every open game", f.on, got, err)
	}
	f.Set(" virus")
	if got, err := f.arenaGames(open); !f.on || err != nil || strings.Join(got, ",") != "virus" {
		t.Errorf("--arena=virus: on %v, games %v, %v", f.on, got, err)
	}
}
