package handin

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"botjudge/results"
)

// TestInstallAtomic replaces a student's bot again and again while a reader
// looks at it as a run would: it always finds a whole bot, never none and
// never half of one, whether a file replaces a file or a folder a folder.
func TestInstallAtomic(t *testing.T) {
	dir := t.TempDir()
	big := func(c byte) []byte { return bytes.Repeat([]byte{c}, 256<<10) }
	folder := func(c byte) results.HandIn {
		return results.HandIn{Kind: "folder", Content: packTar([]file{{name: "run.sh", exec: true, data: big(c)}, {name: "lib/x.py", data: []byte("x")}})}
	}
	cases := []struct {
		name    string
		a, b    results.HandIn
		entry   string
		content string
	}{
		{"file", results.HandIn{Kind: "file", Ext: ".py", Content: big('a')}, results.HandIn{Kind: "file", Ext: ".py", Content: big('b')}, "alice.py", ""},
		{"folder", folder('a'), folder('b'), "alice", "run.sh"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			game := filepath.Join(dir, tc.name)
			if err := install(game, "alice", tc.a); err != nil {
				t.Fatal(err)
			}
			var stop atomic.Bool
			var bad atomic.Int32
			var reads atomic.Int32
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for !stop.Load() {
					data, err := os.ReadFile(filepath.Join(game, tc.entry, tc.content))
					reads.Add(1)
					if err != nil || len(data) != 256<<10 || (data[0] != data[len(data)-1]) {
						bad.Add(1)
					}
				}
			}()
			for i := range 200 {
				v := tc.a
				if i%2 == 0 {
					v = tc.b
				}
				if err := install(game, "alice", v); err != nil {
					t.Fatal(err)
				}
			}
			stop.Store(true)
			wg.Wait()
			if n := bad.Load(); n > 0 {
				t.Errorf("%d of %d reads found no bot or half of one", n, reads.Load())
			}
			des, _ := os.ReadDir(game)
			var names []string
			for _, de := range des {
				names = append(names, de.Name())
			}
			if strings.Join(names, " ") != tc.entry {
				t.Errorf("the game folder holds %v", names)
			}
		})
	}
}
