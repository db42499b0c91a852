package sandbox

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"botjudge/games/fault"

	"github.com/docker/docker/api/types/container"
)

// BuildLimits bound one compilation. They are not a move's: a build is done
// once per bot version, before its check, and never charged to a move.
type BuildLimits struct {
	Time   time.Duration // wall clock of the whole build
	Memory int64         // bytes, swap and the build's disk (a tmpfs) included
	Pids   int64
	Disk   int64 // bytes of the writable /tmp: sources' copy, temporary files and the program
	Log    int   // bytes of the compiler's messages kept; the rest is dropped
	// The program kept on the judge's disk, then copied into a volume at
	// each version: its bytes and its files and folders (0: the defaults).
	// A build past them fails: a build.sh writing 200 MB or 20,000 files
	// must not fill the judge's disk at each hand-in.
	Output int64
	Files  int
}

// Default bounds of a built program: a compiled bot is a few megabytes.
const (
	DefaultBuildOutput = 64 << 20
	DefaultBuildFiles  = 2000
)

// output is the bounds of the program kept.
func (l BuildLimits) output() (int64, int) {
	bytes, files := l.Output, l.Files
	if bytes <= 0 {
		bytes = DefaultBuildOutput
	}
	if files <= 0 {
		files = DefaultBuildFiles
	}
	return bytes, files
}

// DefaultBuildLimits are generous for javac and ocamlopt on one CPU, and
// small enough that a build that loops or fills its disk costs a minute.
func DefaultBuildLimits() BuildLimits {
	return BuildLimits{Time: 60 * time.Second, Memory: 1 << 30, Pids: 128, Disk: 256 << 20, Log: 64 << 10,
		Output: DefaultBuildOutput, Files: DefaultBuildFiles}
}

// Built is the outcome of one build. A bot that does not compile is a Fault
// with its reason, not an error.
type Built struct {
	Fault   fault.Kind    `json:"fault,omitempty"` // fault.None: the program is in the build's folder
	Detail  string        `json:"detail,omitempty"`
	Log     string        `json:"log,omitempty"` // the compiler's messages, bounded by BuildLimits.Log
	Elapsed time.Duration `json:"elapsed_ns"`
	// Reused says the build was not done again: this content was built
	// before (the judge's cache, not the sandbox, sets it).
	Reused bool `json:"-"`
}

// Compiled tells whether the staged bot at path is built before it runs: a
// single file of a compiled language, or a folder with a build.sh.
func Compiled(path string) bool {
	if l, ok := LanguageOf(path); ok && l.Build != nil {
		return true
	}
	info, err := os.Stat(filepath.Join(path, BuildScript))
	return err == nil && info.Mode().IsRegular()
}

// buildScript compiles /src/$1 into /tmp/out, which then is a folder bot
// (an executable main, or run.sh). Everything it prints is the log (fd 2);
// fd 3 carries only the program, as a tar, once the build succeeded. The
// sources are copied first: ocamlopt and build.sh write beside them, and
// the compilers then name the file as its author knows it.
var buildScript = `exec 3>&1 1>&2
set -e
export TMPDIR=/tmp/t HOME=/tmp/t
mkdir -p /tmp/t /tmp/out /tmp/src
src=/src/$1
if [ -f "$src" ]; then
	cp "$src" /tmp/src/
	cd /tmp/src
fi
case "$1" in
` + buildCases() + `esac
tar -C /tmp/out -cf - . >&3
`

// Build compiles the staged bot at src inside a container of its own (no
// network, read-only root, its own limits) and unpacks the program into
// dst, a folder that must not exist. A build that fails, loops, fills its
// disk or runs out of memory is a Built with a fault; an error is the
// judge's own failure.
func (d *Docker) Build(ctx context.Context, src, dst string, lim BuildLimits) (b Built, err error) {
	defer func() {
		if err != nil || b.Fault != fault.None {
			os.RemoveAll(dst) // half a program is none
		}
	}()
	abs, err := filepath.Abs(src)
	if err != nil {
		return Built{}, err
	}
	name := filepath.Base(abs)
	c, err := d.buildBox(ctx, name, abs, lim)
	if err != nil {
		return Built{}, err
	}
	defer func() {
		if kerr := kill(ctx, c); kerr != nil && err == nil {
			err = kerr
		}
	}()
	return c.build(ctx, name, dst, lim)
}

// buildBox is the container that builds the bot name, from its sources at
// abs.
func (d *Docker) buildBox(ctx context.Context, name, abs string, lim BuildLimits) (*box, error) {
	pids := lim.Pids
	labels := d.containerLabels(name, map[string]string{"botjudge.build": "1"})
	cfg := &container.Config{
		Image:           d.image,
		Cmd:             []string{"/bin/sh", "-c", buildScript, "build", name},
		User:            "65534:65534",
		Env:             []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"},
		WorkingDir:      "/tmp",
		Hostname:        "build",
		AttachStdout:    true,
		AttachStderr:    true,
		Labels:          labels,
		NetworkDisabled: true,
	}
	// /tmp is bounded: a build that fills it fails with "No space left on
	// device" and harms nobody else. Unlike a bot's, it allows exec, for
	// what build.sh builds and runs.
	bot, err := d.botMount(ctx, name, abs, "/src")
	if err != nil {
		return nil, err
	}
	host := hardened(bot, fmt.Sprintf("rw,exec,nosuid,nodev,size=%d,mode=1777", lim.Disk),
		container.Resources{Memory: lim.Memory, NanoCPUs: 1e9, PidsLimit: &pids})
	return d.newBox(ctx, cfg, host, "the build container of "+name)
}

// build runs the build container c: its stdout, a tar of the program, is
// unpacked into dst as it comes, its stderr is the log.
func (c *box) build(ctx context.Context, name, dst string, lim BuildLimits) (Built, error) {
	log := &boundedLog{max: lim.Log}
	pr, pw := io.Pipe()
	var uerr error
	unpacked := make(chan struct{})
	go func() {
		defer close(unpacked)
		// The tar comes last: whatever fails to unpack is drained so that
		// the log keeps flowing.
		maxBytes, maxFiles := lim.output()
		uerr = untar(pr, dst, maxBytes, maxFiles)
		io.Copy(io.Discard, pr)
	}()
	// On every way out, nothing may still write into dst once Build has
	// returned: the caller removes it.
	stop := func() {
		if c.stream.Conn != nil {
			c.stream.Close()
		}
		<-unpacked
	}
	defer stop()
	began := time.Now()
	err := c.start(ctx, container.AttachOptions{Stream: true, Stdout: true, Stderr: true}, pw, log)
	go func() {
		<-c.done()
		pw.Close()
	}()
	if err != nil {
		return Built{}, fmt.Errorf("sandbox: starting the build of %s: %w", name, err)
	}
	code, err := c.wait(ctx, lim.Time)
	if err != nil {
		if ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			return Built{}, fmt.Errorf("sandbox: waiting for the build of %s: %w", name, errors.Join(ctx.Err(), err))
		}
		stop()
		return Built{Fault: fault.Build, Detail: fmt.Sprintf("the build took longer than %v: it was stopped", lim.Time),
			Log: log.String(), Elapsed: time.Since(began)}, nil
	}
	<-unpacked
	b := Built{Log: log.String(), Elapsed: time.Since(began)}
	oom, err := c.oomKilled(ctx)
	if err != nil {
		return Built{}, fmt.Errorf("sandbox: inspecting the build of %s: %w", name, err)
	}
	b.Fault, b.Detail = buildFault(b.Log, code, oom, uerr, lim)
	return b, nil
}

// buildFault is the fault of a build that ended with code, and why.
func buildFault(log string, code int64, oom bool, uerr error, lim BuildLimits) (fault.Kind, string) {
	switch {
	case oom:
		return fault.Build, fmt.Sprintf("the build ran out of memory (%d MiB)", lim.Memory>>20)
	case code != 0 && strings.Contains(log, "No space left on device"):
		return fault.Build, fmt.Sprintf("the build filled its %d MiB of disk", lim.Disk>>20)
	case code != 0:
		if first := firstLines(log, 5); first != "" {
			return fault.Build, first
		}
		return fault.Build, exitStatus(int(code))
	case uerr != nil:
		// A student reads it: the judge's own paths stay out.
		var pe *fs.PathError
		if errors.As(uerr, &pe) {
			uerr = pe.Err
		}
		return fault.Build, "the built program cannot be kept: " + uerr.Error()
	}
	return fault.None, ""
}

// firstLines are the first n non-blank lines of s: what a student reads of
// a compiler's messages before scrolling.
func firstLines(s string, n int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" && len(out) < n {
			out = append(out, strings.TrimRight(l, "\r"))
		}
	}
	return strings.Join(out, "\n")
}

// untar unpacks the build's program into dst: folders and regular files
// only, at most limit bytes and files of them. Links are dropped: a
// build.sh could point one at the judge's own files.
func untar(r io.Reader, dst string, limit int64, files int) error {
	tr := tar.NewReader(r)
	made := false
	whole := limit
	for n := 0; ; n++ {
		h, err := tr.Next()
		if err == io.EOF {
			if !made {
				return errors.New("the build produced nothing")
			}
			return nil
		}
		if err != nil {
			return err
		}
		rel := filepath.Clean(h.Name)
		if rel == "." {
			continue
		}
		if !made {
			if err := os.Mkdir(dst, 0o755); err != nil {
				return err
			}
			made = true
		}
		if filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
			return fmt.Errorf("a path outside the build: %q", h.Name)
		}
		if n >= files {
			return fmt.Errorf("more than %d files and folders: keep only what your bot needs to run", files)
		}
		path := filepath.Join(dst, rel)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(path, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if h.Size > limit {
				return fmt.Errorf("more than %d MiB: keep only what your bot needs to run", whole>>20)
			}
			limit -= h.Size
			mode := os.FileMode(0o644)
			if h.Mode&0o111 != 0 {
				mode = 0o755
			}
			if err := writeFile(path, tr, mode); err != nil {
				return err
			}
		}
	}
}

func writeFile(path string, r io.Reader, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Chmod(path, mode)
}
