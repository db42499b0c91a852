package screen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"botjudge/games"
	"botjudge/games/battleships"
	"botjudge/games/fault"
	"botjudge/judge/screen"
	"botjudge/results"
)

// secret is in the traceback of alice's bot: the student's own code, which
// nobody else may read with the hand-in on.
const (
	secret    = "secret_line_of_code"
	traceback = "Traceback (most recent call last):\n  File \"alice.py\", line 3, in ia\n    " + secret + "()\nNameError"
)

// leakyTournament is a battleships tournament of alice, whose bot crashes
// at once with the traceback (it prints it too, and its check failed on
// it), against amiral: one game stored, where the rules quote the
// traceback in the reasons (the move's, the game's and the outcome's), and
// the return match in progress, its last step the same crash.
func leakyTournament(t *testing.T) (*results.DB, seeded) {
	t.Helper()
	ctx := context.Background()
	db, err := results.Open(filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	alice := bot{name: "alice", log: func(int) string { return traceback },
		answer: func(json.RawMessage, int, *rand.Rand) games.Answer {
			return games.Answer{Fault: fault.Crash, Detail: traceback}
		}}
	sd, err := tournament(ctx, db, battleships.Rules{}, 3, []bot{alice, shipsBots()[0]}, [][]int{{0, 1}, {1, 0}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SaveCheck(ctx, results.Check{BotID: sd.ids[0], Verdict: string(fault.Crash), Detail: "crash: " + traceback, Log: traceback}); err != nil {
		t.Fatal(err)
	}
	pg := sd.pending[0]
	bots, ids := sd.seated(pg.seats)
	if err := db.PutLive(ctx, liveAt(battleships.Rules{}, play(battleships.Rules{}, sd.t.ID, pg.key, 1, pg.seed, bots, ids, time.Now()), 2)); err != nil {
		t.Fatal(err)
	}
	return db, sd
}

// TestHideLogsInLists: with hand-in on, no page's data quotes the
// sandbox's detail of a fault, nor the log of a check: the lists of games
// (which carry no moves to find the details in), the games in progress,
// the tables, and a game's replay and record. With logs shown, the reasons
// say it as before.
func TestHideLogsInLists(t *testing.T) {
	db, sd := leakyTournament(t)
	g := must(db.Games(context.Background(), sd.t.ID, results.GameFilter{}))[0]
	if !strings.Contains(g.Reason, secret) || !strings.Contains(string(g.Outcome), secret) {
		t.Fatalf("the stored game does not quote the traceback: %q %s", g.Reason, g.Outcome)
	}
	hidden := httptest.NewServer(screen.New(db, screen.Options{HideLogs: true, Log: log.New(testLog{t}, "", 0)}))
	t.Cleanup(func() {
		hidden.CloseClientConnections()
		hidden.Close()
	})
	base := fmt.Sprintf("%s/api/t/%d/", hidden.URL, sd.t.ID)
	a, b := sd.ids[0], sd.ids[1]
	paths := []string{fmt.Sprintf("/api/game/%d/replay.json", g.ID), fmt.Sprintf("/api/game/%d/record.json", g.ID)}
	for _, p := range []string{"games.json", "games.csv", fmt.Sprintf("games.json?bot=%d", a), fmt.Sprintf("pair/%d/%d/info.json", a, b),
		fmt.Sprintf("bot/%d/info.json", a), "standings.json", "standings.csv", "crosstable.json", "live.json"} {
		paths = append(paths, fmt.Sprintf("/api/t/%d/%s", sd.t.ID, p))
	}
	for _, path := range paths {
		resp, body := get(t, hidden.URL+path)
		if resp.StatusCode != http.StatusOK || strings.Contains(string(body), secret) {
			t.Errorf("with HideLogs, %s: %d, %s", path, resp.StatusCode, body)
		}
	}
	if ev := string(firstEvent(t, base+"events")); strings.Contains(ev, secret) || !strings.Contains(ev, `"last":[{`) {
		t.Errorf("with HideLogs, the first event %s", ev)
	}
	var list []results.Game
	if _, body := get(t, base+"games.json"); json.Unmarshal(body, &list) != nil || len(list) != 1 || list[0].Reason != "crash: …" {
		t.Errorf("with HideLogs, games.json %s, want the reason without its detail", body)
	}

	_, body := get(t, fmt.Sprintf("%s/api/t/%d/games.json", serveDB(t, db).URL, sd.t.ID))
	if json.Unmarshal(body, &list) != nil || len(list) != 1 || list[0].Reason != g.Reason || string(list[0].Outcome) != string(g.Outcome) {
		t.Errorf("with logs shown, games.json %s, want the reasons as stored", body)
	}
}
