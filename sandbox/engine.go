package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/client"
)

// withHost points the client at host, or leaves the environment's choice
// when host is empty.
func withHost(host string) client.Opt {
	if host == "" {
		return func(*client.Client) error { return nil }
	}
	return client.WithHost(host)
}

// Host is the address of this Docker's engine, as the client reaches it.
func (d *Docker) Host() string { return d.cli.DaemonHost() }

// Ping tells whether the engine still answers: how a judge tells an engine
// that went away from a bot that failed.
func (d *Docker) Ping(ctx context.Context) error {
	// An engine shutting down has closed its socket but still answers on
	// the connections kept alive: only a new one tells.
	conn, err := d.cli.Dialer()(ctx)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrEngine, d.Host(), err)
	}
	conn.Close()
	if _, err := d.cli.Ping(ctx); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrEngine, d.Host(), err)
	}
	return nil
}

// Capacity is what the engine's machine offers: its cores and its memory in
// bytes, as the engine itself reports them. A remote engine's machine is not
// the judge's, so the judge's own /proc says nothing about it.
func (d *Docker) Capacity(ctx context.Context) (cores int, memory int64, err error) {
	info, err := d.cli.Info(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("%w: %s: %v", ErrEngine, d.Host(), err)
	}
	return info.NCPU, info.MemTotal, nil
}

// StorageDriver is the driver the engine keeps containers' files with
// (overlay2, fuse-overlayfs, vfs...): every file a bot opens goes through it.
func (d *Docker) StorageDriver(ctx context.Context) (string, error) {
	info, err := d.cli.Info(ctx)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", ErrEngine, d.Host(), err)
	}
	return info.Driver, nil
}

// SendImage gives d's engine the runtime image from src's engine when it
// lacks it, streaming `save` into `load` through the judge: an engine on
// another machine needs no registry and no temporary file. It returns the
// image's ID on d, the same digest as on src since images are addressed by
// content.
func (d *Docker) SendImage(ctx context.Context, src *Docker, progress io.Writer) (string, error) {
	if progress == nil {
		progress = io.Discard
	}
	if id, err := d.imageID(ctx, d.image); id != "" || err != nil {
		return id, err
	}
	fmt.Fprintf(progress, "sending %s from %s to %s\n", d.image, src.Host(), d.Host())
	saved, err := src.cli.ImageSave(ctx, []string{src.image})
	if err != nil {
		return "", fmt.Errorf("sandbox: saving %s from %s: %w", src.image, src.Host(), err)
	}
	defer saved.Close()
	loaded, err := d.cli.ImageLoad(ctx, saved, client.ImageLoadWithQuiet(true))
	if err != nil {
		return "", fmt.Errorf("sandbox: loading %s into %s: %w", src.image, d.Host(), err)
	}
	defer loaded.Body.Close()
	if err := followProgress(loaded.Body, progress); err != nil {
		return "", fmt.Errorf("sandbox: loading %s into %s: %w", src.image, d.Host(), err)
	}
	id, err := d.imageID(ctx, d.image)
	if err == nil && id == "" {
		err = fmt.Errorf("sandbox: %s is missing on %s right after its load", d.image, d.Host())
	}
	return id, err
}

// Clear removes everything of this Docker's owner on its engine: the
// containers a create cancelled half-way left, then the bots' volumes. It
// ends a run; it is also how a judge clears an engine that went away
// mid-run once it is back (a Docker with the same Options.Owner).
func (d *Docker) Clear(ctx context.Context) error {
	ids, err := d.Containers(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, id := range ids {
		if err := d.cli.ContainerRemove(ctx, id, container.RemoveOptions{Force: true}); err != nil && !cerrdefs.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("sandbox: removing container %.12s: %w", id, err))
		}
	}
	return errors.Join(append(errs, d.RemoveVolumes(ctx))...)
}
