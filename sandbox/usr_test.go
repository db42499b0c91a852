package sandbox_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/docker/docker/api/types/volume"
	"github.com/docker/docker/client"

	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// TestUsrIsAReadOnlyVolume: every program comes from /usr, a read-only
// mount of its own (not the image's overlay), which a bot cannot change.
func TestUsrIsAReadOnlyVolume(t *testing.T) {
	const probe = `
import json, os

def ia(game, side):
    usr = [l.split() for l in open("/proc/self/mountinfo") if l.split()[4] == "/usr"]
    try:
        open("/usr/lib/python3.11/os.py", "a").close()
        writable = True
    except OSError:
        writable = False
    return {"mounted": len(usr), "ro": bool(usr) and "ro" in usr[0][5].split(","), "writable": writable}
`
	for _, r := range []runner{sandboxtest.Docker(t), sandboxtest.Pool(t)} {
		s := start(t, r, virusBot(t, probe), limits(2*time.Second))
		wantOK(t, ask(t, s, virusRequest("player_1", "")), `{"mounted":1,"ro":true,"writable":false}`)
	}
}

// TestPruneUsrKeepsCopiesOfImagesThatExist: a copy of /usr goes only with
// its source image, and its marker only after it. Removing the copy of an
// image another judge still uses would have the engine mount an empty
// volume of that name in that judge's next container.
func TestPruneUsrKeepsCopiesOfImagesThatExist(t *testing.T) {
	d := sandboxtest.Docker(t)
	ctx := context.Background()
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	gone := "botjudge-test-gone:" + strconv.FormatInt(time.Now().UnixNano(), 36)
	volumes := map[string]string{ // name: source
		"botjudge-usr-test-kept":      sandbox.BaseImage,
		"botjudge-usr-test-kept-done": sandbox.BaseImage,
		"botjudge-usr-test-gone":      gone,
		"botjudge-usr-test-gone-done": gone,
	}
	for name, src := range volumes {
		if _, err := cli.VolumeCreate(ctx, volume.CreateOptions{Name: name, Labels: map[string]string{sandbox.LabelUsr: src}}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cli.VolumeRemove(context.Background(), name, true) })
	}
	sandbox.PruneUsr(ctx, d, "another source")
	for name, src := range volumes {
		_, err := cli.VolumeInspect(ctx, name)
		if kept := err == nil; kept != (src != gone) {
			t.Errorf("volume %s (copy of %s): kept %v (%v)", name, src, kept, err)
		}
	}
}
