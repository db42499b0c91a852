package screen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"botjudge/games"
	"botjudge/judge/screen/browsertest"
	"botjudge/results"
)

// How the pages read to a class, one tab for all: titles that say the page
// and the tournament, a slider that says its step, results and marks that
// say what they mean, a crosstable that numbers its rows as its columns,
// has a legend and rings the pairings being played, live steps numbered as
// replays number them, and a phone's replay and podium made for a thumb.
func TestPagesReadRight(t *testing.T) {
	b := browsertest.Start(t)
	srv := serve(t)
	p := b.NewPage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	t.Cleanup(func() {
		if probs := p.Problems(); len(probs) > 0 {
			t.Errorf("the browser reported problems:\n%s", strings.Join(probs, "\n"))
		}
	})
	open := func(t *testing.T, d display, path, ready string) {
		t.Helper()
		if err := p.Navigate(ctx, srv.URL+path); err != nil {
			t.Fatal(err)
		}
		resize(t, ctx, p, d)
		wait(t, ctx, p, ready)
		wait(t, ctx, p, settled)
		if os.Getenv("SCREENSHOTS") != "" {
			screenshot(t, ctx, p, "reading-"+strings.NewReplacer("/", "-", "?", "-", "&", "-", "=", "-").Replace(t.Name()[len("TestPagesReadRight/"):])+"-"+d.name)
		}
	}
	hd, phone := displays[2], displays[4]

	t.Run("titles", func(t *testing.T) {
		c4 := fix.c4.t.ID
		bot := fix.c4.bots[0].name
		g := gameWhere(t, fix.c4, func(results.Game) bool { return true })
		for _, c := range []struct{ path, ready, want string }{
			{fmt.Sprintf("/t/%d/crosstable", c4), `document.querySelector('table.cross')`, fmt.Sprintf("Crosstable · connectfour #%d · botjudge", c4)},
			{fmt.Sprintf("/t/%d/bot/%d", c4, fix.c4.ids[0]), `document.querySelector('.botgame')`, fmt.Sprintf("%s · connectfour #%d · botjudge", bot, c4)},
			{fmt.Sprintf("/game/%d", g.ID), `document.querySelector('.replay')`, fmt.Sprintf("Game #%d · %s vs %s · connectfour #%d · botjudge", g.ID, g.Players[0].Name, g.Players[1].Name, c4)},
		} {
			open(t, hd, c.path, c.ready)
			if got := eval[string](t, ctx, p, `document.title`); got != c.want {
				t.Errorf("%s is titled %q, want %q", c.path, got, c.want)
			}
		}
	})

	t.Run("slider", func(t *testing.T) {
		g := gameWhere(t, fix.c4, func(results.Game) bool { return true })
		open(t, hd, fmt.Sprintf("/game/%d?move=3", g.ID), `document.querySelector('.replay .slider')`)
		got := eval[[2]string](t, ctx, p, `(s => [s.getAttribute('aria-label'), s.getAttribute('aria-valuetext')])(document.querySelector('.replay .slider'))`)
		last := len(replayOf(t, srv, g.ID).Frames) - 1
		if got != [2]string{"Step of the game", fmt.Sprintf("Step 3 / %d", last)} {
			t.Errorf("the slider is named %q", got)
		}
	})

	t.Run("tictactoe", func(t *testing.T) {
		g := gameWhere(t, fix.ttt, func(results.Game) bool { return true })
		open(t, hd, fmt.Sprintf("/game/%d?move=%d", g.ID, len(g.Moves)), `document.querySelector('.replay .mboard .cell')`)
		got := eval[[]string](t, ctx, p, `[...document.querySelectorAll('.replay .mboard .cell')].filter(c => c.dataset.v !== '0').map(c => c.dataset.v + c.textContent)`)
		for _, c := range got {
			if c != "1X" && c != "2O" {
				t.Errorf("a piece of seat %c reads %q: X is the first seat's, O the second's", c[0], c[1:])
			}
		}
		if legend := eval[string](t, ctx, p, `[...document.querySelectorAll('.legend .mark.token')].map(m => m.textContent).join(' ')`); legend != "X O" {
			t.Errorf("the legend's pieces read %q, want X O", legend)
		}
	})

	t.Run("result", func(t *testing.T) {
		// A duel the second seat won: its score comes first, after its name.
		g := gameWhere(t, fix.virus, func(g results.Game) bool {
			return g.Players[1].Rank < g.Players[0].Rank && g.Players[1].Score != g.Players[0].Score
		})
		open(t, hd, fmt.Sprintf("/game/%d?move=%d", g.ID, len(g.Moves)), `document.querySelector('.result.shown')`)
		want := fmt.Sprintf("%s wins %d – %d", g.Players[1].Name, g.Players[1].Score, g.Players[0].Score)
		if got := eval[string](t, ctx, p, `document.querySelector('.result').textContent`); !strings.HasPrefix(got, want) {
			t.Errorf("the result reads %q, want %q…", got, want)
		}
	})

	t.Run("virus-pass", func(t *testing.T) {
		g, n := virusPass(t)
		open(t, hd, fmt.Sprintf("/game/%d", g), fmt.Sprintf(`document.querySelector('.movelist li[data-i="%d"]')`, n))
		if got := eval[string](t, ctx, p, fmt.Sprintf(`document.querySelector('.movelist li[data-i="%d"] .what').textContent`, n)); got != "pass" {
			t.Errorf("a pass reads %q in the move list", got)
		}
	})

	t.Run("free-for-all", func(t *testing.T) {
		// Each score beside its bot's name, on the schedule and a bot page.
		tid := fix.ffa.t.ID
		open(t, hd, fmt.Sprintf("/t/%d/schedule", tid), `document.querySelector('.schedule-view .done .game-row')`)
		got := eval[[2]int](t, ctx, p, `(r => [r.querySelectorAll('.gplayers .pscore').length, r.querySelector('.gscore').textContent.length])(document.querySelector('.schedule-view .done .game-row'))`)
		if got != [2]int{len(fix.ffa.bots), 0} {
			t.Errorf("a game of %d shows %d scores by their names and %d characters of bare scores", len(fix.ffa.bots), got[0], got[1])
		}
		open(t, hd, fmt.Sprintf("/t/%d/bot/%d", tid, fix.ffa.ids[0]), `document.querySelector('.botgame')`)
		if got := eval[int](t, ctx, p, `document.querySelectorAll('.botgame .pscore').length`); got != len(fix.ffa.bots)-1 {
			t.Errorf("a bot page shows %d opponents' scores by their names, want %d", got, len(fix.ffa.bots)-1)
		}
		if got := eval[string](t, ctx, p, `document.querySelector('.botgame .gscore').textContent`); strings.Contains(got, "–") {
			t.Errorf("a bot page's score of a free-for-all reads %q", got)
		}
		// W, D and L count opponents in games of several: the page says so.
		open(t, hd, fmt.Sprintf("/t/%d", fix.tron.t.ID), `document.querySelector('table.standings')`)
		if got := eval[string](t, ctx, p, `document.querySelector('.standings-view .note').textContent`); !strings.Contains(got, "W, D and L count the opponents") {
			t.Errorf("the standings of games of several do not say what W counts: %q", got)
		}
	})

	t.Run("crosstable", func(t *testing.T) {
		// Ties: ranks 1, 1, 3…; the rows are numbered as the columns.
		sd := fix.run.boards[0]
		open(t, hd, fmt.Sprintf("/t/%d/crosstable", fix.run.busy.t.ID), `document.querySelector('table.cross td.playing')`)
		rows := eval[[]string](t, ctx, p, `[...document.querySelectorAll('table.cross tbody th.rk')].map(th => th.textContent)`)
		for i, r := range rows {
			if r != strconv.Itoa(i+1) {
				t.Fatalf("row %d is labelled %q: rows are numbered as the columns", i+1, r)
			}
		}
		if got := eval[string](t, ctx, p, `[...document.querySelectorAll('.cross-view .clegend > span')].map(s => s.textContent).join(' | ')`); !strings.Contains(got, "won | drawn | lost") || !strings.Contains(got, "being played now") {
			t.Errorf("the crosstable's legend reads %q", got)
		}
		// Every pairing of a game in progress is ringed, and no other.
		open(t, hd, fmt.Sprintf("/t/%d/crosstable", sd.t.ID), `document.querySelector('table.cross td.playing')`)
		want := map[string]bool{}
		for _, l := range sd.live {
			a, b := l.Players[0].BotID, l.Players[1].BotID
			want[fmt.Sprint(a, "-", b)], want[fmt.Sprint(b, "-", a)] = true, true
		}
		got := eval[[]string](t, ctx, p, `[...document.querySelectorAll('table.cross td.playing')].map(td => td.dataset.row + '-' + td.dataset.col)`)
		if len(got) != len(want) {
			t.Errorf("%d cells ringed as being played, want %d: %q", len(got), len(want), got)
		}
		for _, c := range got {
			if !want[c] {
				t.Errorf("cell %s is ringed, its bots play no game now", c)
			}
		}
	})

	t.Run("live-steps", func(t *testing.T) {
		// The TV numbers a game's step as its replay will, not its moves.
		sd := fix.run.boards[len(fix.run.boards)-1]
		l := sd.live[0]
		open(t, hd, fmt.Sprintf("/t/%d/tv?key=%s", sd.t.ID, l.Key), `document.querySelector('.tv-view .tvmoves')`)
		want := fmt.Sprintf("step %d", l.Last[0].Ply+1)
		if got := eval[string](t, ctx, p, `document.querySelector('.tv-view .tvmoves').textContent`); got != want {
			t.Errorf("the TV of a game of %d moves says %q, want %q", l.Moves, got, want)
		}
		// The seats out of the game are struck out of its list.
		var v struct {
			Fates []games.Fate `json:"fates"`
		}
		if err := json.Unmarshal(l.View, &v); err != nil {
			t.Fatal(err)
		}
		var outs []string
		for seat, f := range v.Fates {
			if f.Turn > 0 {
				outs = append(outs, strconv.Itoa(seat))
			}
		}
		if len(outs) == 0 {
			t.Fatal("no seat of the live free-for-all is out: the fixture should have some")
		}
		got := eval[[]string](t, ctx, p, `[...document.querySelectorAll('.tv-view .tvhead .who.out')].map(w => w.dataset.seat)`)
		if strings.Join(got, ",") != strings.Join(outs, ",") {
			t.Errorf("the TV strikes out seats %q, the game put out %q", got, outs)
		}
	})

	t.Run("phone-replay", func(t *testing.T) {
		// Its controls under the board, and no keyboard to hint at.
		g := gameWhere(t, fix.virus, func(results.Game) bool { return true })
		open(t, phone, fmt.Sprintf("/game/%d", g.ID), `document.querySelector('.replay .controls')`)
		got := eval[[3]float64](t, ctx, p, `[document.querySelector('.replay .centre').getBoundingClientRect().bottom, document.querySelector('.replay .controls').getBoundingClientRect().top, document.querySelector('.controls .keys').checkVisibility() ? 1 : 0]`)
		if gap := got[1] - got[0]; gap < 0 || gap > 40 {
			t.Errorf("the controls are %.0f px below the board", gap)
		}
		if got[2] != 0 {
			t.Error("a phone's replay hints at keys it has none of")
		}
	})

	t.Run("phone-podium", func(t *testing.T) {
		open(t, phone, fmt.Sprintf("/t/%d/show?only=podium&dwell=3600", fix.podium.t.ID), `document.querySelector('.podium .place')`)
		sizes := eval[[]float64](t, ctx, p, `[...document.querySelectorAll('.podium .pname')].map(n => parseFloat(getComputedStyle(n).fontSize))`)
		for _, s := range sizes {
			if s < 14 {
				t.Errorf("a name on the phone's podium is %.1f px high", s)
			}
		}
		if eval[bool](t, ctx, p, `document.querySelector('.show-view .hint').checkVisibility()`) {
			t.Error("a phone's podium hints at an F key it has not")
		}
		check(t, ctx, p, "phone podium", phone)
	})
}

// virusPass is a virus game of the fixture with a pass (its bot's False,
// or no legal move), and the step of its first.
func virusPass(t *testing.T) (int64, int) {
	t.Helper()
	for _, sd := range []seeded{fix.virus, fix.swiss} {
		for _, item := range must(fix.db.Games(context.Background(), sd.t.ID, results.GameFilter{})) {
			g := must(fix.db.Game(context.Background(), item.ID))
			for _, m := range g.Moves {
				if m.Verdict == "" && (m.Reason == "pass" || m.Reason == "no legal move") {
					return g.ID, m.Ply + 1
				}
			}
		}
	}
	t.Fatal("no virus game of the fixture passes: the test needs one")
	return 0, 0
}
