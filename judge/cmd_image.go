package main

import (
	"context"
	"fmt"
	"io"

	"botjudge/sandbox"
)

func cmdImage(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("image", stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("image takes no arguments, got %q", fs.Args())
	}
	d, err := sandbox.NewDocker(ctx, dockerOptions())
	if err != nil {
		return err
	}
	defer d.Close()
	progress := newImageLog(stderr)
	digest, err := d.EnsureImage(ctx, progress, true)
	progress.done(err)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "runtime image ready: %s\n", digest)
	return nil
}
