package main

import (
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"botjudge/judge/contest"
)

// The flags of `judge run` default to contest.DefaultConfig: a default
// changed there is changed for the command, and one changed in a flag alone
// fails here.
func TestRunFlagDefaults(t *testing.T) {
	fs, o := newRunFlags(io.Discard)
	if err := parse(fs, nil); err != nil {
		t.Fatal(err)
	}
	got, err := o.config()
	if err != nil {
		t.Fatal(err)
	}
	if want := contest.DefaultConfig(); !reflect.DeepEqual(got, want) {
		t.Errorf("judge run with no flags:\n got %+v\nwant %+v", got, want)
	}
}

// The README's table of flags says the defaults the flags have.
func TestReadmeFlagTable(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	fs, _ := newRunFlags(io.Discard)
	rows := 0
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, " | ")
		if !strings.HasPrefix(line, "| `--") || len(cells) < 3 {
			continue
		}
		name := strings.TrimPrefix(strings.FieldsFunc(cells[0], func(r rune) bool { return r == ' ' || r == '`' })[1], "--")
		f := fs.Lookup(name)
		if f == nil {
			t.Errorf("README: --%s is not a flag of judge run", name)
			continue
		}
		rows++
		if def, ok := strings.CutPrefix(cells[1], "`"); ok {
			if def, _, _ = strings.Cut(def, "`"); def != f.DefValue {
				t.Errorf("README: --%s defaults to %q, the flag to %q", name, def, f.DefValue)
			}
		}
	}
	if rows < 10 {
		t.Errorf("README: %d rows of flags found", rows)
	}
}
