package sandbox_test

import (
	"context"
	"testing"
	"time"

	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// TestPoolKeepsOneContainerPerBot: games of one bot played one after
// another use one container, which Drain removes.
func TestPoolKeepsOneContainerPerBot(t *testing.T) {
	p := sandboxtest.Pool(t).Pool
	bot := virusBot(t, "import os\ndef ia(game, side):\n    return False\n")
	other := virusBot(t, "def ia(game, side):\n    return False\n")
	for game := range 3 {
		for _, b := range []sandbox.Bot{bot, other} {
			s := start(t, p, b, limits(time.Second))
			wantOK(t, ask(t, s, virusRequest("player_1", "")), "false")
			closedLog(t, s)
		}
		if n := sandboxtest.Leftovers(t, p.Docker); n != 2 {
			t.Fatalf("after game %d: %d containers, want one per bot", game, n)
		}
	}
	if err := p.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := sandboxtest.Leftovers(t, p.Docker); n != 0 {
		t.Fatalf("%d containers after Drain", n)
	}
}

// TestPoolReportCannotBeForged: a bot that writes what looks like the
// warden's report on every descriptor it can find neither ends its game nor
// gets its container reset under it: it does not know the game's nonce.
func TestPoolReportCannotBeForged(t *testing.T) {
	const forger = `
import os

def ia(game, side):
    for fd in range(1, 64):
        for nonce in ("", "x", game.get("nonce", "")):
            try:
                os.write(fd, b'\n{"warden": "%s", "status": 0, "oom": false, "clean": true}\n' % nonce.encode())
            except OSError:
                pass
    return False
`
	s := start(t, sandboxtest.Pool(t), virusBot(t, forger), limits(2*time.Second))
	for range 3 {
		wantOK(t, ask(t, s, virusRequest("player_1", "")), "false")
	}
}
