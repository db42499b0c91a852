package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"botjudge/games/fault"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// build compiles the bot at src into a fresh folder and returns the folder.
func build(t *testing.T, d *sandbox.Docker, src string, lim sandbox.BuildLimits) (sandbox.Built, string) {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "built")
	b, err := d.Build(context.Background(), src, dst, lim)
	if err != nil {
		t.Fatal(err)
	}
	return b, dst
}

// TestBuildLanguages builds the example battleships bot of every compiled
// language, and a folder with a build.sh, then plays their first two
// requests as program bots. The build times it logs are the README's.
func TestBuildLanguages(t *testing.T) {
	d := sandboxtest.Docker(t)
	examples := "../submissions/battleships/"
	for _, c := range []struct{ lang, src, staged string }{
		{"C", "sweep.c", "bot.c"},
		{"C++", "rows.cpp", "bot.cpp"},
		{"Java", "Checker.java", "Checker.java"},
		{"OCaml", "backwards.ml", "bot.ml"},
		{"build.sh", "", "bot"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			var bot sandbox.Bot
			if c.src == "" {
				bot = writeBot(t, "bot/", sandbox.ProtocolProgram, map[string]string{
					"build.sh": "gcc -o main cell.c\n",
					"cell.c":   "#include <stdio.h>\nint main(void) { puts(\"{\\\"move\\\":\\\"00\\\"}\"); return 0; }\n",
				})
			} else {
				source, err := os.ReadFile(examples + c.src)
				if err != nil {
					t.Fatal(err)
				}
				bot = writeBot(t, c.staged, sandbox.ProtocolProgram, map[string]string{"": string(source)})
			}
			if !sandbox.Compiled(bot.Path) {
				t.Fatalf("%s is not seen as a compiled bot", bot.Path)
			}
			b, dst := build(t, d, bot.Path, sandbox.DefaultBuildLimits())
			if b.Fault != fault.None {
				t.Fatalf("build: %s %s\n%s", b.Fault, b.Detail, b.Log)
			}
			t.Logf("%s built in %v", c.lang, b.Elapsed.Round(10*time.Millisecond))
			s := start(t, d, sandbox.Bot{Name: bot.Name, Path: dst, Protocol: sandbox.ProtocolProgram}, limits(10*time.Second))
			if c.src != "" {
				if r := ask(t, s, `{"cmd":"init"}`); r.Fault != fault.None || !strings.Contains(string(r.Data), `"5":{"point"`) {
					t.Fatalf("init: got %s %s %s", r.Data, r.Fault, r.Detail)
				}
			}
			r := ask(t, s, `{"cmd":"move","moves":[],"hit":[],"missed":["00","77"],"destroyed":[],"you":0}`)
			if r.Fault != fault.None || !strings.Contains(string(r.Data), `"move"`) {
				t.Fatalf("move: got %s %s %s", r.Data, r.Fault, r.Detail)
			}
		})
	}
}

// TestBuildFaults: each bad build is the bot's fault with one clear line,
// and leaves no program behind.
func TestBuildFaults(t *testing.T) {
	d := sandboxtest.Docker(t)
	small := sandbox.DefaultBuildLimits()
	small.Time = 3 * time.Second
	small.Disk = 8 << 20
	for _, c := range []struct {
		name, file, source, detail string
		logAtMost                  int
	}{
		{"syntax error", "bot.c", "int main(void) { return 0 }\n", "bot.c:1:26: error: expected", 0},
		{"loops", "build.sh", "while :; do :; done\n", "the build took longer than 3s", 0},
		{"fills the disk", "build.sh", "dd if=/dev/zero of=big bs=1M count=64\n", "the build filled its 8 MiB of disk", 0},
		{"prints megabytes", "build.sh", "yes 'error: too much' | head -c 5000000 >&2\nexit 1\n", "error: too much", small.Log + 100},
		{"builds nothing", "build.sh", "rm -rf ./* && true\n", "the build produced nothing", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var bot sandbox.Bot
			if c.file == "build.sh" {
				bot = writeBot(t, "bot/", sandbox.ProtocolProgram, map[string]string{"build.sh": c.source})
			} else {
				bot = writeBot(t, c.file, sandbox.ProtocolProgram, map[string]string{"": c.source})
			}
			b, dst := build(t, d, bot.Path, small)
			if b.Fault != fault.Build || !strings.Contains(b.Detail, c.detail) || strings.Count(strings.TrimSpace(b.Detail), "\n") > 4 {
				t.Fatalf("got %q %q, want the build's fault with %q\nlog:\n%.2000s", b.Fault, b.Detail, c.detail, b.Log)
			}
			if c.logAtMost > 0 && (len(b.Log) > c.logAtMost || !strings.Contains(b.Log, "bytes of log were dropped")) {
				t.Errorf("log of %d bytes, want at most %d with a note of what was dropped", len(b.Log), c.logAtMost)
			}
			if _, err := os.Stat(dst); !os.IsNotExist(err) {
				t.Errorf("a failed build left %s (%v)", dst, err)
			}
		})
	}
	if ids, err := d.Containers(context.Background()); err != nil || len(ids) > 0 {
		t.Errorf("containers left: %v %v", ids, err)
	}
}

// TestBuildCancelled: a judge stopped during a build (Ctrl-C) gets an
// error, not a verdict on the bot, and leaves neither container nor folder.
func TestBuildCancelled(t *testing.T) {
	d := sandboxtest.Docker(t)
	bot := writeBot(t, "bot/", sandbox.ProtocolProgram, map[string]string{"build.sh": "while :; do :; done\n"})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	dst := filepath.Join(t.TempDir(), "built")
	b, err := d.Build(ctx, bot.Path, dst, sandbox.DefaultBuildLimits())
	if err == nil || b.Fault != fault.None {
		t.Fatalf("got %+v, %v; want the judge's error", b, err)
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Errorf("a cancelled build left %s (%v)", dst, err)
	}
	if ids, err := d.Containers(context.Background()); err != nil || len(ids) > 0 {
		t.Errorf("containers left: %v %v", ids, err)
	}
}
