package results_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"botjudge/games"
	"botjudge/results"
)

// A move's JSON is what records, exports and live rows have always held:
// the judge's fields among the rules', in this order, and no Unjudged.
func TestMoveJSON(t *testing.T) {
	cpu := 3 * time.Millisecond
	m := results.Move{
		Move: games.Move{Seat: 1, Answer: json.RawMessage(`[1,2]`), Verdict: "timeout", Reason: "too slow",
			Event: json.RawMessage(`{"pass":true}`), Unjudged: true},
		Ply: 4, Detail: "no answer within 1s", Elapsed: time.Second, CPU: &cpu,
	}
	got, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"ply":4,"seat":1,"answer":[1,2],"verdict":"timeout","reason":"too slow","detail":"no answer within 1s",` +
		`"event":{"pass":true},"elapsed_ns":1000000000,"cpu_ns":3000000}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	var back results.Move
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	m.Unjudged = false
	if !reflect.DeepEqual(back, m) {
		t.Errorf("read back %+v, want %+v", back, m)
	}
	if got, _ := json.Marshal(results.Move{}); string(got) != `{"ply":0,"seat":0,"elapsed_ns":0,"cpu_ns":null}` {
		t.Errorf("zero move: %s", got)
	}
}

// FaultDetails has each detail of a tournament's games once, by game, and
// nothing of a game without faults nor of another tournament.
func TestFaultDetails(t *testing.T) {
	d := MustOpen(t)
	a, b := mustBot(t, d, "virus", "a", "sha-a"), mustBot(t, d, "virus", "b", "sha-b")
	tour := mustTournament(t, d, "virus", a, b)
	crash := results.Move{Move: games.Move{Seat: 0, Verdict: "crash"}, Detail: "Traceback: line 3"}
	timeout := results.Move{Move: games.Move{Seat: 1, Verdict: "timeout"}, Detail: "no answer within 1s"}
	clean := results.Move{Move: games.Move{Seat: 0, Answer: json.RawMessage(`[1,2]`)}}
	faulty := mustSave(t, d, duel(tour, "g1", a, b, 2, 1, crash, clean, crash, timeout))
	mustSave(t, d, duel(tour, "g2", a, b, 1, 2, clean))
	other, err := d.EnsureTournament(ctx, "virus", 43, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustSave(t, d, duel(other, "g1", a, b, 2, 1, results.Move{Move: games.Move{Seat: 0, Verdict: "crash"}, Detail: "elsewhere"}))
	got, err := d.FaultDetails(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got[faulty])
	if want := map[int64][]string{faulty: {"Traceback: line 3", "no answer within 1s"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
