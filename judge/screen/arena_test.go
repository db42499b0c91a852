package screen_test

import (
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	_ "botjudge/games/all"
	"botjudge/judge/arena"
	"botjudge/judge/arena/arenatest"
	"botjudge/judge/screen"
	"botjudge/results"
)

// GET /api/arena/GAME.json serves the game's ladder; anything else under
// /api/arena/ is a 404 that says what to ask for.
func TestArenaJSON(t *testing.T) {
	d, err := results.Open(filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	arenatest.Class(t, d, "battleships")
	srv := httptest.NewServer(screen.New(d, screen.Options{Log: log.New(io.Discard, "", 0)}))
	defer srv.Close()

	resp, body := get(t, srv.URL+"/api/arena/battleships.json")
	var l arena.Ladder
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &l) != nil {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if len(l.Rows) != 4 || l.Rows[0].Name != "alice" || !l.Rows[3].Examples || l.Rows[0].SeedScore == nil || l.Games != 9 {
		t.Errorf("ladder %s", body)
	}
	if resp, body := get(t, srv.URL+"/api/arena/tron.json"); resp.StatusCode != http.StatusOK || json.Unmarshal(body, &l) != nil || len(l.Rows) != 0 {
		t.Errorf("a game without an arena: %d %s, want an empty ladder", resp.StatusCode, body)
	}
	for _, path := range []string{"/api/arena/chess.json", "/api/arena/battleships", "/api/arena/battleships.csv"} {
		if resp, body := get(t, srv.URL+path); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d %s, want 404", path, resp.StatusCode, body)
		}
	}
}
