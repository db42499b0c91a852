package screen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"botjudge/judge/screen"
	"botjudge/results"
)

// TestPrivateTournamentHidden: the sparring tournament of the hand-ins is
// not found on any route of a tournament, its live games and its event
// stream included, as it is not in the list.
func TestPrivateTournamentHidden(t *testing.T) {
	ctx := context.Background()
	db, err := results.Open(filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tour, err := db.PrivateTournament(ctx, "virus", json.RawMessage(`{"sparring":true}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(screen.New(db, screen.Options{Log: log.New(io.Discard, "", 0)}))
	defer srv.Close()
	// A stream that would be served never ends: the client gives up.
	client := &http.Client{Timeout: 5 * time.Second}
	for _, route := range []string{"info.json", "standings.json", "standings.csv", "games.json", "games.csv",
		"crosstable.json", "live.json", "events", "bot/1/info.json", "pair/1/2/info.json"} {
		resp, err := client.Get(fmt.Sprintf("%s/api/t/%d/%s", srv.URL, tour.ID, route))
		if err != nil {
			t.Errorf("%s of the private tournament: %v, want 404 at once", route, err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s of the private tournament: %d, want 404", route, resp.StatusCode)
		}
	}
}
