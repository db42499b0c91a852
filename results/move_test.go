package results_test

import (
	"encoding/json"
	"reflect"
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
