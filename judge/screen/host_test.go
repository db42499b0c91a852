package screen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"botjudge/results"
)

// Nothing the screen sends shows the organiser's machine: a bot's path is
// relative to the submissions folder (virus/alice.py), in the standings, a
// bot's page, a pair's and every export; no answer, an error's included,
// names the folder the bots were found in nor the database's.
func TestNothingOfTheHost(t *testing.T) {
	ctx := context.Background()
	srv := serve(t)
	sd, busy := fix.virus, fix.run.busy
	st := must(fix.db.Standings(ctx, sd.t.ID, results.SchemeDefault))
	a, b := st[0].Bot.ID, st[1].Bot.ID
	g := gameWhere(t, sd, func(results.Game) bool { return true })
	paths := []string{
		"/api/tournaments.json", "/api/faults.json",
		fmt.Sprintf("/api/t/%d/live.json", busy.t.ID),
		"/api/t/999/standings.json", "/api/game/999999/replay.json", "/api/nothing",
		fmt.Sprintf("/api/game/%d/replay.json", g.ID), fmt.Sprintf("/api/game/%d/record.json", g.ID),
	}
	for _, p := range []string{"info.json", "standings.json", "standings.csv", "games.json", "games.csv", "crosstable.json",
		fmt.Sprintf("pair/%d/%d/info.json", a, b), fmt.Sprintf("bot/%d/info.json", a)} {
		paths = append(paths, fmt.Sprintf("/api/t/%d/%s", sd.t.ID, p))
	}
	host := []string{submissions, filepath.Dir(fix.path)}
	for _, p := range paths {
		_, body := get(t, srv.URL+p)
		for _, h := range host {
			if strings.Contains(string(body), h) {
				t.Errorf("%s shows %s", p, h)
			}
		}
	}
	var standings []results.Standing
	_, body := get(t, fmt.Sprintf("%s/api/t/%d/standings.json", srv.URL, sd.t.ID))
	if err := json.Unmarshal(body, &standings); err != nil {
		t.Fatal(err)
	}
	var page struct{ Bot results.Bot }
	_, body = get(t, fmt.Sprintf("%s/api/t/%d/bot/%d/info.json", srv.URL, sd.t.ID, a))
	if err := json.Unmarshal(body, &page); err != nil {
		t.Fatal(err)
	}
	var pair struct{ A, B results.Bot }
	_, body = get(t, fmt.Sprintf("%s/api/t/%d/pair/%d/%d/info.json", srv.URL, sd.t.ID, a, b))
	if err := json.Unmarshal(body, &pair); err != nil {
		t.Fatal(err)
	}
	for _, bot := range []results.Bot{standings[0].Bot, standings[29].Bot, page.Bot, pair.A, pair.B} {
		if want := "virus/" + bot.Name + ".py"; bot.Path != want {
			t.Errorf("%s's path is %q, want %q", bot.Name, bot.Path, want)
		}
	}
}
