package screen_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"botjudge/judge/arena/arenatest"
	"botjudge/judge/screen"
	"botjudge/results"
)

// The arena's pages in Chromium: /arena/ lists the games with a ladder,
// /arena/GAME shows the ladder on one screen, follows the games as they
// are stored, and speaks French to a French browser.
func TestArenaPage(t *testing.T) {
	d, err := results.Open(filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ids := arenatest.Class(t, d, "battleships")
	srv := httptest.NewServer(screen.New(d, screen.Options{Log: log.New(io.Discard, "", 0)}))
	defer srv.Close()
	p, ctx, _ := browse(t, "")
	go_ := func(path string) {
		if err := p.Navigate(ctx, srv.URL+path); err != nil {
			t.Fatal(err)
		}
	}
	go_("/arena/")
	wait(t, ctx, p, `document.querySelector('a.tcard[href="/arena/battleships"]')?.textContent.includes('4')`)
	go_("/arena/battleships")
	wait(t, ctx, p, `document.querySelectorAll('table.arena tbody tr').length === 4`)
	rows := eval[[][2]string](t, ctx, p, `[...document.querySelectorAll('table.arena tbody tr')].map((tr) => [tr.querySelector('.name').textContent, tr.querySelector('.l').textContent])`)
	if rows[0] != [2]string{"alice", "0"} || rows[3][0] != "randomexample" {
		t.Errorf("rows (name, losses) %v: want alice first without a loss, the example bot last and marked", rows)
	}
	if h := eval[string](t, ctx, p, `document.querySelector('table.arena th.seed').textContent`); h != "BrainJar" {
		t.Errorf("seed score column %q, want BrainJar", h)
	}
	noScroll(t, ctx, p, "the arena")
	screenshot(t, ctx, p, "arena")

	// Two games stored while the page is open: random beats alice twice.
	tour, err := d.ArenaTournament(context.Background(), "battleships")
	if err != nil {
		t.Fatal(err)
	}
	for k := range 2 {
		g := results.Game{TournamentID: tour.ID, Key: fmt.Sprintf("live/%d", k), Reason: "win", Image: "test",
			Players: []results.Player{{Seat: 0, BotID: ids['r'], Rank: 1}, {Seat: 1, BotID: ids['a'], Rank: 2}}}
		if _, err := d.SaveGame(context.Background(), g); err != nil {
			t.Fatal(err)
		}
	}
	wait(t, ctx, p, `[...document.querySelectorAll('table.arena tbody tr')].some((tr) => tr.querySelector('.name').textContent === 'alice' && tr.querySelector('.l').textContent === '2')`)

	if err := p.SetHeaders(ctx, map[string]string{"Accept-Language": "fr-FR,fr;q=0.9"}); err != nil {
		t.Fatal(err)
	}
	go_("/arena/battleships")
	wait(t, ctx, p, `document.querySelector('h1')?.textContent === 'Arène : battleships' && document.querySelector('.tag').textContent === 'exemple'`)
}
