package results_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
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
	v1, err := d.AddHandIn(ctx, results.HandIn{StudentID: alice.ID, Game: "virus", At: at, Kind: "file", Ext: ".py", Content: []byte("one")})
	if err != nil {
		t.Fatal(err)
	}
	v2, _ := d.AddHandIn(ctx, results.HandIn{StudentID: alice.ID, Game: "virus", At: at.Add(time.Second), Kind: "file", Ext: ".py", Content: []byte("two")})
	if err := d.SetCurrent(ctx, v2); err != nil {
		t.Fatal(err)
	}
	list, err := d.HandIns(ctx, alice.ID, "virus")
	if err != nil || len(list) != 2 || list[0].ID != v2.ID || !list[0].Current || list[1].Current || list[0].Status != results.StatusQueued {
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

// A roster from before display names keeps working: each name is its own
// display name, and its bot keeps its file name.
func TestMigrateDisplayNames(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{`CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied INTEGER NOT NULL)`}
	for v := 1; v <= 6; v++ {
		files, _ := filepath.Glob(fmt.Sprintf("migrations/%04d_*.sql", v))
		script, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, string(script), fmt.Sprintf(`INSERT INTO schema_version VALUES (%d, '%s', 0)`, v, filepath.Base(files[0])))
	}
	stmts = append(stmts, `INSERT INTO students (name, code, organiser, added) VALUES ('Zoé', 'h', 0, 0), ('bob_2', 'h2', 0, 0)`,
		`INSERT INTO handins (student_id, game, at, kind, ext, content, sha256, status) VALUES (1, 'virus', 0, 'file', '.py', 'x', 's', 'done')`)
	for _, stmt := range stmts {
		if _, err := raw.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	d := mustOpenPath(t, path)
	sts, err := d.Students(ctx)
	if err != nil || len(sts) != 2 || sts[0].Name != "bob_2" || sts[0].Display != "bob_2" || sts[1].Name != "Zoé" || sts[1].Display != "Zoé" {
		t.Errorf("the roster after the migration: %+v %v", sts, err)
	}
	if st, err := d.LogIn(ctx, "zoé", "h"); err != nil || st.Display != "Zoé" {
		t.Errorf("Zoé logs in as before: %+v %v", st, err)
	}
	if hs, err := d.HandIns(ctx, 0, ""); err != nil || len(hs) != 1 || hs[0].Student != "Zoé" || hs[0].Display != "Zoé" {
		t.Errorf("Zoé's version: %+v %v", hs, err)
	}
	added, err := d.AddToRoster(ctx, results.Student{Name: "zoe-martin", Display: "Zoé Martin"}, "h3")
	if err != nil {
		t.Fatal(err)
	}
	if st, err := d.StudentNamed(ctx, "ZOE-MARTIN"); err != nil || st.ID != added.ID || st.Display != "Zoé Martin" {
		t.Errorf("StudentNamed: %+v %v", st, err)
	}
	if _, err := d.AddToRoster(ctx, results.Student{Name: "Zoe-Martin", Display: "Zoe Martin"}, "h4"); !errors.Is(err, results.ErrTaken) {
		t.Errorf("a second zoe-martin: %v, want ErrTaken", err)
	}
}
