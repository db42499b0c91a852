// Package arenatest stores a small arena in a results database, for the
// tests of the packages that read one.
package arenatest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"botjudge/results"
)

// Class stores game's arena: students alice, bob and carol (bob handed in
// twice: his first version has left the ladder), taken from the roster
// when they are on it, and the example bot "random". Its games, in order, are written "AB" for A beating B, with a
// for alice, b and B for bob's first and second versions, c for carol and
// r for random:
//
//	ab ab aB Bc Bc cr cr ar rB
//
// so alice leads (no loss), and a sparring game of carol's beats
// alice outside the arena. It returns the bots' IDs by letter.
func Class(tb testing.TB, d *results.DB, game string) map[byte]int64 {
	tb.Helper()
	ctx := context.Background()
	ids := map[byte]int64{}
	version := func(letter byte, student, content string) results.HandIn {
		s, err := d.StudentNamed(ctx, student)
		if errors.Is(err, results.ErrNotFound) {
			s, err = d.AddStudent(ctx, student, results.HashCode(student), false)
		}
		must(tb, err)
		h, err := d.AddHandIn(ctx, results.HandIn{StudentID: s.ID, Game: game, Kind: "file", Ext: ".py", Content: []byte(content)}, 0)
		must(tb, err)
		must(tb, d.SetCurrent(ctx, h))
		ids[letter] = join(tb, d, game, student, content, h.ID)
		return h
	}
	version('a', "alice", "a1")
	version('b', "bob", "b1")
	version('B', "bob", "b2")
	carol := version('c', "carol", "c1")
	ids['r'] = join(tb, d, game, "random", "r1", 0)
	t, err := d.ArenaTournament(ctx, game)
	must(tb, err)
	for k, g := range []string{"ab", "ab", "aB", "Bc", "Bc", "cr", "cr", "ar", "rB"} {
		_, err := d.SaveGame(ctx, duel(t.ID, fmt.Sprintf("arena/%d", k), ids[g[0]], ids[g[1]]))
		must(tb, err)
	}
	sp, err := d.PrivateTournament(ctx, game, []byte(`{"sparring":true}`))
	must(tb, err)
	_, err = d.SaveSparring(ctx, carol.ID, duel(sp.ID, "handin", ids['c'], ids['a']))
	must(tb, err)
	return ids
}

// join stores a bot and puts it on the ladder.
func join(tb testing.TB, d *results.DB, game, name, sha string, handIn int64) int64 {
	b, err := d.AddBot(context.Background(), results.Bot{Game: game, Name: name, SHA256: sha + "0123456789abcdef", Path: name + ".py"})
	must(tb, err)
	must(tb, d.JoinArena(context.Background(), game, b.ID, handIn))
	return b.ID
}

// duel is a game won by the bot in the first seat.
func duel(tournament int64, key string, winner, loser int64) results.Game {
	return results.Game{TournamentID: tournament, Key: key, Reason: "win", Image: "test",
		Players: []results.Player{{Seat: 0, BotID: winner, Rank: 1}, {Seat: 1, BotID: loser, Rank: 2}}}
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}
