package bench

import (
	"context"
	"fmt"
	"strings"

	"botjudge/judge/contest"
)

// freeForAll plays one free-for-all game of FreeForAllBots bots that answer
// at once, as `judge run --format ffa` plays it, on both runners: the
// judge's own CPU per turn (requests, rules, live row, record) and the
// whole game's wall time. The benchmark's bot for it is the one whose game
// seats that many at once, so no game is named here.
func (b *bencher) freeForAll(ctx context.Context) error {
	n := b.sz.FreeForAllBots
	if n < 2 {
		return nil
	}
	bot, err := loadBot("ahead.py")
	if err != nil {
		return err
	}
	if _, most := bot.rules.Seats(); most < n {
		return fmt.Errorf("bench: %s seats at most %d bots, not %d", bot.rules.Name(), most, n)
	}
	bot.source = strings.Replace(bot.source, "LIFE = 0", fmt.Sprintf("LIFE = %d", b.sz.FreeForAllLife), 1)
	t := tourney{name: "ffa", bots: n, bot: bot, format: contest.FreeForAll}
	var p [2]played
	for i := range b.sides {
		b.progress("free-for-all of %d bots, %s", n, sideNames[i])
		if p[i], err = b.play(ctx, i, t, 0); err != nil {
			return err
		}
	}
	perTurn := func(q played) float64 { return ms(q.spent.judge) / float64(max(1, q.turns)) }
	b.add(Row{Measure: fmt.Sprintf("free-for-all of %d bots (%d turns), wall", n, p[0].turns), Unit: "s",
		Sandboxed: p[0].spent.wall.Seconds(), Plain: p[1].spent.wall.Seconds(), Compare: "ratio"})
	b.add(Row{Measure: "free-for-all, judge CPU per turn", Unit: "ms", Sandboxed: perTurn(p[0]), Plain: perTurn(p[1]), Compare: "diff"})
	b.note("free-for-all: %s, one game of %d copies of %s on the default grid, every bot asked at once each turn; %d and %d turns (sandboxed, plain: the same seed, the same game)",
		bot.rules.Name(), n, bot.file, p[0].turns, p[1].turns)
	return nil
}
