package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// The image's build shows one line, keeps everything in its log, and names
// the log with its last lines when the build fails.
func TestImageLog(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	build := func(fail error) (string, string) {
		var out strings.Builder
		l := newImageLog(&out)
		for i := range 950 {
			fmt.Fprintf(l, "I: Unpacking package-%d...\n", i)
		}
		l.done(fail)
		b, err := os.ReadFile(l.path)
		if err != nil {
			t.Fatal(err)
		}
		return out.String(), string(b)
	}

	out, log := build(nil)
	if n := strings.Count(out, "\n"); n != 2 {
		t.Errorf("a build that succeeds printed %d lines, want 2 (it began, it ended):\n%s", n, out)
	}
	if !strings.Contains(log, "package-0.") || !strings.Contains(log, "package-949.") {
		t.Errorf("the log lacks the build's output: %d bytes", len(log))
	}

	out, _ = build(errors.New("debootstrap: exit status 1"))
	if !strings.Contains(out, "package-949.") || strings.Contains(out, "package-900.") {
		t.Errorf("a failed build should show its last lines only:\n%s", out)
	}
	if !strings.Contains(out, "the whole log: "+os.Getenv("TMPDIR")) {
		t.Errorf("a failed build should name its log:\n%s", out)
	}

	var quiet strings.Builder
	newImageLog(&quiet).done(nil)
	if quiet.Len() != 0 {
		t.Errorf("an image already built printed %q", quiet.String())
	}
}
