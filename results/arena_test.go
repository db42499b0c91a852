package results_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"botjudge/results"
)

// annArena is a tron arena: ann's two versions (the first since replaced
// by the second) and the example bot wall, whose games are stored in the
// arena's tournament and in another one.
type annArena struct {
	d                 *results.DB
	ann               results.Student
	old, cur, example int64
	arena             results.Tournament
}

func newAnnArena(t *testing.T) annArena {
	t.Helper()
	ctx := context.Background()
	d := mustOpenPath(t, filepath.Join(t.TempDir(), "j.db"))
	if a, err := d.Arena(ctx, "tron"); err != nil || len(a.Bots) != 0 || len(a.Games) != 0 {
		t.Fatalf("a game without an arena: %+v %v", a, err)
	}
	// The ladder shows a student's name as the roster writes it.
	ann, _ := d.AddToRoster(ctx, results.Student{Name: "ann-o-neil", Display: "Ann O'Neil"}, results.HashCode("x"))
	bot := func(name, sha string) int64 {
		b, err := d.AddBot(ctx, results.Bot{Game: "tron", Name: name, SHA256: sha, Path: name})
		if err != nil {
			t.Fatal(err)
		}
		return b.ID
	}
	old, cur, example := bot("ann", "v1"), bot("ann", "v2"), bot("wall", "w")
	for i, id := range []int64{old, cur} {
		h, err := d.AddHandIn(ctx, results.HandIn{StudentID: ann.ID, Game: "tron", Kind: "file", Ext: ".py", Content: []byte{byte(i)}}, 0)
		if err == nil {
			err = d.SetCurrent(ctx, h)
		}
		if err == nil {
			err = d.JoinArena(ctx, "tron", id, h.ID)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := d.JoinArena(ctx, "tron", example, 0); err != nil {
		t.Fatal(err)
	}
	at, err := d.ArenaTournament(ctx, "tron")
	if err != nil || !at.Private {
		t.Fatalf("arena tournament %+v %v: want a private one", at, err)
	}
	other, _ := d.EnsureTournament(ctx, "tron", 1, json.RawMessage(`{}`))
	save := func(tour int64, key string, first, second int64) {
		g := results.Game{TournamentID: tour, Key: key, Players: []results.Player{{Seat: 0, BotID: first, Rank: 1}, {Seat: 1, BotID: second, Rank: 2}}}
		if _, err := d.SaveGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	save(at.ID, "1", example, old)
	save(other.ID, "x", cur, example)
	save(at.ID, "2", cur, example)
	if !at.IsArena() || other.IsArena() {
		t.Errorf("IsArena: %v for the arena's tournament, %v for another", at.IsArena(), other.IsArena())
	}
	return annArena{d, ann, old, cur, example, at}
}

// The ladder holds the students' current versions and the active example
// bots, and the arena's games only, in the order played.
func TestArena(t *testing.T) {
	ctx := context.Background()
	x := newAnnArena(t)
	d, ann, old, cur, example := x.d, x.ann, x.old, x.cur, x.example
	a, err := d.Arena(ctx, "tron")
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Bots) != 2 || a.Bots[0].BotID != cur || a.Bots[0].Name != "Ann O'Neil" || a.Bots[0].Example || a.Bots[0].HandIn == 0 || a.Bots[0].At.IsZero() ||
		a.Bots[1].BotID != example || a.Bots[1].Name != "wall" || !a.Bots[1].Example {
		t.Errorf("bots on the ladder %+v, want ann's second version then the example wall", a.Bots)
	}
	if len(a.Games) != 2 || a.Games[0].Seats[1].BotID != old || a.Games[1].Seats[0].BotID != cur {
		t.Errorf("arena games %+v, want the two of the arena in order", a.Games)
	}

	// The same content handed in again is the same bot, now of the new
	// hand-in: it stays on the ladder.
	h3, err := d.AddHandIn(ctx, results.HandIn{StudentID: ann.ID, Game: "tron", Kind: "file", Ext: ".py", Content: []byte{1}}, 0)
	if err == nil {
		err = d.SetCurrent(ctx, h3)
	}
	if err == nil {
		err = d.JoinArena(ctx, "tron", cur, h3.ID)
	}
	if err != nil {
		t.Fatal(err)
	}
	if a, err := d.Arena(ctx, "tron"); err != nil || len(a.Bots) != 2 || a.Bots[0].BotID != cur || a.Bots[0].HandIn != h3.ID {
		t.Errorf("after the same bot handed in again: %+v %v, want it on the ladder as hand-in %d", a.Bots, err, h3.ID)
	}
}

// Every bot that joined the ladder is known, with its student, ann's first
// version too: the games of past versions name them.
func TestArenaJoined(t *testing.T) {
	x := newAnnArena(t)
	a, err := x.d.Arena(context.Background(), "tron")
	if err != nil {
		t.Fatal(err)
	}
	old := a.Joined[x.old]
	if len(a.Joined) != 3 || old.OnLadder || old.Student != x.ann.ID || old.Name != "Ann O'Neil" || old.HandIn == 0 ||
		!a.Joined[x.cur].OnLadder || a.Joined[x.example].Student != 0 || !a.Joined[x.example].OnLadder {
		t.Errorf("joined %+v, want ann's two versions (the first off the ladder) and the example", a.Joined)
	}
}

// Each database has its own key for the arena's pseudonyms, made once and
// kept: the same student keeps their pseudonym after a restart.
func TestPseudonymKey(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	d, err := results.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	key, err := d.PseudonymKey(ctx)
	d.Close()
	if err != nil || len(key) != 32 {
		t.Fatalf("key %x %v, want 32 bytes", key, err)
	}
	d, err = results.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	again, err := d.PseudonymKey(ctx)
	d.Close()
	if err != nil || !bytes.Equal(again, key) {
		t.Errorf("reopened: key %x %v, want %x", again, err, key)
	}
	other := mustOpenPath(t, filepath.Join(t.TempDir(), "other.db"))
	if k, err := other.PseudonymKey(ctx); err != nil || bytes.Equal(k, key) {
		t.Errorf("another database's key %x %v, want another", k, err)
	}
}
