package sandbox_test

import (
	"testing"
	"time"

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
