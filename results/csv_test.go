package results_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"botjudge/results"
	"botjudge/results/scoring/scoringtest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test -update to accept):\n got:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestWriteStandingsCSV(t *testing.T) {
	entrants, games := scoringtest.League("ABCD", "AB", "AC", "AD", "B=C", "BD", "CD", "DA")
	entries := make([]results.Entry, len(entrants))
	for i, e := range entrants {
		entries[i] = results.Entry{Bot: results.Bot{ID: e.ID, Name: e.Name}}
	}
	entries[0].Bot.SHA256 = "a1a1"
	entries[0].Check = results.Check{BotID: 1, OK: true, At: time.Unix(1, 0)}
	entries[3].Check = results.Check{BotID: 4, Verdict: "timeout", Detail: "no answer, in 10 s", At: time.Unix(1, 0)}
	games[1].Seats[1].Timeouts = 1
	st := results.Rank(entries, games, results.SchemeDefault)
	// As a swiss tournament's standings would have them.
	st[0].Buchholz, st[2].Byes = 2.5, 1
	var buf bytes.Buffer
	if err := results.WriteStandingsCSV(&buf, st); err != nil {
		t.Fatal(err)
	}
	golden(t, "standings.csv", buf.Bytes())
}

func TestWriteGamesCSV(t *testing.T) {
	start := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	// beta's game was recorded before times were kept per seat.
	charged, wall := 2345*time.Millisecond, 2901*time.Millisecond
	gs := []results.Game{{
		ID: 1, Key: "virus/alpha-beta/1", Round: 1, Seed: -5, Reason: "board full", Image: "sha256:abc",
		Started: start, Finished: start.Add(1500 * time.Millisecond),
		Outcome: json.RawMessage(`{"rank":[1,2]}`),
		Players: []results.Player{
			{Seat: 0, Name: "alpha", SHA256: "aa", Rank: 1, Score: 40, Faults: 0, Charged: &charged, Wall: &wall},
			{Seat: 1, Name: "beta, the second", SHA256: "bb", Rank: 2, Score: 24, Faults: 3},
		},
	}, {
		ID: 2, Key: "tron/ffa/1", Round: 1, Seed: 9, Reason: "last alive",
		Players: []results.Player{
			{Seat: 0, Name: "alpha", SHA256: "aa", Rank: 3},
			{Seat: 1, Name: "beta, the second", SHA256: "bb", Rank: 1},
			{Seat: 2, Name: "gamma", SHA256: "cc", Rank: 2, Faults: 1},
		},
	}}
	var buf bytes.Buffer
	if err := results.WriteGamesCSV(&buf, gs); err != nil {
		t.Fatal(err)
	}
	golden(t, "games.csv", buf.Bytes())
}
