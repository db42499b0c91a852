package gamestest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"testing"

	"botjudge/games"
	"botjudge/games/fault"
)

// Transcript writes a played game as text for a golden file: for every step
// the requests (>), the answers (<, !kind for a fault) and the moves (=),
// then the outcome, the final view and its board.
func Transcript(tb testing.TB, r games.Rules, s games.State, steps []Step) []byte {
	tb.Helper()
	var b bytes.Buffer
	for i, st := range steps {
		fmt.Fprintf(&b, "step %d\n", i+1)
		for j, req := range st.Requests {
			if req != nil {
				fmt.Fprintf(&b, "> %s\n", req)
			}
			if a := st.Answers[j]; a.Fault != fault.None {
				fmt.Fprintf(&b, "< !%s %s\n", a.Fault, a.Detail)
			} else {
				fmt.Fprintf(&b, "< %s\n", a.Data)
			}
		}
		for _, m := range st.Moves {
			fmt.Fprintf(&b, "= %s\n", mustJSON(tb, m))
		}
	}
	fmt.Fprintf(&b, "outcome %s\n", mustJSON(tb, s.Outcome()))
	fmt.Fprintf(&b, "view %s\n", s.View())
	board, err := games.Board(r, s.View())
	if err != nil {
		tb.Fatal(err)
	}
	b.WriteString(board)
	return b.Bytes()
}

// Update is the -update flag of the games' tests, which rewrites their
// golden files.
var Update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Golden compares got with the file at path, or rewrites the file under
// -update.
func Golden(tb testing.TB, path string, got []byte) {
	tb.Helper()
	if *Update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		tb.Errorf("%s differs from the game played now (go test -update rewrites it):\n%s", path, got)
	}
}

func mustJSON(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
