// Package httpbottest serves bots reached by URL for tests, with no Docker:
// a real HTTP server on 127.0.0.1 and the .url file naming it.
package httpbottest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// Serve serves h on 127.0.0.1 until the test ends and writes dir/name.url
// naming it; it returns the file's path.
func Serve(tb testing.TB, dir, name string, h http.Handler) string {
	tb.Helper()
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	return URLFile(tb, dir, name, srv.URL+"/bot")
}

// URLFile writes dir/name.url holding content and returns its path.
func URLFile(tb testing.TB, dir, name, content string) string {
	tb.Helper()
	path := filepath.Join(dir, name+".url")
	if err := os.WriteFile(path, []byte(content+"\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// Battleships is a BrainJar battleships bot (SPEC §2) that also checks the
// judge's side of the exchange: a POST of JSON. Its fleet fills the first
// columns of rows 0 to 3; it shoots every cell in turn, column by column,
// skipping those it already shot.
func Battleships() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Cmd    string   `json:"cmd"`
			Hit    []string `json:"hit"`
			Missed []string `json:"missed"`
		}
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "want a POST of application/json", http.StatusBadRequest)
			return
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if req.Cmd == "init" {
			fmt.Fprint(w, `{"2":{"point":"00","orientation":"horizontal"},"3":{"point":"01","orientation":"horizontal"},`+
				`"4":{"point":"02","orientation":"horizontal"},"5":{"point":"03","orientation":"horizontal"}}`)
			return
		}
		shot := map[string]bool{}
		for _, c := range append(req.Hit, req.Missed...) {
			shot[c] = true
		}
		for c := range 8 {
			for r := range 8 {
				if cell := fmt.Sprintf("%d%d", c, r); !shot[cell] {
					fmt.Fprintf(w, `{"move":%q}`, cell)
					return
				}
			}
		}
		http.Error(w, "every cell is shot", http.StatusConflict)
	})
}
