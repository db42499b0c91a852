package main

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestCommandsDocument: docs/commands.md has a section for every command,
// and in it a row for each of the command's flags, with the flag's default;
// a flag added without its row, or a default changed without its page,
// fails here.
func TestCommandsDocument(t *testing.T) {
	b, err := os.ReadFile("../docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := documentedFlags(string(b))
	for name := range commands {
		rows, ok := doc[name]
		if !ok {
			t.Errorf("docs/commands.md has no section for judge %s", name)
			continue
		}
		flags := helpFlags(t, name)
		for flag, def := range flags {
			cell, ok := rows[flag]
			if !ok {
				t.Errorf("judge %s --%s: no row in docs/commands.md", name, flag)
				continue
			}
			if got, quoted := firstCode(cell); quoted && got != def && !(def == "" && isZero(got)) {
				t.Errorf("judge %s --%s: docs/commands.md says the default is %q, the flag's is %q", name, flag, got, def)
			}
		}
		for flag := range rows {
			if _, ok := flags[flag]; !ok {
				t.Errorf("docs/commands.md: judge %s has no flag --%s", name, flag)
			}
		}
	}
}

var (
	sectionRe = regexp.MustCompile("^## `judge ([a-z]+)")
	rowRe     = regexp.MustCompile("^\\| `--([a-z-]+)[^`]*` \\| ([^|]*(?:\\\\\\|[^|]*)*) \\|")
	helpRe    = regexp.MustCompile(`^  -([a-z-]+)`)
	defaultRe = regexp.MustCompile(`\(default (.*)\)$`)
)

// documentedFlags reads the page: for each command, each flag's default cell.
func documentedFlags(page string) map[string]map[string]string {
	doc := map[string]map[string]string{}
	var rows map[string]string
	for _, line := range strings.Split(page, "\n") {
		if m := sectionRe.FindStringSubmatch(line); m != nil {
			rows = map[string]string{}
			doc[m[1]] = rows
		} else if m := rowRe.FindStringSubmatch(line); m != nil && rows != nil {
			rows[m[1]] = m[2]
		}
	}
	return doc
}

// helpFlags is what `judge NAME -h` lists: each flag and its default as the
// flag package prints it ("" for a zero value, which it does not print).
func helpFlags(t *testing.T, name string) map[string]string {
	var out, errOut strings.Builder
	args := []string{name, "-h"}
	if code := runMain(context.Background(), args, &out, &errOut); code != 0 {
		t.Fatalf("judge %s -h: exit %d: %s", name, code, errOut.String())
	}
	flags := map[string]string{}
	last := ""
	for _, line := range strings.Split(errOut.String(), "\n") {
		if m := helpRe.FindStringSubmatch(line); m != nil {
			last = m[1]
			flags[last] = ""
		} else if m := defaultRe.FindStringSubmatch(line); m != nil && last != "" {
			def := m[1]
			if s, err := strconv.Unquote(def); err == nil {
				def = s
			}
			flags[last] = def
		}
	}
	return flags
}

// firstCode is the `code` a cell starts with, and whether it starts with one
// ("none: ..." and other words say a default the flag package cannot).
func firstCode(cell string) (string, bool) {
	rest, ok := strings.CutPrefix(cell, "`")
	if !ok {
		return "", false
	}
	code, _, _ := strings.Cut(rest, "`")
	return code, true
}

func isZero(s string) bool { return slices.Contains([]string{"0", "0s", "false", ""}, s) }
