package sandbox_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/volume"

	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// orphanEnv holds, in the judge that TestNoContainerOutlivesItsJudge starts
// and kills, "fresh:" or "reused:" and the bots it must run.
const orphanEnv = "BOTJUDGE_ORPHAN_BOTS"

// orphanBound is how long a container may outlive its judge: the harness's
// grace after its stdin closes, and the engine noticing.
const orphanBound = 10 * time.Second

// TestNoContainerOutlivesItsJudge kills -9 a judge (this test binary, run
// again) while its bots loop ignoring SIGTERM, and checks that every one of
// their containers stops by itself.
func TestNoContainerOutlivesItsJudge(t *testing.T) {
	if os.Getenv(orphanEnv) != "" {
		orphanJudge(t)
		return
	}
	t.Run("fresh", func(t *testing.T) { noOrphans(t, "fresh") })
	t.Run("reused", func(t *testing.T) { noOrphans(t, "reused") })
}

// noOrphans runs a judge whose containers are fresh ones or, with
// "reused", reused ones (its bots in containers that already served a
// game, and one more container waiting for a game), and kills it.
func noOrphans(t *testing.T, mode string) {
	// The runtime image the judge runs its bots in, built if needed.
	live := sandboxtest.Docker(t)
	stubborn := "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
	bots := []sandbox.Bot{
		virusBot(t, stubborn+"def ia(game, side):\n    while True:\n        pass\n"),
		writeBot(t, "loop.py", sandbox.ProtocolProgram, map[string]string{
			"": stubborn + "import os\nos.fork()\nwhile True:\n    pass\n",
		}),
	}
	var spec []string
	for _, b := range bots {
		spec = append(spec, b.Protocol+"="+b.Path)
	}
	judge := exec.Command(os.Args[0], "-test.run=^TestNoContainerOutlivesItsJudge$", "-test.v")
	judge.Env = append(os.Environ(), orphanEnv+"="+mode+":"+strings.Join(spec, ","))
	out, err := judge.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	judge.Stderr = os.Stderr
	if err := judge.Start(); err != nil {
		t.Fatal(err)
	}
	pid := strconv.Itoa(judge.Process.Pid)
	cli := dockerClient(t)
	byJudge := filters.NewArgs(filters.Arg("label", sandbox.LabelPID+"="+pid))
	t.Cleanup(func() {
		list, _ := cli.ContainerList(context.Background(), container.ListOptions{All: true, Filters: byJudge})
		for _, c := range list {
			_ = cli.ContainerRemove(context.Background(), c.ID, container.RemoveOptions{Force: true})
		}
		vols, _ := cli.VolumeList(context.Background(), volume.ListOptions{Filters: byJudge})
		for _, v := range vols.Volumes {
			_ = cli.VolumeRemove(context.Background(), v.Name, true)
		}
	})
	lines := bufio.NewScanner(out)
	for lines.Scan() && lines.Text() != "asking" {
	}
	// Let the requests reach the bots, so that they are looping when
	// their judge dies.
	time.Sleep(time.Second)
	if err := judge.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = judge.Wait()
	list, err := cli.ContainerList(context.Background(), container.ListOptions{All: true, Filters: byJudge})
	if err != nil {
		t.Fatal(err)
	}
	want := len(bots)
	if mode == "reused" {
		want++
	}
	if len(list) != want {
		t.Fatalf("the judge left %d containers, want %d", len(list), want)
	}
	killed := time.Now()
	deadline := killed.Add(orphanBound)
	for {
		running, err := cli.ContainerList(context.Background(), container.ListOptions{Filters: byJudge})
		if err != nil {
			t.Fatal(err)
		}
		if len(running) == 0 {
			t.Logf("every container stopped within %v of the kill", time.Since(killed).Round(100*time.Millisecond))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d containers still run %v after their judge was killed", len(running), orphanBound)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The next judge's reaper removes the dead one's containers, then the
	// volumes its bots came in.
	if vols, err := cli.VolumeList(context.Background(), volume.ListOptions{Filters: byJudge}); err != nil || len(vols.Volumes) != len(bots) {
		t.Fatalf("the judge left %d volumes (%v), want %d (one per bot)", len(vols.Volumes), err, len(bots))
	}
	if _, err := live.Reap(context.Background()); err != nil {
		t.Fatal(err)
	}
	list, _ = cli.ContainerList(context.Background(), container.ListOptions{All: true, Filters: byJudge})
	vols, _ := cli.VolumeList(context.Background(), volume.ListOptions{Filters: byJudge})
	if len(list)+len(vols.Volumes) != 0 {
		t.Errorf("after the reaper: %d containers, %d volumes of the dead judge", len(list), len(vols.Volumes))
	}
}

// orphanJudge starts the bots named in orphanEnv, asks each a move that
// never ends, says "asking" and waits to be killed.
func orphanJudge(t *testing.T) {
	ctx := context.Background()
	mode, bots, _ := strings.Cut(os.Getenv(orphanEnv), ":")
	var r runner = sandboxtest.Docker(t)
	if mode == "reused" {
		r = sandboxtest.Pool(t)
	}
	lim := limits(time.Minute)
	for i, b := range strings.Split(bots, ",") {
		protocol, path, _ := strings.Cut(b, "=")
		bot := sandbox.Bot{Name: "stubborn", Path: path, Protocol: protocol}
		s, err := r.Start(ctx, bot, lim, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r := s.Ready(); r.Fault != "" {
			t.Fatalf("%s not ready: %s", path, r.Detail)
		}
		go func() { _, _ = s.Ask(ctx, []byte(virusRequest("player_1", ""))) }()
		if w, ok := r.(sandboxtest.Warmed); ok && i == 0 {
			// One more container, waiting in the pool for a game.
			s, err := w.Pool.Start(ctx, bot, lim, nil)
			if err == nil {
				err = s.Close(ctx)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	fmt.Println("asking")
	time.Sleep(time.Hour)
}
