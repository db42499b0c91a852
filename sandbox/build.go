package sandbox

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"botjudge/games/fault"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"
)

// BuildLimits bound one compilation. They are not a move's: a build is done
// once per bot version, before its check, and never charged to a move.
type BuildLimits struct {
	Time   time.Duration // wall clock of the whole build
	Memory int64         // bytes, swap and the build's disk (a tmpfs) included
	Pids   int64
	Disk   int64 // bytes of the writable /tmp: sources' copy, temporary files and the program
	Log    int   // bytes of the compiler's messages kept; the rest is dropped
}

// DefaultBuildLimits are generous for javac and ocamlopt on one CPU, and
// small enough that a build that loops or fills its disk costs a minute.
func DefaultBuildLimits() BuildLimits {
	return BuildLimits{Time: 60 * time.Second, Memory: 1 << 30, Pids: 128, Disk: 256 << 20, Log: 64 << 10}
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
	pids := lim.Pids
	labels := map[string]string{LabelBot: name, "botjudge.build": "1"}
	for k, v := range d.labels {
		labels[k] = v
	}
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
		return Built{}, err
	}
	host := hardened(bot, fmt.Sprintf("rw,exec,nosuid,nodev,size=%d,mode=1777", lim.Disk),
		container.Resources{Memory: lim.Memory, NanoCPUs: 1e9, PidsLimit: &pids})
	usr, err := d.usr(ctx)
	if err != nil {
		return Built{}, err
	}
	host.Mounts = append(host.Mounts, usrMount(usr))
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	created, err := d.cli.ContainerCreate(cctx, cfg, host, nil, nil, "")
	cancel()
	if err != nil {
		return Built{}, fmt.Errorf("sandbox: creating the build container of %s: %w", name, err)
	}
	c := &box{cli: d.cli, id: created.ID, ended: make(chan struct{})}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		if kerr := c.kill(rctx); kerr != nil && err == nil {
			err = kerr
		}
	}()
	stream, err := d.cli.ContainerAttach(ctx, c.id, container.AttachOptions{Stream: true, Stdout: true, Stderr: true})
	if err != nil {
		return Built{}, fmt.Errorf("sandbox: attaching to the build of %s: %w", name, err)
	}
	c.stream = stream
	began := time.Now()
	log := &boundedLog{max: lim.Log}
	pr, pw := io.Pipe()
	go func() {
		_, cerr := stdcopy.StdCopy(pw, log, stream.Reader)
		pw.CloseWithError(cerr)
	}()
	var uerr error
	unpacked := make(chan struct{})
	go func() {
		defer close(unpacked)
		// The tar comes last: whatever fails to unpack is drained so that
		// the log keeps flowing.
		uerr = untar(pr, dst, lim.Disk)
		io.Copy(io.Discard, pr)
	}()
	// On every way out, nothing may still write into dst once Build has
	// returned: the caller removes it.
	defer func() {
		c.stream.Close()
		<-unpacked
	}()
	if err := d.cli.ContainerStart(ctx, c.id, container.StartOptions{}); err != nil {
		return Built{}, fmt.Errorf("sandbox: starting the build of %s: %w", name, err)
	}
	wctx, cancelWait := context.WithTimeout(ctx, lim.Time)
	defer cancelWait()
	waited, errs := d.cli.ContainerWait(wctx, c.id, container.WaitConditionNotRunning)
	var code int64
	select {
	case w := <-waited:
		code = w.StatusCode
	case werr := <-errs:
		if ctx.Err() != nil || !errors.Is(werr, context.DeadlineExceeded) {
			return Built{}, fmt.Errorf("sandbox: waiting for the build of %s: %w", name, errors.Join(ctx.Err(), werr))
		}
		c.stream.Close()
		<-unpacked
		return Built{Fault: fault.Build, Detail: fmt.Sprintf("the build took longer than %v: it was stopped", lim.Time),
			Log: log.String(), Elapsed: time.Since(began)}, nil
	}
	<-unpacked
	b = Built{Log: log.String(), Elapsed: time.Since(began)}
	info, err := d.cli.ContainerInspect(ctx, c.id)
	if err != nil {
		return Built{}, fmt.Errorf("sandbox: inspecting the build of %s: %w", name, err)
	}
	switch {
	case info.State != nil && info.State.OOMKilled:
		b.Fault, b.Detail = fault.Build, fmt.Sprintf("the build ran out of memory (%d MiB)", lim.Memory>>20)
	case code != 0 && strings.Contains(b.Log, "No space left on device"):
		b.Fault, b.Detail = fault.Build, fmt.Sprintf("the build filled its %d MiB of disk", lim.Disk>>20)
	case code != 0:
		b.Fault, b.Detail = fault.Build, firstLines(b.Log, 5)
		if b.Detail == "" {
			b.Detail = exitStatus(int(code))
		}
	case uerr != nil:
		b.Fault, b.Detail = fault.Build, "the built program cannot be kept: "+uerr.Error()
	}
	return b, nil
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
// only, at most limit bytes. Links are dropped: a build.sh could point one
// at the judge's own files.
func untar(r io.Reader, dst string, limit int64) error {
	tr := tar.NewReader(r)
	made := false
	for {
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
		path := filepath.Join(dst, rel)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(path, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if h.Size > limit {
				return fmt.Errorf("more than %d MiB", limit>>20)
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
