package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// imageLog takes the runtime image's build output: the whole of it goes to a
// file, and the terminal gets one line for it, so that a first `make run`
// opens on its games rather than on a thousand lines of debootstrap. On a
// terminal the line is rewritten in place with the build's current step.
type imageLog struct {
	out   io.Writer
	tty   bool
	path  string
	file  *os.File
	began time.Time
	// rest is the start of a line not yet ended.
	rest []byte
	// shown is whether the line was printed: an image already built writes
	// nothing, and then nothing is said nor kept.
	shown bool
}

// newImageLog returns an imageLog writing its line to out; its file is
// created on the first byte of output.
func newImageLog(out io.Writer) *imageLog {
	return &imageLog{out: out, tty: isTerminal(out)}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

func (l *imageLog) Write(p []byte) (int, error) {
	if !l.shown {
		f, err := os.CreateTemp("", "botjudge-image-*.log")
		if err != nil {
			return 0, fmt.Errorf("judge: keeping the image's build log: %w", err)
		}
		l.file, l.path, l.began, l.shown = f, f.Name(), time.Now(), true
		fmt.Fprintf(l.out, "building the bots' runtime image from Debian's packages (a few minutes, once; its log: %s)\n", l.path)
	}
	if _, err := l.file.Write(p); err != nil {
		return 0, err
	}
	if l.tty {
		l.rest = append(l.rest, p...)
		if i := bytes.LastIndexByte(l.rest, '\n'); i >= 0 {
			lines := strings.Split(strings.TrimSpace(string(l.rest[:i])), "\n")
			l.rest = l.rest[i+1:]
			l.status(lines[len(lines)-1])
		}
	}
	return len(p), nil
}

// status rewrites the terminal's line with the build's latest step.
func (l *imageLog) status(line string) {
	line = strings.TrimSpace(line)
	if r := []rune(line); len(r) > 60 {
		line = string(r[:60]) + "…"
	}
	fmt.Fprintf(l.out, "\r\033[K  %s · %s", time.Since(l.began).Round(time.Second), line)
}

// done closes the log and says how the build ended: on success the time it
// took, on failure the log's last lines and where the whole of it is.
func (l *imageLog) done(err error) {
	if !l.shown {
		return
	}
	l.file.Close()
	if l.tty {
		fmt.Fprint(l.out, "\r\033[K")
	}
	if err == nil {
		fmt.Fprintf(l.out, "runtime image built in %s\n", time.Since(l.began).Round(time.Second))
		return
	}
	fmt.Fprintf(l.out, "the image's build failed; its last lines:\n%s\nthe whole log: %s\n", tail(l.path, 15), l.path)
}

// tail is the last n lines of a file, indented.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "  (" + err.Error() + ")"
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	lines = lines[max(0, len(lines)-n):]
	return "  " + strings.Join(lines, "\n  ")
}
