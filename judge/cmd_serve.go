package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"botjudge/games"
	"botjudge/judge/arena"
	"botjudge/judge/contest"
	"botjudge/judge/handin"
	"botjudge/judge/screen"
	"botjudge/results"
)

// serveFlags are judge serve's flags, parsed.
type serveFlags struct {
	c                                            common
	addr, submissions, open, deadline, cert, key string
	handIn, publicLogs                           bool
	maxUpload, quota                             int64
	checks                                       int
	arena                                        arenaFlag
	arenaGames                                   []string
	arenaParallel                                int
	arenaNames                                   arena.Names
}

func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	sf, err := parseServe(args, stderr)
	if err != nil {
		return err
	}
	opt, err := sf.handInOptions()
	if err != nil {
		return err
	}
	db, err := openStore(sf.c.db, sf.handIn)
	if err != nil {
		return err
	}
	defer db.Close()
	lg := log.New(stderr, "judge serve: ", log.LstdFlags)
	scrOpt := screen.Options{Log: lg, HideLogs: !sf.publicLogs, ArenaNames: sf.arenaNames}
	var handler http.Handler
	if sf.handIn {
		opt.Log = lg
		hs, stop, err := sf.startHandIn(ctx, db, opt, scrOpt, stdout, stderr)
		if err != nil {
			return err
		}
		defer stop()
		handler = hs
	} else {
		handler = screen.New(db, scrOpt)
	}
	ln, err := net.Listen("tcp", sf.addr)
	if err != nil {
		return err
	}
	sf.announce(stdout, ln.Addr(), opt)
	wr := defaultWire(lg)
	return serveUntil(ctx, wr.server(handler), wr.listen(ln), sf.cert, sf.key)
}

// parseServe reads judge serve's flags and checks those that go together.
func parseServe(args []string, stderr io.Writer) (*serveFlags, error) {
	sf := &serveFlags{}
	fs := newFlags("serve", stderr)
	addStore(fs, &sf.c)
	addSandbox(fs, &sf.c)
	fs.StringVar(&sf.addr, "addr", "127.0.0.1:8080", "`address` to listen on (0.0.0.0:8080 to let the class's laptops in)")
	fs.BoolVar(&sf.handIn, "hand-in", false, "let the students of the roster (judge roster add) hand in their bots at /hand-in/")
	fs.StringVar(&sf.submissions, "submissions", contest.DefaultSubmissions, "`folder` with one subfolder of bots per game (with --hand-in)")
	fs.StringVar(&sf.open, "games", "", "the games open for hand-in, comma-separated (default: every game folder in --submissions)")
	fs.StringVar(&sf.deadline, "deadline", "", "no hand-in after this `time`, in this machine's time zone: \"2026-06-01 17:00\"")
	fs.Int64Var(&sf.maxUpload, "max-upload", handin.DefaultMaxUpload, "largest hand-in in `bytes`")
	fs.Int64Var(&sf.quota, "quota", handin.DefaultQuota, "`bytes` of versions each student may store (compressed); past it a hand-in is refused, nothing is deleted")
	fs.IntVar(&sf.checks, "checks", handin.DefaultWorkers(), "hand-ins checked at once (each check and its sparring games run a few bots; the rest wait their turn)")
	fs.BoolVar(&sf.publicLogs, "public-logs", true, "show bots' logs on the public pages (default: off with --hand-in, where a student's log is theirs)")
	fs.Var(&sf.arena, "arena", "with --hand-in: the students' ready bots play a live ladder until the deadline (--arena=GAME,GAME: in those games only)")
	fs.IntVar(&sf.arenaParallel, "arena-parallel", 1, "arena games at once (with --arena)")
	sf.arenaNames = arena.RealNames
	fs.Var(&sf.arenaNames, "arena-names", "how the arena's ladder and replays name the students: `real|pseudonyms` (the example bots keep their names)")
	fs.StringVar(&sf.cert, "cert", "", "TLS certificate `file`: serve HTTPS (with --key)")
	fs.StringVar(&sf.key, "key", "", "TLS key `file`")
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, usagef("serve takes no arguments, got %q", fs.Args())
	}
	if (sf.cert == "") != (sf.key == "") {
		return nil, usagef("give both --cert and --key to serve HTTPS")
	}
	logsSet := false
	fs.Visit(func(f *flag.Flag) { logsSet = logsSet || f.Name == "public-logs" })
	if sf.handIn && !logsSet {
		sf.publicLogs = false
	}
	return sf, nil
}

// handInOptions are the hand-in's options from the flags; flags of the
// hand-in without --hand-in are a usage error.
func (sf *serveFlags) handInOptions() (handin.Options, error) {
	var opt handin.Options
	if !sf.handIn {
		if sf.deadline != "" || sf.open != "" || sf.arena.on {
			return opt, usagef("--deadline, --games and --arena are for --hand-in")
		}
		return opt, nil
	}
	if err := sf.c.checkFlags(); err != nil {
		return opt, err
	}
	if err := sf.c.sandboxedOnly(); err != nil {
		return opt, err
	}
	var err error
	if opt.Deadline, err = parseDeadline(sf.deadline); err != nil {
		return opt, err
	}
	if opt.Games, err = openGames(sf.submissions, sf.open); err != nil {
		return opt, err
	}
	if sf.maxUpload <= 0 || sf.checks <= 0 || sf.quota <= 0 || sf.arenaParallel <= 0 {
		return opt, usagef("--max-upload, --quota, --checks and --arena-parallel take a number above 0")
	}
	if sf.arenaGames, err = sf.arena.arenaGames(opt.Games); err != nil {
		return opt, err
	}
	opt.Submissions, opt.MaxUpload, opt.Workers, opt.Secure = sf.submissions, sf.maxUpload, sf.checks, sf.cert != ""
	opt.Quota, opt.ArenaNames = sf.quota, sf.arenaNames
	return opt, nil
}

// sandboxedOnly refuses, for the hand-in, every way of running bots that
// is not the sandbox: a student's code would run on this machine with the
// organiser's rights, or reach whatever address it names.
func (c *common) sandboxedOnly() error {
	switch {
	case c.sandboxKind != "docker":
		return usagef("--hand-in runs the students' code: it needs --sandbox docker, never --sandbox %s (their code would run on this machine with your rights); try your own bot with judge check --sandbox none", c.sandboxKind)
	case c.urlBots:
		return usagef("--hand-in runs the students' code in the sandbox only: drop --allow-url-bots (bots reached by URL are not sandboxed)")
	}
	return nil
}

// startHandIn opens the hand-in in front of the screen: its checker on the
// sandbox, the roster's clashes said, the deadline enforced on the
// versions handed in, and the queue of checks started. stop ends the
// checks and closes the sandbox.
func (sf *serveFlags) startHandIn(ctx context.Context, db *results.DB, opt handin.Options, scrOpt screen.Options, stdout, stderr io.Writer) (hs *handin.Server, stop func(), err error) {
	run, image, closeRunner, err := sf.c.runner(ctx, stderr)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if err != nil {
			closeRunner()
		}
	}()
	// Checks, sparring and arena games give way to a tournament run beside.
	background := sf.c.limits
	background.Background = true
	checker := &handin.SandboxChecker{Run: run, DB: db, Submissions: sf.submissions, StageRoot: contest.StageRootOf(sf.c.db),
		Limits: background, Policy: sf.c.policy, Image: image, KeepIdle: sf.arena.on}
	opt.Checker = checker
	var scr *screen.Server
	hs = handin.New(db, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { scr.ServeHTTP(w, r) }), opt)
	scrOpt.MayRead, scrOpt.Viewer = hs.MayRead, hs.Viewer
	scr = screen.New(db, scrOpt)
	clashes, err := hs.Clashes(ctx)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range clashes {
		fmt.Fprintf(stderr, "judge serve: %s\n", c)
	}
	if n, err := hs.EnforceDeadline(ctx); err != nil {
		return nil, nil, err
	} else if n > 0 {
		fmt.Fprintf(stdout, "Put back the last version from before the deadline of %d bots.\n", n)
	}
	qctx, stopChecks := context.WithCancel(ctx)
	checked := make(chan struct{})
	go func() { hs.Run(qctx); close(checked) }()
	played := sf.startArena(qctx, hs, checker, opt, opt.Log)
	return hs, func() { stopChecks(); <-checked; played(); closeRunner() }, nil
}

// announce says where the judge serves, and the hand-in's games and
// deadline.
func (sf *serveFlags) announce(stdout io.Writer, addr net.Addr, opt handin.Options) {
	scheme := "http"
	if sf.cert != "" {
		scheme = "https"
	}
	fmt.Fprintf(stdout, "Serving %s on %s://%s/ (Ctrl-C to stop)\n", sf.c.db, scheme, addr)
	if sf.handIn {
		fmt.Fprintf(stdout, "Hand-in open at %s://%s/hand-in/ for %s", scheme, addr, strings.Join(opt.Games, ", "))
		if !opt.Deadline.IsZero() {
			fmt.Fprintf(stdout, " until %s", opt.Deadline.Format("2006-01-02 15:04 MST"))
		}
		fmt.Fprintln(stdout)
	}
}

// serveUntil serves srv on ln, over TLS when given a certificate, until it
// fails or ctx ends; then it shuts the server down.
func serveUntil(ctx context.Context, srv *http.Server, ln net.Listener, cert, key string) error {
	done := make(chan error, 1)
	go func() {
		if cert != "" {
			done <- srv.ServeTLS(ln, cert, key)
			return
		}
		done <- srv.Serve(ln)
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		// Event streams never end on their own: close what does not finish.
		if err := srv.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		srv.Close()
		return nil
	}
}

// parseDeadline reads a date and time in the machine's time zone.
func parseDeadline(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02T15:04:05"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, usagef("--deadline %q: give a date and time, e.g. \"2026-06-01 17:00\" (this machine's time zone)", s)
}

// openGames are the games named, or every game folder in submissions.
func openGames(submissions, named string) ([]string, error) {
	var list []string
	if named != "" {
		for _, n := range strings.Split(named, ",") {
			n = strings.TrimSpace(n)
			if _, ok := games.Lookup(n); !ok {
				return nil, usagef("unknown game %q in --games (known: %s)", n, strings.Join(games.Names(), ", "))
			}
			if !slices.Contains(list, n) {
				list = append(list, n)
			}
		}
		return list, nil
	}
	for _, n := range games.Names() {
		if info, err := os.Stat(filepath.Join(submissions, n)); err == nil && info.IsDir() {
			list = append(list, n)
		}
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("no game folder in %s: create %s/<game>/ (games: %s) or give --submissions", submissions, submissions, strings.Join(games.Names(), ", "))
	}
	return list, nil
}
