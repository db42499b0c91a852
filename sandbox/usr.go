package sandbox

import (
	"context"
	"fmt"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/api/types/volume"
)

// LabelUsr is on the volumes that hold a copy of an image's /usr, naming
// its source (see usrSource); the runtime image carries it too.
const LabelUsr = "botjudge.usr"

// usrWait bounds how long a judge waits for another judge that is filling
// the same volume.
const usrWait = 5 * time.Minute

// usrMount mounts the volume name at /usr, read-only. Every program a bot
// runs (its interpreter, compiler, libraries; /bin and /lib are links into
// /usr on Debian) is read from /usr, and through an overlay on a FUSE
// storage driver (fuse-overlayfs) every file it opens is a round trip to a
// process of the engine: starting Python took twice as long in a container
// as on the host, Node.js three times. A volume is a plain folder of the
// engine's machine, bound in: read-only, shared by every container of the
// image, and copied once per image.
func usrMount(name string) mount.Mount {
	return mount.Mount{Type: mount.TypeVolume, Source: name, Target: "/usr", ReadOnly: true,
		VolumeOptions: &mount.VolumeOptions{NoCopy: true}}
}

// usr is the volume holding this Docker's image's /usr, filled the first
// time any judge needs it on this engine.
func (d *Docker) usr(ctx context.Context) (string, error) {
	d.usrMu.Lock()
	defer d.usrMu.Unlock()
	if d.usrName != "" {
		return d.usrName, nil
	}
	id, err := d.usrSource(ctx)
	if err != nil {
		return "", err
	}
	name := "botjudge-usr-" + shortHash(id)
	// The volume is complete once this one exists: a judge that died in
	// the middle of the copy leaves a volume without it.
	done := name + "-done"
	deadline := time.Now().Add(usrWait)
	for {
		_, err := d.cli.VolumeInspect(ctx, done)
		if err == nil {
			d.usrName = name
			return name, nil
		}
		if !cerrdefs.IsNotFound(err) {
			return "", fmt.Errorf("sandbox: inspecting volume %s: %w", done, err)
		}
		err = d.cli.VolumeRemove(ctx, name, true)
		if err == nil || cerrdefs.IsNotFound(err) {
			break
		}
		// In use: another judge is filling it.
		if !cerrdefs.IsConflict(err) || time.Now().After(deadline) {
			return "", fmt.Errorf("sandbox: removing the unfinished volume %s: %w", name, err)
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(time.Second):
		}
	}
	if err := d.fillUsr(ctx, id, name); err != nil {
		return "", err
	}
	if _, err := d.cli.VolumeCreate(ctx, volume.CreateOptions{Name: done, Labels: map[string]string{LabelUsr: id}}); err != nil {
		return "", fmt.Errorf("sandbox: creating volume %s: %w", done, err)
	}
	d.pruneUsr(ctx, id)
	d.usrName = name
	return name, nil
}

// fillUsr copies the image's /usr into the new volume name: the engine
// does it when a container that mounts an empty volume is created.
func (d *Docker) fillUsr(ctx context.Context, id, name string) error {
	if _, err := d.cli.VolumeCreate(ctx, volume.CreateOptions{Name: name, Labels: map[string]string{LabelUsr: id}}); err != nil {
		return fmt.Errorf("sandbox: creating volume %s: %w", name, err)
	}
	cfg := &container.Config{Image: d.image, Cmd: []string{"true"}, Labels: d.labels, NetworkDisabled: true}
	host := &container.HostConfig{NetworkMode: "none", Mounts: []mount.Mount{{Type: mount.TypeVolume, Source: name, Target: "/usr"}}}
	// As for a bot's container: a create cancelled half-way must not leave
	// a container nobody knows of.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), usrWait)
	created, err := d.cli.ContainerCreate(cctx, cfg, host, nil, nil, "")
	cancel()
	if err != nil {
		return fmt.Errorf("sandbox: copying /usr of %s into volume %s: %w", d.image, name, err)
	}
	return kill(ctx, &box{cli: d.cli, id: created.ID, ended: make(chan struct{})})
}

// usrSource names what the image's /usr is a copy of: its base image, as
// its label says, so that a new harness does not copy /usr again; an image
// built before the label, by its own ID.
func (d *Docker) usrSource(ctx context.Context) (string, error) {
	info, err := d.cli.ImageInspect(ctx, d.image)
	switch {
	case cerrdefs.IsNotFound(err):
		return "", fmt.Errorf("%w: %s: run `make image`", ErrImageMissing, d.image)
	case err != nil:
		return "", fmt.Errorf("sandbox: inspecting image %s: %w", d.image, err)
	}
	if info.Config != nil && info.Config.Labels[LabelUsr] != "" {
		return info.Config.Labels[LabelUsr], nil
	}
	return info.ID, nil
}

// pruneUsr removes the copies of /usr whose source image is gone from the
// engine. A copy whose image is still there may serve another judge (an
// older build's `judge check` beside this run): removing it between two of
// its containers would have the engine mount an empty volume of that name
// in the next. A copy still in use stays until a later run, and its marker
// goes only after it, so that no judge ever trusts a marker without its copy.
func (d *Docker) pruneUsr(ctx context.Context, keep string) {
	list, err := d.cli.VolumeList(ctx, volume.ListOptions{Filters: filters.NewArgs(filters.Arg("label", LabelUsr))})
	if err != nil {
		return
	}
	for _, v := range list.Volumes {
		src := v.Labels[LabelUsr]
		if src == keep || strings.HasSuffix(v.Name, "-done") {
			continue
		}
		if id, err := d.imageID(ctx, src); id != "" || err != nil {
			continue
		}
		if d.cli.VolumeRemove(ctx, v.Name, false) == nil {
			_ = d.cli.VolumeRemove(ctx, v.Name+"-done", false)
		}
	}
}
