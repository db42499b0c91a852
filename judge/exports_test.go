package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"botjudge/results"
)

// The exports of `judge standings` (table, CSV and JSON, standings and
// games) name a bot's file relative to the submissions folder, as the
// screen's do: nothing of the organiser's machine, however `judge run` was
// given the folder.
func TestExportsShowNoHostPath(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	subs := filepath.Join(dir, "home", "teacher", "submissions")
	db := filepath.Join(dir, "judge.db")
	store, err := results.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	tour, err := store.EnsureTournament(ctx, "virus", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, name := range []string{"alice", "bob"} {
		b, err := store.AddBot(ctx, results.Bot{Game: "virus", Name: name, SHA256: name, Path: filepath.Join(subs, "virus", name+".py")})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, b.ID)
	}
	if err := store.StartRun(ctx, tour.ID, results.Run{BotIDs: ids, Planned: 1, Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	at := time.Now()
	g := results.Game{TournamentID: tour.ID, Key: "r1/alice/bob", Round: 1, Seed: 1, Reason: "alice has more pieces",
		Outcome: json.RawMessage(`{"rank":[1,2],"score":[3,1],"reason":"alice has more pieces"}`), Started: at, Finished: at,
		Players: []results.Player{{Seat: 0, BotID: ids[0], Rank: 1, Score: 3}, {Seat: 1, BotID: ids[1], Rank: 2, Score: 1}}}
	if _, err := store.SaveGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	store.Close()
	for _, args := range [][]string{{}, {"--format", "csv"}, {"--format", "json"}, {"--games", "--format", "csv"}, {"--games", "--format", "json"}} {
		code, stdout, stderr := judge(t, append([]string{"standings", "--db", db}, args...)...)
		if code != 0 {
			t.Fatalf("judge standings %v: exit %d\n%s", args, code, stderr)
		}
		if strings.Contains(stdout, dir) || strings.Contains(stdout, "teacher") {
			t.Errorf("judge standings %v shows the organiser's folders:\n%s", args, stdout)
		}
	}
	_, stdout, _ := judge(t, "standings", "--db", db, "--format", "json")
	var st []results.Standing
	if err := json.Unmarshal([]byte(stdout), &st); err != nil || len(st) != 2 {
		t.Fatalf("standings: %v\n%s", err, stdout)
	}
	for _, s := range st {
		if want := "virus/" + s.Bot.Name + ".py"; s.Bot.Path != want {
			t.Errorf("%s's path is %q, want %q", s.Bot.Name, s.Bot.Path, want)
		}
	}
}
