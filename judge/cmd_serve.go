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
	"runtime"
	"slices"
	"strings"
	"time"

	"botjudge/games"
	"botjudge/judge/handin"
	"botjudge/judge/screen"
)

func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	var c common
	addStore(fs, &c)
	addSandbox(fs, &c)
	addr := fs.String("addr", "127.0.0.1:8080", "`address` to listen on (0.0.0.0:8080 to let the class's laptops in)")
	handIn := fs.Bool("hand-in", false, "let the students of the roster (judge roster add) hand in their bots at /hand-in/")
	submissions := fs.String("submissions", "submissions", "`folder` with one subfolder of bots per game (with --hand-in)")
	open := fs.String("games", "", "the games open for hand-in, comma-separated (default: every game folder in --submissions)")
	deadline := fs.String("deadline", "", "no hand-in after this `time`, in this machine's time zone: \"2026-06-01 17:00\"")
	maxUpload := fs.Int64("max-upload", handin.DefaultMaxUpload, "largest hand-in in `bytes`")
	checks := fs.Int("checks", max(1, runtime.NumCPU()/4), "hand-ins checked at once (each check and its sparring games run a few bots; the rest wait their turn)")
	publicLogs := fs.Bool("public-logs", true, "show bots' logs on the public pages (default: off with --hand-in, where a student's log is theirs)")
	cert := fs.String("cert", "", "TLS certificate `file`: serve HTTPS (with --key)")
	key := fs.String("key", "", "TLS key `file`")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("serve takes no arguments")
	}
	if (*cert == "") != (*key == "") {
		return usagef("give both --cert and --key to serve HTTPS")
	}
	logsSet := false
	fs.Visit(func(f *flag.Flag) { logsSet = logsSet || f.Name == "public-logs" })
	if *handIn && !logsSet {
		*publicLogs = false
	}
	var opt handin.Options
	if *handIn {
		if err := c.checkFlags(); err != nil {
			return err
		}
		var err error
		if opt.Deadline, err = parseDeadline(*deadline); err != nil {
			return err
		}
		if opt.Games, err = openGames(*submissions, *open); err != nil {
			return err
		}
		if *maxUpload <= 0 || *checks <= 0 {
			return usagef("--max-upload and --checks take a number above 0")
		}
		opt.Submissions, opt.MaxUpload, opt.Workers, opt.Secure = *submissions, *maxUpload, *checks, *cert != ""
	} else if *deadline != "" || *open != "" {
		return usagef("--deadline and --games are for --hand-in")
	}
	db, err := openStore(c.db, *handIn)
	if err != nil {
		return err
	}
	defer db.Close()
	lg := log.New(stderr, "judge serve: ", log.LstdFlags)
	scrOpt := screen.Options{Log: lg, HideLogs: !*publicLogs}
	var handler http.Handler
	if *handIn {
		run, image, closeRunner, err := c.runner(ctx, stderr)
		if err != nil {
			return err
		}
		defer closeRunner()
		opt.Log = lg
		opt.Checker = &handin.SandboxChecker{Run: run, DB: db, Submissions: *submissions, StageRoot: filepath.Join(filepath.Dir(c.db), "_bots"),
			Limits: c.limits, Budget: c.policy.Budget, Image: image}
		var scr *screen.Server
		hs := handin.New(db, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { scr.ServeHTTP(w, r) }), opt)
		scrOpt.MayRead = hs.MayRead
		scr = screen.New(db, scrOpt)
		clashes, err := hs.Clashes(ctx)
		if err != nil {
			return err
		}
		for _, c := range clashes {
			fmt.Fprintf(stderr, "judge serve: %s\n", c)
		}
		if n, err := hs.EnforceDeadline(ctx); err != nil {
			return err
		} else if n > 0 {
			fmt.Fprintf(stdout, "Put back the last version from before the deadline of %d bots.\n", n)
		}
		qctx, stopChecks := context.WithCancel(ctx)
		checked := make(chan struct{})
		go func() { hs.Run(qctx); close(checked) }()
		defer func() { stopChecks(); <-checked }()
		handler = hs
	} else {
		handler = screen.New(db, scrOpt)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		// No WriteTimeout: the live pages keep an event stream open.
	}
	scheme := "http"
	if *cert != "" {
		scheme = "https"
	}
	fmt.Fprintf(stdout, "Serving %s on %s://%s/ (Ctrl-C to stop)\n", c.db, scheme, ln.Addr())
	if *handIn {
		fmt.Fprintf(stdout, "Hand-in open at %s://%s/hand-in/ for %s", scheme, ln.Addr(), strings.Join(opt.Games, ", "))
		if !opt.Deadline.IsZero() {
			fmt.Fprintf(stdout, " until %s", opt.Deadline.Format("2006-01-02 15:04 MST"))
		}
		fmt.Fprintln(stdout)
	}
	done := make(chan error, 1)
	go func() {
		if *cert != "" {
			done <- srv.ServeTLS(ln, *cert, *key)
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
