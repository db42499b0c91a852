package sandbox_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/client"

	"botjudge/sandbox"
	"botjudge/sandbox/enginetest"
	"botjudge/sandbox/sandboxtest"
)

// TestSecondEngine plays a bot on an engine that has neither the runtime
// image nor any way to see the judge's files but the API, as an engine on
// another machine: the image is sent to it, the bot is copied into a
// volume, its capacity comes from it, and nothing is left on it after.
func TestSecondEngine(t *testing.T) {
	first := sandboxtest.Docker(t)
	e := enginetest.Start(t)
	ctx := context.Background()
	second, err := sandbox.NewDocker(ctx, sandbox.Options{Host: e.Host})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if _, err := second.EnsureImage(ctx, nil, false); !errors.Is(err, sandbox.ErrImageMissing) {
		t.Fatalf("the second engine has the image already (%v): it is not a separate engine", err)
	}
	want, err := first.EnsureImage(ctx, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	got, err := second.SendImage(ctx, first, os.Stderr)
	if err != nil || got != want {
		t.Fatalf("SendImage: %q, %v; want %q", got, err, want)
	}
	if again, err := second.SendImage(ctx, first, nil); err != nil || again != want {
		t.Fatalf("SendImage again: %q, %v", again, err)
	}
	cores, memory, err := second.Capacity(ctx)
	if err != nil || cores < 1 || memory < 1<<20 {
		t.Fatalf("Capacity: %d cores, %d bytes, %v", cores, memory, err)
	}
	if driver, err := second.StorageDriver(ctx); err != nil || driver != e.Driver {
		t.Fatalf("StorageDriver: %q, %v; the engine was started with %q", driver, err, e.Driver)
	}

	s, err := second.Start(ctx, virusBot(t, "def ia(game, side):\n    return [4, 2]\n"), limits(5*time.Second), nil)
	if err != nil {
		t.Fatal(err)
	}
	wantOK(t, ask(t, s, virusRequest("player_1", "")), "[4,2]")
	ids, err := second.Containers(ctx)
	if err != nil || len(ids) != 1 {
		t.Fatalf("containers on the second engine: %v, %v", ids, err)
	}
	if on, _ := first.ContainersLabelled(ctx, sandbox.LabelOwner, second.Owner()); len(on) != 0 {
		t.Errorf("the bot runs on the first engine too: %v", on)
	}
	cli, err := client.NewClientWithOpts(client.WithHost(e.Host), client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	info, err := cli.ContainerInspect(ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range info.Mounts {
		if m.Type == mount.TypeBind {
			t.Errorf("a path of the judge's machine is mounted: %+v", m)
		}
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if n := sandboxtest.Leftovers(t, second); n != 0 {
		t.Errorf("%d containers left", n)
	}
	if err := second.RemoveVolumes(ctx); err != nil {
		t.Fatal(err)
	}
	if vols, err := second.VolumesLabelled(ctx, sandbox.LabelOwner, second.Owner()); err != nil || len(vols) != 0 {
		t.Errorf("volumes left: %v, %v", vols, err)
	}
	// Nor anything of the helper that filled the volume.
	all, err := cli.ContainerList(ctx, container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", sandbox.LabelJudge+"=1"))})
	if err != nil || len(all) != 0 {
		t.Errorf("containers left on the second engine: %d, %v", len(all), err)
	}
}
