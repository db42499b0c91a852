// Package enginetest starts a second Docker engine of a test's own on this
// machine: its own socket, data root and containerd, so that it sees none of
// the first engine's containers, volumes or images, as an engine on another
// machine would not. It needs root and /usr/sbin/dockerd: without them the
// tests skip, unless CI=true, where they fail.
package enginetest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docker/docker/client"
)

// Dockerd is the engine's program.
const Dockerd = "/usr/sbin/dockerd"

// Engine is a running second dockerd.
type Engine struct {
	// Host is its address, for sandbox.Options.Host or DOCKER_HOST.
	Host string
	// Driver is the storage driver it keeps containers with.
	Driver string

	dir    string
	cmd    *exec.Cmd
	exited chan struct{}
}

// Start starts a second engine and stops it, and removes everything it
// kept, when the test ends.
func Start(tb testing.TB) *Engine {
	tb.Helper()
	if err := usable(); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("enginetest: %v", err)
		}
		tb.Skipf("enginetest: %v (set CI=true to make this a failure)", err)
	}
	// A unix socket's path is limited to about 100 bytes: a short folder.
	dir, err := os.MkdirTemp("", "bje")
	if err != nil {
		tb.Fatal(err)
	}
	e := &Engine{dir: dir, Host: "unix://" + filepath.Join(dir, "d.sock"), Driver: storageDriver()}
	tb.Cleanup(func() {
		e.Stop(tb)
		unmountUnder(dir)
		if err := os.RemoveAll(dir); err != nil {
			tb.Errorf("enginetest: %v", err)
		}
	})
	if err := os.WriteFile(filepath.Join(dir, "daemon.json"), []byte("{}\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	e.Restart(tb)
	return e
}

func usable() error {
	if os.Geteuid() != 0 {
		return errors.New("a second Docker engine needs root")
	}
	if _, err := os.Stat(Dockerd); err != nil {
		return err
	}
	return nil
}

// Restart starts the engine again on the same data root, after Stop: what
// it kept (images, stopped containers, volumes) is there again.
func (e *Engine) Restart(tb testing.TB) {
	tb.Helper()
	if e.cmd != nil {
		select {
		case <-e.exited:
		default:
			tb.Fatal("enginetest: the engine still runs")
		}
	}
	log, err := os.OpenFile(filepath.Join(e.dir, "dockerd.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		tb.Fatal(err)
	}
	defer log.Close()
	cmd := exec.Command(Dockerd,
		"--config-file", filepath.Join(e.dir, "daemon.json"),
		"--data-root", filepath.Join(e.dir, "data"),
		"--exec-root", filepath.Join(e.dir, "exec"),
		"--pidfile", filepath.Join(e.dir, "dockerd.pid"),
		"-H", e.Host,
		// No network of its own: bots have none, and the first engine's
		// bridge and iptables rules stay untouched.
		"--bridge", "none", "--iptables=false", "--ip6tables=false", "--ip-masq=false",
		"--storage-driver", e.Driver,
	)
	cmd.Stdout, cmd.Stderr = log, log
	// Its own process group: a signal meant for the test does not reach it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		tb.Fatalf("enginetest: starting %s: %v", Dockerd, err)
	}
	e.cmd = cmd
	e.exited = make(chan struct{})
	go func() {
		cmd.Wait()
		close(e.exited)
	}()
	if err := e.wait(); err != nil {
		e.Stop(tb)
		tb.Fatalf("enginetest: %v; its log:\n%s", err, e.Log())
	}
}

// wait waits for the engine to answer, or to die.
func (e *Engine) wait() error {
	cli, err := client.NewClientWithOpts(client.WithHost(e.Host), client.WithAPIVersionNegotiation())
	if err != nil {
		return err
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		if _, err := cli.Ping(ctx); err == nil {
			return nil
		}
		select {
		case <-e.exited:
			return errors.New("dockerd exited at start")
		case <-ctx.Done():
			return fmt.Errorf("dockerd did not answer on %s", e.Host)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Stop stops the engine by its own pid, as an engine stopped by its
// machine's owner: it stops its containers and exits. It is a no-op when
// the engine is not running.
func (e *Engine) Stop(tb testing.TB) {
	tb.Helper()
	if e.cmd == nil {
		return
	}
	select {
	case <-e.exited:
		return
	default:
	}
	e.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-e.exited:
	case <-time.After(2 * time.Minute):
		// Only this engine's own process: its containerd dies with it.
		e.cmd.Process.Kill()
		<-e.exited
		tb.Errorf("enginetest: dockerd did not stop on SIGTERM; killed")
	}
	// A container caught starting as the engine stopped can keep its root
	// mounted by its own fuse-overlayfs process: what a machine's reboot
	// would undo, so that the engine, back, can remove it.
	unmountUnder(e.dir)
}

// Log is what the engine printed.
func (e *Engine) Log() string {
	b, _ := os.ReadFile(filepath.Join(e.dir, "dockerd.log"))
	return string(b)
}

// storageDriver is the first engine's when it is fuse-overlayfs, which
// shares layers between containers; vfs, which copies the whole image for
// each container, only where nothing better works.
func storageDriver() string {
	if _, err := os.Stat("/dev/fuse"); err == nil {
		if _, err := exec.LookPath("fuse-overlayfs"); err == nil {
			return "fuse-overlayfs"
		}
	}
	return "vfs"
}

// unmountUnder detaches whatever an engine that died left mounted under
// dir, so that dir can be removed.
func unmountUnder(dir string) {
	f, err := os.Open("/proc/self/mounts")
	if err != nil {
		return
	}
	var points []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 1 && strings.HasPrefix(fields[1], dir+"/") {
			points = append(points, fields[1])
		}
	}
	f.Close()
	// Deepest first.
	for i := len(points) - 1; i >= 0; i-- {
		syscall.Unmount(points[i], syscall.MNT_DETACH)
	}
}
