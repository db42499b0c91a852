package results_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"botjudge/games"
	"botjudge/results"
)

// MustOpen opens a fresh results file and closes it when the test ends.
func MustOpen(tb testing.TB) *results.DB {
	tb.Helper()
	return mustOpenPath(tb, filepath.Join(tb.TempDir(), "a", "b", "results.db"))
}

// mustOpenPath opens path, making its folder first: Open itself refuses a
// missing folder.
func mustOpenPath(tb testing.TB, path string) *results.DB {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	d, err := results.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := d.Close(); err != nil {
			tb.Error(err)
		}
	})
	return d
}

var ctx = context.Background()

func mustBot(tb testing.TB, d *results.DB, game, name, sha string) results.Bot {
	tb.Helper()
	b, err := d.AddBot(ctx, results.Bot{Game: game, Name: name, SHA256: sha, Path: "/submissions/" + game + "/" + name})
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func mustTournament(tb testing.TB, d *results.DB, game string, bots ...results.Bot) results.Tournament {
	tb.Helper()
	t, err := d.EnsureTournament(ctx, game, 42, json.RawMessage(`{"rounds":1}`))
	if err != nil {
		tb.Fatal(err)
	}
	ids := make([]int64, len(bots))
	for i, b := range bots {
		ids[i] = b.ID
	}
	if err := d.StartRun(ctx, t.ID, results.Run{BotIDs: ids, Planned: 2 * len(bots) * (len(bots) - 1) / 2, Rounds: 1}); err != nil {
		tb.Fatal(err)
	}
	return t
}

// duel is a finished two-seat game; rank 1 is the winner, equal ranks draw.
func duel(t results.Tournament, key string, a, b results.Bot, rankA, rankB int, moves ...results.Move) results.Game {
	return results.Game{
		TournamentID: t.ID, Key: key, Round: 1, Seed: 7,
		Players: []results.Player{
			{Seat: 0, BotID: a.ID, Rank: rankA, Score: 10, Log: "log of " + a.Name},
			{Seat: 1, BotID: b.ID, Rank: rankB, Score: 3, Log: "log of " + b.Name},
		},
		Reason:   "board full",
		Outcome:  json.RawMessage(fmt.Sprintf(`{"rank":[%d,%d],"reason":"board full"}`, rankA, rankB)),
		Started:  time.Date(2025, 3, 1, 10, 0, 0, 123456789, time.UTC),
		Finished: time.Date(2025, 3, 1, 10, 0, 5, 0, time.UTC),
		Image:    "sha256:abc",
		Limits:   json.RawMessage(`{"move_ms":10000}`),
		Moves:    moves,
	}
}

func mustSave(tb testing.TB, d *results.DB, g results.Game) int64 {
	tb.Helper()
	id, err := d.SaveGame(ctx, g)
	if err != nil {
		tb.Fatal(err)
	}
	return id
}

func TestOpenTwiceMigratesOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "results.db")
	d := mustOpenPath(t, path)
	b := mustBot(t, d, "virus", "alpha", "aa")
	// A second handle on the same file, as another process would have, and a
	// third after the first is closed: migrations must not run again.
	d2 := mustOpenPath(t, path)
	if got, err := d2.AddBot(ctx, results.Bot{Game: "virus", Name: "alpha", SHA256: "aa"}); err != nil || got.ID != b.ID {
		t.Fatalf("second handle: got %+v, %v; want bot %d", got, err, b.ID)
	}
	d.Close()
	d3 := mustOpenPath(t, path)
	if got := mustBot(t, d3, "virus", "alpha", "aa"); got.ID != b.ID {
		t.Fatalf("after reopening: bot id %d, want %d", got.ID, b.ID)
	}

	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var versions, maxVersion int
	if err := raw.QueryRow(`SELECT count(*), max(version) FROM schema_version`).Scan(&versions, &maxVersion); err != nil {
		t.Fatal(err)
	}
	migrations, err := filepath.Glob("migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	// Numbers may have gaps while migrations of parallel work are merged:
	// the last is the highest file's.
	last := 0
	for _, m := range migrations {
		n, _ := strconv.Atoi(strings.SplitN(filepath.Base(m), "_", 2)[0])
		last = max(last, n)
	}
	if versions != len(migrations) || maxVersion != last {
		t.Errorf("schema_version has %d rows up to %d, want %d up to %d", versions, maxVersion, len(migrations), last)
	}
	var mode string
	if err := raw.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal mode %q (%v), want wal", mode, err)
	}
}

// A mistyped --db must not scatter databases: Open makes the file, never
// its folder, and OpenExisting makes nothing.
func TestOpenMakesNoFolderAndExistingNoFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := results.Open(filepath.Join(dir, "no", "such", "j.db")); err == nil {
		t.Error("Open made a database in a missing folder")
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); !os.IsNotExist(err) {
		t.Errorf("Open made the folder: %v", err)
	}
	path := filepath.Join(dir, "j.db")
	if _, err := results.OpenExisting(path); !errors.Is(err, results.ErrNoDatabase) {
		t.Errorf("OpenExisting of a missing file: %v, want ErrNoDatabase", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("OpenExisting made the file: %v", err)
	}
	mustOpenPath(t, path).Close()
	d, err := results.OpenExisting(path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
}

// A database of the first schema, whose settings held the rounds and the
// scheme, keeps them as the tournament's run settings.
func TestMigrateRunSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile("migrations/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied INTEGER NOT NULL)`,
		string(first),
		`INSERT INTO schema_version VALUES (1, '0001_init.sql', 0)`,
		`INSERT INTO tournaments (game, seed, settings, created) VALUES ('virus', 1, '{"rounds":2,"scheme":"3-1-0","limits":{}}', 0)`,
	} {
		if _, err := raw.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	d := mustOpenPath(t, path)
	ts, err := d.Tournaments(ctx)
	if err != nil || len(ts) != 1 || ts[0].Rounds != 2 || ts[0].Scheme != results.Scheme310 {
		t.Errorf("migrated tournaments %+v (%v), want 2 rounds of 3-1-0", ts, err)
	}
}

func TestOpenFolderWithQuestionMark(t *testing.T) {
	path := filepath.Join(t.TempDir(), "what?#dir", "results.db")
	d := mustOpenPath(t, path)
	mustBot(t, d, "virus", "alpha", "aa")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the file is not where it was asked: %v", err)
	}
}

func TestAddBot(t *testing.T) {
	d := MustOpen(t)
	added := time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)
	a, err := d.AddBot(ctx, results.Bot{Game: "virus", Name: "alpha", SHA256: "aa", Path: "/x/alpha.py", Added: added})
	if err != nil {
		t.Fatal(err)
	}
	// The path is kept relative to the submissions folder.
	want := results.Bot{ID: a.ID, Game: "virus", Name: "alpha", SHA256: "aa", Path: "virus/alpha.py", Added: added}
	if a != want {
		t.Errorf("got %+v, want %+v", a, want)
	}
	again, err := d.AddBot(ctx, results.Bot{Game: "virus", Name: "alpha", SHA256: "aa", Path: "/elsewhere"})
	if err != nil || again != want {
		t.Errorf("same version again: got %+v, %v; want the existing row %+v", again, err, want)
	}
	for _, b := range []results.Bot{
		{Game: "virus", Name: "alpha", SHA256: "bb"},
		{Game: "virus", Name: "beta", SHA256: "aa"},
		{Game: "battleships", Name: "alpha", SHA256: "aa"},
	} {
		got, err := d.AddBot(ctx, b)
		if err != nil || got.ID == a.ID {
			t.Errorf("%+v: got id %d, %v; want a new version", b, got.ID, err)
		}
	}
	if _, err := d.AddBot(ctx, results.Bot{Game: "virus", Name: "nohash"}); err == nil {
		t.Error("a bot without sha256 was accepted")
	}
}

// A bot's path reads relative to the submissions folder, whatever the row
// holds: what judge run gave (submissions/virus/alice.py, or the whole path
// of a --submissions folder), and the whole paths earlier judges stored.
func TestBotPathIsRelative(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.db")
	d := mustOpenPath(t, path)
	for _, p := range []string{"submissions/virus/alice.py", "/home/teacher/contest/submissions/virus/bob.py", "/srv/subs/virus/carol"} {
		b, err := d.AddBot(ctx, results.Bot{Game: "virus", Name: filepath.Base(p), SHA256: p, Path: p})
		if want := "virus/" + filepath.Base(p); err != nil || b.Path != want {
			t.Errorf("%s: path %q (%v), want %q", p, b.Path, err, want)
		}
	}
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var stored string
	if err := raw.QueryRow(`SELECT path FROM bots WHERE name = 'bob.py'`).Scan(&stored); err != nil || stored != "virus/bob.py" {
		t.Errorf("the database holds %q (%v), want virus/bob.py", stored, err)
	}
	// A row of an earlier judge.
	if _, err := raw.Exec(`INSERT INTO bots (game, name, sha256, path, added) VALUES ('virus', 'dave', 'dd', '/home/teacher/submissions/virus/dave.py', 0)`); err != nil {
		t.Fatal(err)
	}
	old, err := d.AddBot(ctx, results.Bot{Game: "virus", Name: "dave", SHA256: "dd", Path: "elsewhere/dave.py"})
	if err != nil || old.Path != "virus/dave.py" {
		t.Errorf("an earlier judge's row reads %q (%v), want virus/dave.py", old.Path, err)
	}
	tour, err := d.EnsureTournament(ctx, "virus", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.StartRun(ctx, tour.ID, results.Run{BotIDs: []int64{old.ID}, Planned: 1, Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	entries, err := d.Entries(ctx, tour.ID)
	if err != nil || len(entries) != 1 || entries[0].Bot.Path != "virus/dave.py" {
		t.Errorf("the entries read %+v (%v), want virus/dave.py", entries, err)
	}
}

func TestTournaments(t *testing.T) {
	d := MustOpen(t)
	a, err := d.EnsureTournament(ctx, "virus", 1, json.RawMessage(`{"rounds": 1, "scheme": "1-0.5-0"}`))
	if err != nil {
		t.Fatal(err)
	}
	same, err := d.EnsureTournament(ctx, "virus", 1, json.RawMessage("{\"rounds\":1,\n\"scheme\":\"1-0.5-0\"}"))
	if err != nil || same.ID != a.ID {
		t.Errorf("same settings in other spacing: id %d (%v), want %d", same.ID, err, a.ID)
	}
	if string(a.Settings) != `{"rounds":1,"scheme":"1-0.5-0"}` {
		t.Errorf("settings %s", a.Settings)
	}
	b, err := d.EnsureTournament(ctx, "virus", 2, json.RawMessage(`{"rounds":1,"scheme":"1-0.5-0"}`))
	if err != nil || b.ID == a.ID {
		t.Errorf("other seed: id %d (%v), want a new tournament", b.ID, err)
	}
	c, err := d.EnsureTournament(ctx, "virus", 1, json.RawMessage(`{"rounds":2,"scheme":"1-0.5-0"}`))
	if err != nil || c.ID == a.ID || c.ID == b.ID {
		t.Errorf("other settings: id %d (%v), want a new tournament", c.ID, err)
	}
	if _, err := d.EnsureTournament(ctx, "virus", 1, json.RawMessage(`{"rounds":`)); err == nil {
		t.Error("invalid settings accepted")
	}

	list, err := d.Tournaments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, x := range list {
		ids = append(ids, x.ID)
	}
	if want := []int64{c.ID, b.ID, a.ID}; !reflect.DeepEqual(ids, want) {
		t.Errorf("tournaments %v, want newest first %v", ids, want)
	}
	if _, err := d.Tournament(ctx, 999); !errors.Is(err, results.ErrNotFound) {
		t.Errorf("missing tournament: %v, want ErrNotFound", err)
	}
}

func TestEntriesAndRuns(t *testing.T) {
	d := MustOpen(t)
	a1 := mustBot(t, d, "virus", "alpha", "a1")
	a2 := mustBot(t, d, "virus", "alpha", "a2")
	b := mustBot(t, d, "virus", "beta", "b1")
	other := mustBot(t, d, "battleships", "gamma", "g1")
	tour, err := d.EnsureTournament(ctx, "virus", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !tour.Started.IsZero() || tour.Planned != 0 {
		t.Errorf("new tournament %+v has a run", tour)
	}
	for name, ids := range map[string][]int64{
		"two versions of one name": {a1.ID, a2.ID},
		"a bot of another game":    {a1.ID, other.ID},
		"an unknown bot":           {a1.ID, 999},
	} {
		if err := d.StartRun(ctx, tour.ID, results.Run{BotIDs: ids, Planned: 2, Rounds: 1}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := d.StartRun(ctx, 999, results.Run{}); !errors.Is(err, results.ErrNotFound) {
		t.Errorf("unknown tournament: %v, want ErrNotFound", err)
	}

	if err := d.StartRun(ctx, tour.ID, results.Run{BotIDs: []int64{b.ID, a1.ID}, Planned: 2, Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	if err := d.SaveCheck(ctx, results.Check{BotID: a1.ID, OK: false, Verdict: "timeout", Detail: "no answer in 10s"}); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2025, 5, 5, 5, 5, 5, 0, time.UTC)
	if err := d.SaveCheck(ctx, results.Check{BotID: a1.ID, OK: true, Log: "hello", At: at}); err != nil {
		t.Fatal(err)
	}
	entries, err := d.Entries(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []results.Entry{
		{Bot: a1, Check: results.Check{BotID: a1.ID, OK: true, Log: "hello", At: at}},
		{Bot: b},
	}
	if !reflect.DeepEqual(entries, want) {
		t.Errorf("entries\n got %+v\nwant %+v", entries, want)
	}
	if ids, err := d.EntryIDs(ctx, tour.ID); err != nil || !slices.Equal(ids, []int64{a1.ID, b.ID}) {
		t.Errorf("entry ids %v (%v), want those of the entries, %d and %d", ids, err, a1.ID, b.ID)
	}

	got, err := d.Tournament(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Planned != 2 || got.Started.IsZero() || !got.Finished.IsZero() {
		t.Errorf("running tournament %+v: want planned 2, started, not finished", got)
	}
	if err := d.FinishRun(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ = d.Tournament(ctx, tour.ID); got.Finished.Before(got.Started) {
		t.Errorf("finished run %+v: finished before started", got)
	}
	// A new run with a new version replaces the entries and reopens the run.
	if err := d.StartRun(ctx, tour.ID, results.Run{BotIDs: []int64{a2.ID, b.ID}, Planned: 4, Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	if got, _ = d.Tournament(ctx, tour.ID); got.Planned != 4 || !got.Finished.IsZero() {
		t.Errorf("second run %+v: want planned 4, not finished", got)
	}
	if entries, _ = d.Entries(ctx, tour.ID); len(entries) != 2 || entries[0].Bot != a2 || entries[0].Check != (results.Check{}) {
		t.Errorf("entries of the second run: %+v", entries)
	}
	if err := d.FinishRun(ctx, 999); !errors.Is(err, results.ErrNotFound) {
		t.Errorf("finish unknown tournament: %v, want ErrNotFound", err)
	}
}

func TestSaveGameRoundTripAndDuplicate(t *testing.T) {
	d := MustOpen(t)
	a := mustBot(t, d, "virus", "alpha", "aa")
	b := mustBot(t, d, "virus", "beta", "bb")
	tour := mustTournament(t, d, "virus", a, b)
	cpu := 1200 * time.Microsecond
	moves := []results.Move{
		{Ply: 0, Move: games.Move{Seat: 0, Answer: json.RawMessage(`[1,2]`), Event: json.RawMessage(`{"flipped":3}`)}, Elapsed: 1500 * time.Microsecond, CPU: &cpu},
		// Charged its wall time: a bot reached by URL.
		{Ply: 1, Move: games.Move{Seat: 1, Verdict: "timeout", Reason: "no answer"}, Detail: "10s", Elapsed: 10 * time.Second},
		{Ply: 2, Move: games.Move{Seat: 0, Answer: json.RawMessage(`"x"`), Verdict: "malformed", Reason: "not a move"}},
		{Ply: 3, Move: games.Move{Seat: 1, Verdict: "oom"}, Detail: "killed"},
		{Ply: 3, Move: games.Move{Seat: 0, Verdict: "illegal", Answer: json.RawMessage(`[9,9]`)}},
		{Ply: 4, Move: games.Move{Seat: 1, Verdict: "crash"}},
	}
	g := duel(tour, "k1", a, b, 1, 2, moves...)
	g.Players[0].Restarts = 1
	if err := d.PutLive(ctx, results.Live{TournamentID: tour.ID, Key: "k1"}); err != nil {
		t.Fatal(err)
	}
	id := mustSave(t, d, g)

	got, err := d.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := g
	want.ID = id
	dur := func(d time.Duration) *time.Duration { return &d }
	want.Players = []results.Player{
		{Seat: 0, BotID: a.ID, Name: "alpha", SHA256: "aa", Rank: 1, Score: 10, Faults: 2, Illegal: 2, Log: "log of alpha", Restarts: 1,
			Charged: dur(cpu), Wall: dur(1500 * time.Microsecond)},
		{Seat: 1, BotID: b.ID, Name: "beta", SHA256: "bb", Rank: 2, Score: 3, Faults: 3, Timeouts: 1, Crashes: 2, Log: "log of beta",
			Charged: dur(10 * time.Second), Wall: dur(10 * time.Second)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Game(%d)\n got %+v\nwant %+v", id, got, want)
	}
	if live, _ := d.Live(ctx, tour.ID); len(live) != 0 {
		t.Errorf("live row left after SaveGame: %+v", live)
	}

	// Same key, other content: refused, and the stored game is untouched.
	other := duel(tour, "k1", b, a, 1, 2)
	if _, err := d.SaveGame(ctx, other); !errors.Is(err, results.ErrDuplicate) {
		t.Fatalf("duplicate key: %v, want ErrDuplicate", err)
	}
	if got, _ := d.Game(ctx, id); !reflect.DeepEqual(got, want) {
		t.Errorf("after the duplicate the game changed:\n got %+v\nwant %+v", got, want)
	}
	list, err := d.Games(ctx, tour.ID, results.GameFilter{})
	if err != nil || len(list) != 1 {
		t.Fatalf("games after the duplicate: %d (%v), want 1", len(list), err)
	}
	// Lists carry neither moves nor logs.
	wantListed := want
	wantListed.Moves = nil
	wantListed.Players = append([]results.Player(nil), want.Players...)
	for i := range wantListed.Players {
		wantListed.Players[i].Log = ""
	}
	if !reflect.DeepEqual(list[0], wantListed) {
		t.Errorf("listed game\n got %+v\nwant %+v", list[0], wantListed)
	}
	keys, err := d.PlayedKeys(ctx, tour.ID)
	if err != nil || !reflect.DeepEqual(keys, map[string]bool{"k1": true}) {
		t.Errorf("played keys %v (%v)", keys, err)
	}
	if _, err := d.Game(ctx, 999); !errors.Is(err, results.ErrNotFound) {
		t.Errorf("missing game: %v, want ErrNotFound", err)
	}
}

func TestSaveGameRefusesBadRecords(t *testing.T) {
	d := MustOpen(t)
	a := mustBot(t, d, "virus", "alpha", "aa")
	b := mustBot(t, d, "virus", "beta", "bb")
	tour := mustTournament(t, d, "virus", a, b)
	cases := map[string]func(*results.Game){
		"no key":          func(g *results.Game) { g.Key = "" },
		"no players":      func(g *results.Game) { g.Players = nil },
		"seats swapped":   func(g *results.Game) { g.Players[0].Seat, g.Players[1].Seat = 1, 0 },
		"bad outcome":     func(g *results.Game) { g.Outcome = json.RawMessage(`{`) },
		"move seat":       func(g *results.Game) { g.Moves = []results.Move{{Move: games.Move{Seat: 2}}} },
		"bad answer":      func(g *results.Game) { g.Moves = []results.Move{{Move: games.Move{Answer: json.RawMessage(`nope`)}}} },
		"unknown bot":     func(g *results.Game) { g.Players[1].BotID = 999 },
		"unknown tourney": func(g *results.Game) { g.TournamentID = 999 },
	}
	for name, spoil := range cases {
		g := duel(tour, "k-"+name, a, b, 1, 2, results.Move{Move: games.Move{Seat: 0, Answer: json.RawMessage(`1`)}})
		spoil(&g)
		if _, err := d.SaveGame(ctx, g); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if keys, _ := d.PlayedKeys(ctx, tour.ID); len(keys) != 0 {
		t.Errorf("refused games left keys %v", keys)
	}
}

func TestGamesOfCurrentEntriesOnly(t *testing.T) {
	d := MustOpen(t)
	a1 := mustBot(t, d, "virus", "alpha", "a1")
	b := mustBot(t, d, "virus", "beta", "bb")
	c := mustBot(t, d, "virus", "gamma", "cc")
	tour := mustTournament(t, d, "virus", a1, b, c)
	mustSave(t, d, duel(tour, "a1-b", a1, b, 1, 2))
	mustSave(t, d, duel(tour, "a1-c", a1, c, 1, 2))
	mustSave(t, d, duel(tour, "b-c", b, c, 1, 2))
	mustSave(t, d, duel(tour, "c-b", c, b, 1, 1))

	if st := mustStandings(t, d, tour); st[0].Bot.ID != a1.ID || st[0].Points != 2 {
		t.Fatalf("first run: %s leads with %v points, want alpha with 2", st[0].Bot.Name, st[0].Points)
	}

	// alpha is changed: its old games leave the lists and the standings, but
	// their keys stay played.
	a2 := mustBot(t, d, "virus", "alpha", "a2")
	if err := d.StartRun(ctx, tour.ID, results.Run{BotIDs: []int64{a2.ID, b.ID, c.ID}, Planned: 6, Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	list, err := d.Games(ctx, tour.ID, results.GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if got := gameKeys(list); !reflect.DeepEqual(got, []string{"b-c", "c-b"}) {
		t.Errorf("games %v, want the old version's games excluded", got)
	}
	st := mustStandings(t, d, tour)
	byName := map[string]results.Standing{}
	for _, s := range st {
		byName[s.Bot.Name] = s
	}
	if s := byName["alpha"]; s.Bot.ID != a2.ID || s.Games != 0 || s.Points != 0 {
		t.Errorf("new alpha %+v: want no games yet", s)
	}
	if s := byName["beta"]; s.Games != 2 || s.Points != 1.5 || s.Rank != 1 {
		t.Errorf("beta %+v: want 2 games, 1.5 points, first", s)
	}
	if keys, _ := d.PlayedKeys(ctx, tour.ID); len(keys) != 4 {
		t.Errorf("played keys %v, want all 4", keys)
	}

	mustSave(t, d, duel(tour, "a2-b", a2, b, 2, 1))
	if got := gameKeys(mustGames(t, d, tour, results.GameFilter{BotID: a2.ID})); !reflect.DeepEqual(got, []string{"a2-b"}) {
		t.Errorf("games of alpha: %v", got)
	}
	if got := gameKeys(mustGames(t, d, tour, results.GameFilter{BotID: c.ID, Opponent: b.ID})); !reflect.DeepEqual(got, []string{"b-c", "c-b"}) {
		t.Errorf("games of gamma against beta: %v", got)
	}
	if got := gameKeys(mustGames(t, d, tour, results.GameFilter{BotID: c.ID, Opponent: a2.ID})); len(got) != 0 {
		t.Errorf("games of gamma against alpha: %v, want none", got)
	}
	// Entering the old version again brings its games back.
	if err := d.StartRun(ctx, tour.ID, results.Run{BotIDs: []int64{a1.ID, b.ID, c.ID}, Planned: 6, Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	if got := gameKeys(mustGames(t, d, tour, results.GameFilter{BotID: a1.ID})); !reflect.DeepEqual(got, []string{"a1-b", "a1-c"}) {
		t.Errorf("games of the old alpha entered again: %v", got)
	}
	if got, err := d.EnteredHashes(ctx); err != nil || !reflect.DeepEqual(got, map[string]bool{"a1": true, "bb": true, "cc": true}) {
		t.Errorf("entered hashes %v (%v), want the current entries'", got, err)
	}
}

// Games of rounds beyond the latest run's are kept but not counted: a run
// with fewer rounds than the last shows the games of its own rounds.
func TestRoundsBeyondTheRunNotCounted(t *testing.T) {
	d := MustOpen(t)
	a := mustBot(t, d, "virus", "alpha", "aa")
	b := mustBot(t, d, "virus", "beta", "bb")
	tour := mustTournament(t, d, "virus", a, b)
	mustSave(t, d, duel(tour, "r1", a, b, 1, 2))
	second := duel(tour, "r2", a, b, 2, 1)
	second.Round = 2
	mustSave(t, d, second)
	for _, c := range []struct {
		rounds      int
		games       int
		alphaPoints float64
	}{{1, 1, 1}, {2, 2, 1}, {0, 2, 1}} {
		if err := d.StartRun(ctx, tour.ID, results.Run{BotIDs: []int64{a.ID, b.ID}, Rounds: c.rounds}); err != nil {
			t.Fatal(err)
		}
		st := mustStandings(t, d, tour)
		if len(mustGames(t, d, tour, results.GameFilter{})) != c.games || st[0].Games != c.games {
			t.Errorf("%d rounds: %d games listed, %d counted; want %d", c.rounds, len(mustGames(t, d, tour, results.GameFilter{})), st[0].Games, c.games)
		}
	}
	// The latest run's scheme is the default one.
	if err := d.StartRun(ctx, tour.ID, results.Run{BotIDs: []int64{a.ID, b.ID}, Rounds: 1, Scheme: results.Scheme310}); err != nil {
		t.Fatal(err)
	}
	if st, err := d.Standings(ctx, tour.ID, ""); err != nil || st[0].Points != 3 {
		t.Errorf("standings with the run's 3-1-0 scheme: %+v %v", st, err)
	}
	if err := d.StartRun(ctx, tour.ID, results.Run{Scheme: "2-1-0"}); err == nil {
		t.Error("a run with an unknown scheme was accepted")
	}
}

func mustStandings(tb testing.TB, d *results.DB, tour results.Tournament) []results.Standing {
	tb.Helper()
	st, err := d.Standings(ctx, tour.ID, results.SchemeDefault)
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

func mustGames(tb testing.TB, d *results.DB, tour results.Tournament, f results.GameFilter) []results.Game {
	tb.Helper()
	list, err := d.Games(ctx, tour.ID, f)
	if err != nil {
		tb.Fatal(err)
	}
	return list
}

func gameKeys(list []results.Game) []string {
	var keys []string
	for _, g := range list {
		keys = append(keys, g.Key)
	}
	return keys
}

func TestStandingsRefusesUnknownScheme(t *testing.T) {
	d := MustOpen(t)
	tour := mustTournament(t, d, "virus")
	if _, err := d.Standings(ctx, tour.ID, "2-1-0"); err == nil {
		t.Error("scheme 2-1-0 accepted")
	}
	if st, err := d.Standings(ctx, tour.ID, ""); err != nil || len(st) != 0 {
		t.Errorf("empty tournament: %v, %v", st, err)
	}
}

func TestLive(t *testing.T) {
	d := MustOpen(t)
	a := mustBot(t, d, "virus", "alpha", "aa")
	b := mustBot(t, d, "virus", "beta", "bb")
	tour := mustTournament(t, d, "virus", a, b)
	other, err := d.EnsureTournament(ctx, "virus", 99, nil)
	if err != nil {
		t.Fatal(err)
	}
	players := []results.Player{{Seat: 0, BotID: a.ID, Name: "alpha"}, {Seat: 1, BotID: b.ID, Name: "beta"}}
	at := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	put := func(l results.Live) {
		t.Helper()
		if err := d.PutLive(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	put(results.Live{TournamentID: tour.ID, Key: "g2", Players: players, Last: []results.Move{}, Updated: at})
	put(results.Live{TournamentID: tour.ID, Key: "g1", Players: players, Moves: 1, Last: []results.Move{{Move: games.Move{Seat: 0, Answer: json.RawMessage(`1`)}}},
		View: json.RawMessage(`{"board":"."}`), Scores: []int{1, 0}, Updated: at})
	// The game advances: its row is replaced, not added, and keeps the last
	// step only.
	g1 := results.Live{TournamentID: tour.ID, Key: "g1", Players: players, Moves: 3,
		Last: []results.Move{{Ply: 2, Move: games.Move{Seat: 0, Answer: json.RawMessage(`2`)}}, {Ply: 2, Move: games.Move{Seat: 1, Answer: json.RawMessage(`3`)}}},
		View: json.RawMessage(`{"board":"x"}`), Scores: []int{2, 1}, Updated: at.Add(time.Second)}
	put(g1)
	put(results.Live{TournamentID: other.ID, Key: "g1", Players: players, Updated: at})
	if err := d.PutLive(ctx, results.Live{TournamentID: tour.ID, Key: "bad", View: json.RawMessage(`{`)}); err == nil {
		t.Error("a live row with invalid view JSON was accepted")
	}

	live, err := d.Live(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []results.Live{g1, {TournamentID: tour.ID, Key: "g2", Players: players, Last: []results.Move{}, Updated: at}}
	if !reflect.DeepEqual(live, want) {
		t.Errorf("live\n got %+v\nwant %+v", live, want)
	}

	mustSave(t, d, duel(tour, "g1", a, b, 1, 2))
	if live, _ = d.Live(ctx, tour.ID); len(live) != 1 || live[0].Key != "g2" {
		t.Errorf("after g1 was saved: %+v, want only g2", live)
	}
	if err := d.ClearLive(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	if live, _ = d.Live(ctx, tour.ID); len(live) != 0 {
		t.Errorf("after ClearLive: %+v", live)
	}
	if live, _ = d.Live(ctx, other.ID); len(live) != 1 {
		t.Errorf("ClearLive touched another tournament: %+v", live)
	}
}

func TestFailures(t *testing.T) {
	d := MustOpen(t)
	tour := mustTournament(t, d, "virus")
	other := mustTournament(t, d, "battleships")
	before := time.Now().Add(-time.Second)
	for _, f := range []struct{ key, msg string }{{"k2", "docker: connection refused"}, {"k1", "no space left on device"}} {
		if err := d.RecordFailure(ctx, tour.ID, f.key, f.msg); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.RecordFailure(ctx, other.ID, "k9", "elsewhere"); err != nil {
		t.Fatal(err)
	}
	list, err := d.Failures(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Key != "k2" || list[0].Message != "docker: connection refused" || list[1].Key != "k1" {
		t.Fatalf("failures %+v, want k2 then k1", list)
	}
	if list[0].At.Before(before) || list[0].At.After(time.Now()) {
		t.Errorf("failure time %v is not now", list[0].At)
	}
	if keys, _ := d.PlayedKeys(ctx, tour.ID); len(keys) != 0 {
		t.Errorf("a failure made a game played: %v", keys)
	}
}

// TestConcurrentWriters is the judge playing several games at once: every
// SaveGame must wait for the others instead of failing with SQLITE_BUSY.
func TestConcurrentWriters(t *testing.T) {
	d := MustOpen(t)
	a := mustBot(t, d, "virus", "alpha", "aa")
	b := mustBot(t, d, "virus", "beta", "bb")
	tour := mustTournament(t, d, "virus", a, b)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for w := range 4 {
		wg.Go(func() {
			for k := range 10 {
				if _, err := d.SaveGame(ctx, duel(tour, fmt.Sprintf("w%d-%d", w, k), a, b, 1, 2)); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if keys, _ := d.PlayedKeys(ctx, tour.ID); len(keys) != 40 {
		t.Errorf("%d games stored, want 40", len(keys))
	}
}

// TestConcurrentReaderWhileWriting runs the writer in another process, as
// `judge run` beside `judge serve`, and checks the reader never sees half a
// game nor an error.
func TestConcurrentReaderWhileWriting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.db")
	d := mustOpenPath(t, path)
	a := mustBot(t, d, "virus", "alpha", "aa")
	b := mustBot(t, d, "virus", "beta", "bb")
	tour := mustTournament(t, d, "virus", a, b)

	cmd := exec.Command(os.Args[0], "-test.run=^TestWriterProcess$")
	cmd.Env = append(os.Environ(), "RESULTS_WRITER_DB="+path, "RESULTS_WRITER_TOURNAMENT="+strconv.FormatInt(tour.ID, 10))
	out := make(chan error, 1)
	var output []byte
	go func() {
		var err error
		output, err = cmd.CombinedOutput()
		out <- err
	}()
	seen, reads := 0, 0
	for done := false; !done; {
		select {
		case err := <-out:
			if err != nil {
				t.Fatalf("writer: %v\n%s", err, output)
			}
			done = true
		default:
		}
		list, err := d.Games(ctx, tour.ID, results.GameFilter{})
		if err != nil {
			t.Fatalf("reading while writing: %v", err)
		}
		reads++
		if len(list) < seen {
			t.Fatalf("games went from %d to %d", seen, len(list))
		}
		seen = len(list)
		for _, g := range list {
			if len(g.Players) != 2 {
				t.Fatalf("game %s has %d players", g.Key, len(g.Players))
			}
		}
		if seen > 0 {
			g, err := d.Game(ctx, list[seen-1].ID)
			if err != nil || len(g.Moves) != writerMoves {
				t.Fatalf("latest game: %d moves (%v), want %d", len(g.Moves), err, writerMoves)
			}
		}
		if _, err := d.Standings(ctx, tour.ID, results.SchemeDefault); err != nil {
			t.Fatalf("standings while writing: %v", err)
		}
	}
	if seen != writerGames {
		t.Errorf("reader saw %d games at the end, want %d", seen, writerGames)
	}
	t.Logf("%d reads while the other process wrote", reads)
}

const writerGames, writerMoves = 30, 40

// TestWriterProcess is the writing process of TestConcurrentReaderWhileWriting.
func TestWriterProcess(t *testing.T) {
	path := os.Getenv("RESULTS_WRITER_DB")
	if path == "" {
		t.Skip("only run as the writer of TestConcurrentReaderWhileWriting")
	}
	tid, err := strconv.ParseInt(os.Getenv("RESULTS_WRITER_TOURNAMENT"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	d := mustOpenPath(t, path)
	entries, err := d.Entries(ctx, tid)
	if err != nil || len(entries) != 2 {
		t.Fatalf("entries %v, %v", entries, err)
	}
	tour := results.Tournament{ID: tid}
	moves := make([]results.Move, writerMoves)
	for i := range moves {
		moves[i] = results.Move{Ply: i, Move: games.Move{Seat: i % 2, Answer: json.RawMessage(strconv.Itoa(i))}}
	}
	for k := range writerGames {
		mustSave(t, d, duel(tour, fmt.Sprintf("g%02d", k), entries[0].Bot, entries[1].Bot, 1+k%2, 2-k%2, moves...))
		time.Sleep(5 * time.Millisecond)
	}
}

// A database from before CPU time was measured opens, and its games read
// with their wall-clock times and no CPU (unknown, not zero).
func TestMigrateCPUTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{`CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied INTEGER NOT NULL)`}
	for i, name := range []string{"0001_init.sql", "0002_run_settings.sql", "0003_live_last_step.sql"} {
		script, err := os.ReadFile("migrations/" + name)
		if err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, string(script), fmt.Sprintf(`INSERT INTO schema_version VALUES (%d, '%s', 0)`, i+1, name))
	}
	stmts = append(stmts,
		`INSERT INTO bots (id, game, name, sha256, path, added) VALUES (1, 'virus', 'alpha', 'aa', 'virus/alpha.py', 0), (2, 'virus', 'beta', 'bb', 'virus/beta.py', 0)`,
		`INSERT INTO tournaments (id, game, seed, settings, created) VALUES (1, 'virus', 1, '{}', 0)`,
		`INSERT INTO entries (tournament_id, bot_id) VALUES (1, 1), (1, 2)`,
		`INSERT INTO games (id, tournament_id, key, round, seed, reason, image) VALUES (1, 1, 'k', 1, 1, 'board full', '')`,
		`INSERT INTO players (game_id, seat, bot_id, rank, score, timeouts, crashes, illegal, restarts) VALUES (1, 0, 1, 1, 2, 0, 0, 0, 0), (1, 1, 2, 2, 1, 0, 0, 0, 0)`,
		`INSERT INTO moves (game_id, n, ply, seat, verdict, reason, detail, elapsed) VALUES (1, 0, 0, 0, '', '', '', 2500000)`,
	)
	for _, stmt := range stmts {
		if _, err := raw.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	raw.Close()
	d := mustOpenPath(t, path)
	g, err := d.Game(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Moves) != 1 || g.Moves[0].CPU != nil || g.Moves[0].Elapsed != 2500*time.Microsecond || g.Moves[0].Charged() != 2500*time.Microsecond {
		t.Errorf("old moves %+v: want 2.5 ms of wall time, charged, and no CPU", g.Moves)
	}
	for _, p := range g.Players {
		if p.Charged != nil || p.Wall != nil {
			t.Errorf("old player %+v: want no times", p)
		}
	}
}
