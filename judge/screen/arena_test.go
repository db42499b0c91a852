package screen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"botjudge/games"
	_ "botjudge/games/all"
	"botjudge/games/fault"
	"botjudge/games/tron"
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

// The ladder marks the row of the student who asks (screen.Options.Viewer),
// in their answer alone, under a pseudonym too; nobody's for the projector,
// the organiser, or a student not on it.
func TestArenaJSONMarksViewer(t *testing.T) {
	d, err := results.Open(filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	arenatest.Class(t, d, "battleships")
	carol := must(d.StudentNamed(context.Background(), "carol"))
	dave := must(d.AddStudent(context.Background(), "dave", results.HashCode("dave"), false))
	// The test's sessions: a Student header names the student.
	viewer := func(r *http.Request) (int64, bool) {
		var id int64
		_, err := fmt.Sscan(r.Header.Get("Student"), &id)
		return id, err == nil
	}
	for _, names := range []arena.Names{arena.RealNames, arena.Pseudonyms} {
		srv := httptest.NewServer(screen.New(d, screen.Options{Log: log.New(io.Discard, "", 0), Viewer: viewer, ArenaNames: names}))
		for _, asks := range []string{"", fmt.Sprint(carol.ID), fmt.Sprint(dave.ID)} {
			req, _ := http.NewRequest("GET", srv.URL+"/api/arena/battleships.json", nil)
			req.Header.Set("Student", asks)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var l arena.Ladder
			if err := json.Unmarshal(body, &l); err != nil {
				t.Fatalf("%s", body)
			}
			var marked []string
			for _, r := range l.Rows {
				if r.You {
					marked = append(marked, r.Name)
				}
			}
			want := 0
			if asks == fmt.Sprint(carol.ID) {
				want = 1
			}
			if len(marked) != want || strings.Count(string(body), `"you"`) != want {
				t.Errorf("%s, asked by student %q: marked %v, want %d row(s): %s", names, asks, marked, want, body)
			}
			if len(marked) == 1 && names == arena.RealNames && marked[0] != "carol" {
				t.Errorf("carol's answer marks %v", marked)
			}
		}
		srv.Close()
	}
}

// tronDuel stores a Tron arena game between two students' versions, played
// by the rules: zoe-martin's bot (which prints ZOE-LOG) crashes with
// ZOE-TRACEBACK at its fifth move, so that bob-dupont wins. It returns the
// stored game.
func tronDuel(t *testing.T, d *results.DB, tournament int64) results.Game {
	t.Helper()
	ctx := context.Background()
	var bots []bot
	var ids []int64
	for i, name := range []string{"zoe-martin", "bob-dupont"} {
		s := must(d.AddToRoster(ctx, results.Student{Name: name, Display: name}, results.HashCode(name)))
		h := must(d.AddHandIn(ctx, results.HandIn{StudentID: s.ID, Game: "tron", Kind: "file", Ext: ".py", Content: []byte(name)}, 0))
		b := must(d.AddBot(ctx, results.Bot{Game: "tron", Name: name, SHA256: name + "0123456789", Path: name}))
		if err := d.SetCurrent(ctx, h); err != nil {
			t.Fatal(err)
		}
		if err := d.JoinArena(ctx, "tron", b.ID, h.ID); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, b.ID)
		// A botsArena bot answers init with a name of its own choosing.
		tb := tronBot([]string{"bolt", "spark"}[i], 1000, -1)
		tb.name = name
		bots = append(bots, tb)
	}
	steady := bots[0].answer
	bots[0].log = func(int) string { return "ZOE-LOG\n" }
	bots[0].answer = func(req json.RawMessage, turn int, rng *rand.Rand) games.Answer {
		if turn == 5 {
			return games.Answer{Fault: fault.Crash, Detail: "ZOE-TRACEBACK"}
		}
		return steady(req, turn, rng)
	}
	g := play(tron.Rules{}, tournament, "arena/1", 1, 7, bots, ids, time.Now())
	id, err := d.SaveGame(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	return must(d.Game(ctx, id))
}

// A student replays an arena game they played, never with the other
// student's log, nor the details of their faults (ZOE-TRACEBACK), even with
// the public pages showing logs; and with pseudonyms no real name is left
// in the replay or the record, which still ends on the stored result.
func TestArenaReplayPrivate(t *testing.T) {
	ctx := context.Background()
	d, err := results.Open(filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tour := must(d.ArenaTournament(ctx, "tron"))
	g := tronDuel(t, d, tour.ID)
	stored, _ := json.Marshal(g)
	for _, s := range []string{"bob-dupont is the last one alive", "crash: ZOE-TRACEBACK", "ZOE-LOG"} {
		if !strings.Contains(string(stored), s) {
			t.Fatalf("the test game does not say %q: %s", s, stored)
		}
	}
	names := must(arena.NewNamer(ctx, d, arena.Pseudonyms))
	bots := must(d.ArenaBots(ctx, "tron"))
	pseudonym := map[string]string{}
	for _, b := range bots {
		pseudonym[b.Name] = names.Name(b)
	}
	yes := func(*http.Request, int64) bool { return true }
	for _, chosen := range []arena.Names{arena.RealNames, arena.Pseudonyms} {
		srv := httptest.NewServer(screen.New(d, screen.Options{Log: log.New(io.Discard, "", 0), MayRead: yes, ArenaNames: chosen}))
		defer srv.Close()
		var rp screen.Replay
		resp, replay := get(t, fmt.Sprintf("%s/api/game/%d/replay.json", srv.URL, g.ID))
		if resp.StatusCode != http.StatusOK || json.Unmarshal(replay, &rp) != nil || !rp.Consistent {
			t.Fatalf("%s: %d %.300s, want a replay ending on the stored result", chosen, resp.StatusCode, replay)
		}
		_, record := get(t, fmt.Sprintf("%s/api/game/%d/record.json", srv.URL, g.ID))
		hidden := []string{"ZOE-TRACEBACK", "ZOE-LOG"}
		if chosen == arena.Pseudonyms {
			hidden = append(hidden, "zoe-martin", "bob-dupont")
		}
		for _, body := range [][]byte{replay, record} {
			for _, s := range hidden {
				if strings.Contains(string(body), s) {
					t.Errorf("%s: %q in %.300s", chosen, s, body)
				}
			}
		}
		for i, p := range rp.Game.Players {
			want := g.Players[i].Name
			if chosen == arena.Pseudonyms {
				want = pseudonym[want]
			}
			if p.Name != want {
				t.Errorf("%s: seat %d is %q, want %q", chosen, i, p.Name, want)
			}
		}
	}
	if pseudonym["zoe-martin"] == pseudonym["bob-dupont"] {
		t.Errorf("pseudonyms %v", pseudonym)
	}
}

// The same game in a public tournament keeps its logs and names, when the
// organiser shows logs: what the arena's replays hide is the arena's.
func TestPublicRecordKeepsLogs(t *testing.T) {
	ctx := context.Background()
	d, err := results.Open(filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	pub := must(d.EnsureTournament(ctx, "tron", 1, nil))
	g := tronDuel(t, d, pub.ID)
	srv := httptest.NewServer(screen.New(d, screen.Options{Log: log.New(io.Discard, "", 0), ArenaNames: arena.Pseudonyms}))
	defer srv.Close()
	if _, record := get(t, fmt.Sprintf("%s/api/game/%d/record.json", srv.URL, g.ID)); !strings.Contains(string(record), "ZOE-LOG") ||
		!strings.Contains(string(record), "ZOE-TRACEBACK") || !strings.Contains(string(record), "zoe-martin") {
		t.Errorf("a public game's record %.300s, want its logs and names", record)
	}
}
