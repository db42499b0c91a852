package results_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"botjudge/results"
)

// BenchmarkStandings10k measures DB.Standings over 10 000 stored duels among
// 20 bots, each player with a log, as after a large tournament.
func BenchmarkStandings10k(b *testing.B) {
	const bots, games = 20, 10_000
	path := filepath.Join(b.TempDir(), "results.db")
	d := mustOpenPath(b, path)
	var entries []results.Bot
	for i := range bots {
		entries = append(entries, mustBot(b, d, "virus", fmt.Sprintf("bot%02d", i), fmt.Sprintf("%064d", i)))
	}
	tour := mustTournament(b, d, "virus", entries...)
	// An old version with games of its own, which the standings must skip.
	old := mustBot(b, d, "virus", "bot00", "old")
	fillGames(b, path, tour.ID, entries, old, games)
	if st, err := d.Standings(ctx, tour.ID, results.SchemeDefault); err != nil || st[0].Games == 0 {
		b.Fatalf("standings %v, %v", st, err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := d.Standings(ctx, tour.ID, results.SchemeDefault); err != nil {
			b.Fatal(err)
		}
	}
}

// fillGames inserts n games in one transaction straight into the file: going
// through SaveGame would make the setup, not the standings, the slow part.
// One game in ten is played by the old version.
func fillGames(b *testing.B, path string, tid int64, bots []results.Bot, old results.Bot, n int) {
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	tx, err := raw.Begin()
	if err != nil {
		b.Fatal(err)
	}
	log := strings.Repeat("thinking...\n", 40)
	for k := range n {
		x, y := bots[k%len(bots)], bots[(k/len(bots)+k+1)%len(bots)]
		if x.ID == y.ID {
			y = bots[(k+1)%len(bots)]
		}
		if k%10 == 0 {
			x = old
		}
		res, err := tx.Exec(`INSERT INTO games (tournament_id, key, round, seed, reason, outcome, image)
			VALUES (?, ?, 1, ?, 'board full', '{"rank":[1,2],"reason":"board full"}', 'sha256:abc')`, tid, fmt.Sprint(k), k)
		if err != nil {
			b.Fatal(err)
		}
		id, _ := res.LastInsertId()
		for seat, bot := range []results.Bot{x, y} {
			rank := 1 + (seat+k/3)%2
			if k%7 == 0 {
				rank = 1
			}
			if _, err := tx.Exec(`INSERT INTO players (game_id, seat, bot_id, rank, score, timeouts, crashes, illegal, restarts)
				VALUES (?, ?, ?, ?, 0, ?, 0, 0, 0)`, id, seat, bot.ID, rank, k%3); err != nil {
				b.Fatal(err)
			}
			if _, err := tx.Exec(`INSERT INTO logs (game_id, seat, log) VALUES (?, ?, ?)`, id, seat, log); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkCountGames10k is what every poll of the screen costs a run of
// 10,000 finished games of 40 moves: the count, and the run's durations and
// moves that the time left is measured on (one look in the moves' index a
// game, not a read of its moves).
func BenchmarkCountGames10k(b *testing.B) {
	const bots, games, moves = 20, 10_000, 40
	path := filepath.Join(b.TempDir(), "results.db")
	d := mustOpenPath(b, path)
	var entries []results.Bot
	for i := range bots {
		entries = append(entries, mustBot(b, d, "virus", fmt.Sprintf("bot%02d", i), fmt.Sprintf("%064d", i)))
	}
	tour := mustTournament(b, d, "virus", entries...)
	old := mustBot(b, d, "virus", "bot00", "old")
	fillGames(b, path, tour.ID, entries, old, games)
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	start := time.Now().Add(-time.Hour)
	if _, err := raw.Exec(`UPDATE games SET started = ?, finished = ? + id * 1000000`, start.UnixNano(), start.UnixNano()); err != nil {
		b.Fatal(err)
	}
	if _, err := raw.Exec(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		INSERT INTO moves (game_id, n, ply, seat, verdict, reason, detail, elapsed)
		SELECT g.id, n.i, n.i, n.i % 2, '', '', '', 1000 FROM games g, n`, moves-1); err != nil {
		b.Fatal(err)
	}
	c, err := d.CountGames(ctx, tour.ID, start)
	if err != nil || c.SinceMoves != c.Since*moves || c.Since == 0 {
		b.Fatalf("count %+v (%v)", c, err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := d.CountGames(ctx, tour.ID, start); err != nil {
			b.Fatal(err)
		}
	}
}
