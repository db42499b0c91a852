package results_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"botjudge/results"
)

func TestRosterAndVersions(t *testing.T) {
	ctx := context.Background()
	d := mustOpenPath(t, filepath.Join(t.TempDir(), "j.db"))
	alice, err := d.AddStudent(ctx, "alice", results.HashCode("CODE"), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.AddStudent(ctx, "Alice", results.HashCode("OTHER"), false); !errors.Is(err, results.ErrTaken) {
		t.Errorf("the same name in another case: %v, want ErrTaken", err)
	}
	if _, err := d.LogIn(ctx, "ALICE", results.HashCode("CODE")); err != nil {
		t.Errorf("log-in whatever the case of the name: %v", err)
	}
	if _, err := d.LogIn(ctx, "alice", results.HashCode("WRONG")); !errors.Is(err, results.ErrNotFound) {
		t.Errorf("a wrong code: %v", err)
	}
	if err := d.SetCode(ctx, "alice", results.HashCode("NEW")); err != nil {
		t.Fatal(err)
	}
	if _, err := d.LogIn(ctx, "alice", results.HashCode("CODE")); !errors.Is(err, results.ErrNotFound) {
		t.Error("the old code still logs in after a reset")
	}
	if err := d.SetCode(ctx, "nobody", "x"); !errors.Is(err, results.ErrNotFound) {
		t.Errorf("resetting a name not on the roster: %v", err)
	}
	at := time.Now()
	v1, err := d.AddHandIn(ctx, results.HandIn{StudentID: alice.ID, Game: "virus", At: at, Kind: "file", Ext: ".py", Content: []byte("one")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	v2, _ := d.AddHandIn(ctx, results.HandIn{StudentID: alice.ID, Game: "virus", At: at.Add(time.Second), Kind: "file", Ext: ".py", Content: []byte("two")}, 0)
	if err := d.SetCurrent(ctx, v2); err != nil {
		t.Fatal(err)
	}
	list, err := d.HandIns(ctx, alice.ID, "virus")
	if err != nil || len(list) != 2 || list[0].ID != v2.ID || !list[0].Current || list[1].Current || list[0].Status != results.StatusStored {
		t.Fatalf("versions: %+v, %v", list, err)
	}
	if err := d.SetStatus(ctx, v1.ID, results.StatusDone, json.RawMessage(`{"ready":true}`)); err != nil {
		t.Fatal(err)
	}
	h, err := d.HandIn(ctx, v1.ID)
	if err != nil || string(h.Content) != "one" || h.Status != results.StatusDone || string(h.Report) != `{"ready":true}` || h.Student != "alice" {
		t.Errorf("version 1: %+v %v", h, err)
	}
	if cur, err := d.Current(ctx, alice.ID, "virus"); err != nil || cur.ID != v2.ID {
		t.Errorf("current: %+v %v", cur, err)
	}

	// Sparring games go to a private tournament: not listed, and owned.
	tour, err := d.PrivateTournament(ctx, "virus", json.RawMessage(`{"sparring":true}`))
	if err != nil || !tour.Private {
		t.Fatalf("private tournament: %+v %v", tour, err)
	}
	b, _ := d.AddBot(ctx, results.Bot{Game: "virus", Name: "alice", SHA256: "s", Path: "alice.py"})
	id, err := d.SaveSparring(ctx, v1.ID, results.Game{TournamentID: tour.ID, Key: "k", Players: []results.Player{{Seat: 0, BotID: b.ID, Rank: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if owner, ok, err := d.GameOwner(ctx, id); err != nil || !ok || owner != alice.ID {
		t.Errorf("owner of the sparring game: %d %v %v", owner, ok, err)
	}
	ts, err := d.Tournaments(ctx)
	if err != nil || len(ts) != 0 {
		t.Errorf("tournaments listed: %+v (the private one must not be)", ts)
	}
}

// TestHandInCompactAndQuota: a version of 16 MiB of zeros (a 16 KB zip's
// folder) is stored in far less and read back byte for byte; a student's
// versions are bounded in stored bytes, and the one past the quota is
// refused without deleting any.
func TestHandInCompactAndQuota(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	d := mustOpenPath(t, path)
	alice, _ := d.AddStudent(ctx, "alice", results.HashCode("CODE"), false)
	const quota = 1 << 20
	zeros := make([]byte, 16<<20)
	v, err := d.AddHandIn(ctx, results.HandIn{StudentID: alice.ID, Game: "virus", Kind: "folder", Content: zeros}, quota)
	if err != nil {
		t.Fatalf("16 MiB of zeros under a 1 MiB quota: %v", err)
	}
	noise := make([]byte, 600<<10)
	rand.Read(noise)
	if _, err := d.AddHandIn(ctx, results.HandIn{StudentID: alice.ID, Game: "virus", Kind: "file", Ext: ".py", Content: noise}, quota); err != nil {
		t.Fatal(err)
	}
	_, err = d.AddHandIn(ctx, results.HandIn{StudentID: alice.ID, Game: "virus", Kind: "file", Ext: ".py", Content: noise}, quota)
	var full *results.ErrQuota
	if !errors.As(err, &full) || full.Quota != quota || full.Used < 600<<10 {
		t.Errorf("past the quota: %v, want an ErrQuota", err)
	}
	list, _ := d.HandIns(ctx, alice.ID, "")
	if len(list) != 2 || list[1].Size != 16<<20 {
		t.Fatalf("versions after a refusal: %+v", list)
	}
	h, err := d.HandIn(ctx, v.ID)
	if err != nil || !bytes.Equal(h.Content, zeros) {
		t.Errorf("the 16 MiB version read back: %d bytes, %v", len(h.Content), err)
	}
	d.Close()
	if info, err := os.Stat(path); err != nil || info.Size() > 4<<20 {
		t.Errorf("the database holds 16.6 MiB of versions in %d bytes", info.Size())
	}
}
