package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"time"

	"botjudge/judge/screen"
)

func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	var c common
	addStore(fs, &c)
	addr := fs.String("addr", "127.0.0.1:8080", "`address` to listen on (0.0.0.0:8080 to let the class's laptops in)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("serve takes no arguments")
	}
	db, err := openStore(c.db, false)
	if err != nil {
		return err
	}
	defer db.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           screen.New(db, screen.Options{Log: log.New(stderr, "judge serve: ", log.LstdFlags)}),
		ReadHeaderTimeout: 10 * time.Second,
		// No WriteTimeout: the live pages keep an event stream open.
	}
	fmt.Fprintf(stdout, "Serving %s on http://%s/ (Ctrl-C to stop)\n", c.db, ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
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
