package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/events"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/volume"
	"github.com/docker/docker/client"

	"botjudge/sandbox"
	"botjudge/sandbox/enginetest"
	"botjudge/sandbox/sandboxtest"
)

func TestEngineFlag(t *testing.T) {
	t.Setenv(enginesEnv, "unix:///a.sock, tcp://b:2376")
	var l engineList
	if got := strings.Join(l.hosts(), " "); got != "unix:///a.sock tcp://b:2376" {
		t.Errorf("from %s: %q", enginesEnv, got)
	}
	l.Set("unix:///c.sock")
	l.Set("tcp://d:2376,tcp://e:2376")
	if got := strings.Join(l.hosts(), " "); got != "unix:///c.sock tcp://d:2376 tcp://e:2376" {
		t.Errorf("from --engine: %q", got)
	}
	t.Setenv(enginesEnv, "")
	if got := engineList(nil).hosts(); len(got) != 1 || got[0] != "" {
		t.Errorf("default: %q", got)
	}
}

// TestRunOnTwoEngines: `judge run --engine A --engine B` sends the runtime
// image to the engine that lacks it, plays there too, and leaves nothing on
// it.
func TestRunOnTwoEngines(t *testing.T) {
	first := sandboxtest.Docker(t)
	e := enginetest.Start(t)
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	for _, name := range []string{"first_cell.py", "greedy.py", "lookahead.py"} {
		b, err := os.ReadFile(filepath.Join("..", "submissions", "virus", name))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(subs, "virus", name), string(b), 0o644)
	}
	began := time.Now()
	code, stdout, stderr := judge(t, "run", "--rounds", "1", "--db", filepath.Join(dir, "judge.db"), "--submissions", subs,
		"--engine", first.Host(), "--engine", e.Host)
	if code != 0 || !strings.Contains(stdout, "6 games played") || !strings.Contains(stderr, "sending "+sandbox.RuntimeImage()) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	cli, err := client.NewClientWithOpts(client.WithHost(e.Host), client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	ctx := context.Background()
	judged := filters.NewArgs(filters.Arg("label", sandbox.LabelJudge+"=1"))
	cs, err := cli.ContainerList(ctx, container.ListOptions{All: true, Filters: judged})
	if err != nil || len(cs) != 0 {
		t.Errorf("containers left on the second engine: %d, %v", len(cs), err)
	}
	// It played there: the engine saw bots' containers come and go.
	msgs, errs := cli.Events(ctx, events.ListOptions{Since: began.Format(time.RFC3339Nano), Until: time.Now().Format(time.RFC3339Nano),
		Filters: filters.NewArgs(filters.Arg("type", "container"), filters.Arg("event", "start"))})
	started := 0
	for done := false; !done; {
		select {
		case <-msgs:
			started++
		case err := <-errs:
			if err != nil && err != io.EOF {
				t.Fatal(err)
			}
			done = true
		}
	}
	if started == 0 {
		t.Error("no bot was started on the second engine")
	}
	vs, err := cli.VolumeList(ctx, volume.ListOptions{Filters: judged})
	if err != nil || len(vs.Volumes) != 0 {
		t.Errorf("volumes left on the second engine: %d, %v", len(vs.Volumes), err)
	}
}

// TestStorageNote: the bench names the engine's storage driver, and says
// what fuse-overlayfs costs a bot when the engine uses it.
func TestStorageNote(t *testing.T) {
	sandboxtest.Docker(t)
	e := enginetest.Start(t)
	t.Setenv("DOCKER_HOST", e.Host)
	driver, note := storageNote(context.Background())
	if driver != e.Driver {
		t.Errorf("driver %q, the engine's %q", driver, e.Driver)
	}
	if !strings.HasPrefix(note, "the engine's storage driver: "+e.Driver) {
		t.Fatalf("note %q does not name %s", note, e.Driver)
	}
	if slow := strings.Contains(note, "round trip"); slow != (e.Driver == "fuse-overlayfs") {
		t.Errorf("note %q for %s", note, e.Driver)
	}
}
