package contest

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"botjudge/games"
	"botjudge/games/battleships"
	"botjudge/games/fault"
	"botjudge/sandbox"
	"botjudge/sandbox/httpbot"
	"botjudge/sandbox/httpbot/httpbottest"
)

// TestDiscoverURLBots: a name.url file is a bot of the program games only
// when the organiser allows bots reached by URL; otherwise, and when it
// holds no URL, it gets one line saying why it is skipped and what to do.
func TestDiscoverURLBots(t *testing.T) {
	dir := t.TempDir()
	httpbottest.URLFile(t, dir, "alice", "http://127.0.0.1:8080/bot")
	httpbottest.URLFile(t, dir, "BOB", "\ufeffhttps://user:secret@bots.example.org/bob")
	httpbottest.URLFile(t, dir, "ftp", "ftp://example.org/")
	httpbottest.URLFile(t, dir, "empty", "")
	write(t, filepath.Join(dir, "carol.py"), "print('{}')", 0o644)
	notices := func(ns []Notice) map[string]string {
		m := map[string]string{}
		for _, n := range ns {
			m[filepath.Base(n.Path)] = n.Text
			if strings.Contains(n.Text, "\n") || strings.Contains(n.Text, "secret") {
				t.Errorf("notice %q: more than one line, or a password", n)
			}
		}
		return m
	}
	bad := map[string]string{
		"ftp.url":   `"ftp://example.org/" is not an http:// or https:// URL: a .url file holds one http:// or https:// URL, e.g. http://192.168.1.20:8080/bot: skipped`,
		"empty.url": "it is empty: a .url file holds one http:// or https:// URL",
	}

	es, ns, err := Discover(dir, games.ProtocolProgram, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(es); got != "carol" {
		t.Errorf("without the flag, bots = %q, want carol", got)
	}
	got := notices(ns)
	want := map[string]string{
		"alice.url": "a bot reached by URL (http://127.0.0.1:8080/bot), not sandboxed: skipped; it plays only if the organiser allows it with --allow-url-bots",
		"BOB.url":   "a bot reached by URL (https://user:xxxxx@bots.example.org/bob), not sandboxed: skipped; it plays only if the organiser allows it with --allow-url-bots",
	}
	for k, v := range bad {
		want[k] = v
	}
	if len(got) != len(want) {
		t.Errorf("without the flag, notices = %v, want %d", got, len(want))
	}
	for name, text := range want {
		if !strings.HasPrefix(got[name], text) {
			t.Errorf("without the flag, notice of %s = %q, want %q", name, got[name], text)
		}
	}

	es, ns, err = Discover(dir, games.ProtocolProgram, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(es); got != "BOB,alice,carol" {
		t.Errorf("with the flag, bots = %q, want BOB,alice,carol", got)
	}
	got = notices(ns)
	if len(got) != len(bad) {
		t.Errorf("with the flag, notices = %v, want those of the bad files only", got)
	}
	for name, text := range bad {
		if !strings.HasPrefix(got[name], text) {
			t.Errorf("with the flag, notice of %s = %q, want %q", name, got[name], text)
		}
	}

	// The Python games run ia functions in a sandbox: no URL there.
	es, _, _ = Discover(dir, games.ProtocolIA, true)
	if got := names(es); got != "carol" {
		t.Errorf("a game of ia bots found %q, want carol only", got)
	}
}

// TestCheckURLBot: the check before a tournament judges a bot reached by URL
// like any other, staged as it is played.
func TestCheckURLBot(t *testing.T) {
	dir := t.TempDir()
	good := httpbottest.Serve(t, dir, "good", httpbottest.Battleships())
	broken := httpbottest.Serve(t, dir, "broken", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Fatal error: Uncaught TypeError", http.StatusInternalServerError)
	}))
	es, _, err := Discover(dir, games.ProtocolProgram, true)
	if err != nil || len(es) != 2 {
		t.Fatalf("Discover = %v, %v", es, err)
	}
	lim := sandbox.DefaultLimits()
	lim.Move = time.Second
	for _, e := range es {
		staged, err := Stage(t.TempDir(), e)
		if err != nil {
			t.Fatal(err)
		}
		if !httpbot.ByURL(staged) {
			t.Errorf("staged as %s: no longer a bot reached by URL", staged)
		}
		seat := Seat{Name: e.Name, Bot: sandbox.Bot{Name: e.Name, Path: staged, Protocol: sandbox.ProtocolProgram}}
		res, err := Check(context.Background(), httpbot.New(), battleships.Rules{}, seat, lim, nil)
		if err != nil {
			t.Fatal(err)
		}
		switch e.Source {
		case good:
			if !res.OK {
				t.Errorf("check of the good bot: %+v", res)
			}
		case broken:
			if res.OK || res.Verdict != fault.Error || !strings.Contains(res.Detail, `the server answered 500 Internal Server Error: "Fatal error: Uncaught TypeError\n"`) ||
				!strings.Contains(res.Log, "[judge] error: the server answered 500") {
				t.Errorf("check of the broken bot: %+v", res)
			}
		}
	}
}
