package sandbox_test

import (
	"context"
	"os"
	"testing"
	"time"

	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// TestBotVersionsDelivered: the same bot file plays from one volume game
// after game, and a new version written at the same path is delivered anew,
// never the old one from the engine's volumes.
func TestBotVersionsDelivered(t *testing.T) {
	t.Parallel()
	d := sandboxtest.Docker(t)
	ctx := context.Background()
	bot := virusBot(t, "def ia(game, side):\n    return [1, 1]\n")
	play := func(want string) {
		t.Helper()
		s := start(t, d, bot, limits(5*time.Second))
		wantOK(t, ask(t, s, virusRequest("player_1", "")), want)
		if err := s.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
	play("[1,1]")
	play("[1,1]")
	if vols, err := d.VolumesLabelled(ctx, sandbox.LabelOwner, d.Owner()); err != nil || len(vols) != 1 {
		t.Fatalf("volumes after two games of one version: %v, %v; want one", vols, err)
	}
	// Same size, other content.
	if err := os.WriteFile(bot.Path, []byte("def ia(game, side):\n    return [2, 2]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	play("[2,2]")
	if vols, err := d.VolumesLabelled(ctx, sandbox.LabelOwner, d.Owner()); err != nil || len(vols) != 2 {
		t.Errorf("volumes after a new version: %v, %v; want two", vols, err)
	}
}
