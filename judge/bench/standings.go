package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"botjudge/results"
)

// standingsBots is how many bots share the large database's games.
const standingsBots = 20

// standings times the standings of a database holding many games, each
// stored as the judge stores them. They do not depend on the runner: the
// figure is in both columns.
func (b *bencher) standings(ctx context.Context) error {
	n := b.sz.StandingsGames
	b.progress("standings of a %d-game database (storing the games first)", n)
	db, err := results.Open(filepath.Join(b.work, "standings.db"))
	if err != nil {
		return err
	}
	defer db.Close()
	var ids []int64
	for i := range standingsBots {
		bot, err := db.AddBot(ctx, results.Bot{Game: "bench", Name: fmt.Sprintf("bot%02d", i), SHA256: fmt.Sprintf("%064d", i)})
		if err != nil {
			return err
		}
		ids = append(ids, bot.ID)
	}
	t, err := db.EnsureTournament(ctx, "bench", 1, json.RawMessage(`{}`))
	if err != nil {
		return err
	}
	if err := db.StartRun(ctx, t.ID, results.Run{BotIDs: ids, Planned: n, Rounds: 1}); err != nil {
		return err
	}
	log := strings.Repeat("thinking...\n", 40)
	for k := range n {
		x, y := k%standingsBots, (k/standingsBots+k+1)%standingsBots
		if x == y {
			y = (y + 1) % standingsBots
		}
		rank := []int{1, 2}
		if k%3 == 0 {
			rank = []int{2, 1}
		}
		g := results.Game{
			TournamentID: t.ID, Key: fmt.Sprint(k), Round: 1, Seed: int64(k), Reason: "board full",
			Outcome: json.RawMessage(fmt.Sprintf(`{"rank":[%d,%d],"reason":"board full"}`, rank[0], rank[1])), Image: "bench",
			Players: []results.Player{{Seat: 0, BotID: ids[x], Rank: rank[0], Log: log}, {Seat: 1, BotID: ids[y], Rank: rank[1], Log: log}},
		}
		if _, err := db.SaveGame(ctx, g); err != nil {
			return err
		}
	}
	var took []time.Duration
	for range 7 {
		began := time.Now()
		st, err := db.Standings(ctx, t.ID, results.SchemeDefault)
		if err != nil {
			return err
		}
		took = append(took, time.Since(began))
		if len(st) != standingsBots {
			return fmt.Errorf("bench: standings of %d bots, want %d", len(st), standingsBots)
		}
	}
	med := quantile(took, 0.5)
	b.add(Row{Measure: fmt.Sprintf("standings of a %d-game database, median", n), Unit: "ms", Sandboxed: med, Plain: med, Target: "< 100 ms", Met: atMost(med, 100)})
	return nil
}
