package contest

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"botjudge/games/fault"
	"botjudge/games/tron"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// TestTwelveBotFreeForAll: twelve bots written for botsArena (the example
// bots, four copies each) play one free-for-all to the end in Docker, on a
// small grid so that it ends soon; the game ends with every seat
// ranked and no bot faulted.
func TestTwelveBotFreeForAll(t *testing.T) {
	run := sandboxtest.Docker(t)
	examples := filepath.Join("..", "..", "submissions", "tron")
	seats := make([]Seat, 12)
	for i := range seats {
		file := []string{"floodfill.py", "wanderer.py", "straight.js"}[i%3]
		seats[i] = Seat{Name: fmt.Sprintf("bot%d", i), Bot: sandbox.Bot{Name: fmt.Sprintf("bot%d", i), Path: filepath.Join(examples, file), Protocol: sandbox.ProtocolProgram}}
	}
	_, p, err := Pipeline{Run: run, Rules: tron.Rules{Width: 12, Height: 10}, Limits: sandbox.DefaultLimits()}.Play(context.Background(), Fixture{Seed: 7, Seats: seats, Labels: map[string]string{"botjudge.test": t.Name()}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range p.Steps {
		if st.Move.Verdict != fault.None {
			t.Errorf("%s was faulted on step %d: %s %s (%s)", seats[st.Move.Seat].Name, st.Ply, st.Move.Verdict, st.Move.Reason, st.Detail)
		}
	}
	if p.Stopped || len(p.Outcome.Rank) != 12 {
		t.Fatalf("the game did not end: %+v", p.Outcome)
	}
	t.Logf("%d steps, ranks %v", len(p.Steps), p.Outcome.Rank)
}
