package sandbox

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/api/types/volume"
)

// LabelContent is the sha256 of the tar a bot's volume was filled from.
const LabelContent = "botjudge.content"

// volumes are the bots' volumes a Docker filled, one per bot version: a
// bot plays many games, its files are sent to the engine once.
type volumes struct {
	mu   sync.Mutex
	fill map[string]*filling // by volume name
	// known are the volumes of bot paths by what a walk of their files
	// sees (names, sizes, times, modes): a bot that did not change is not
	// read and hashed again at each of its games.
	known map[string]knownBot
}

type knownBot struct {
	stamp string
	vol   string
}

type filling struct {
	done chan struct{}
	err  error
}

// botMount is the read-only mount of the bot at path, whose folder dir holds
// it in the container (dir/<its base name>). The bot travels to the engine
// through the API, as a tar copied into a volume: no path of the judge's
// machine is mounted, so the engine may be on another machine.
func (d *Docker) botMount(ctx context.Context, name, path, dir string) (mount.Mount, error) {
	src, err := filepath.Abs(path)
	if err != nil {
		return mount.Mount{}, err
	}
	mnt := func(vol string) mount.Mount {
		return mount.Mount{Type: mount.TypeVolume, Source: vol, Target: dir, ReadOnly: true,
			VolumeOptions: &mount.VolumeOptions{NoCopy: true}}
	}
	stamp, err := stampBot(src)
	if err != nil {
		return mount.Mount{}, fmt.Errorf("sandbox: bot %s: %w", name, err)
	}
	d.vols.mu.Lock()
	k, ok := d.vols.known[src]
	d.vols.mu.Unlock()
	if ok && k.stamp == stamp {
		return mnt(k.vol), nil
	}
	archive, err := tarBot(src)
	if err != nil {
		return mount.Mount{}, fmt.Errorf("sandbox: bot %s: %w", name, err)
	}
	sum := sha256.Sum256(archive)
	content := hex.EncodeToString(sum[:])
	// Per judge: the reaper and the end of a run remove a judge's volumes
	// without asking who else might mount them.
	vol := "botjudge-bot-" + shortHash(d.owner+content)
	if err := d.fillOnce(ctx, vol, name, content, archive); err != nil {
		return mount.Mount{}, err
	}
	d.vols.mu.Lock()
	if d.vols.known == nil {
		d.vols.known = map[string]knownBot{}
	}
	d.vols.known[src] = knownBot{stamp: stamp, vol: vol}
	d.vols.mu.Unlock()
	return mnt(vol), nil
}

// stampBot describes the bot's files without reading them: it changes when
// one is written, added, removed or renamed.
func stampBot(src string) (string, error) {
	var b strings.Builder
	err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%q %d %d %v\n", p, info.Size(), info.ModTime().UnixNano(), info.Mode())
		return nil
	})
	return b.String(), err
}

// fillOnce fills vol unless this Docker already did; games starting the same
// bot at once wait for the same filling.
func (d *Docker) fillOnce(ctx context.Context, vol, name, content string, archive []byte) error {
	d.vols.mu.Lock()
	if d.vols.fill == nil {
		d.vols.fill = map[string]*filling{}
	}
	f, ok := d.vols.fill[vol]
	if !ok {
		f = &filling{done: make(chan struct{})}
		d.vols.fill[vol] = f
	}
	d.vols.mu.Unlock()
	if !ok {
		// The filling outlives one caller's cancellation: others wait on it.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*cleanupTimeout)
		f.err = d.fillVolume(fctx, vol, name, content, archive)
		cancel()
		if f.err != nil {
			// Forget a failure: the next game tries again.
			d.vols.mu.Lock()
			delete(d.vols.fill, vol)
			d.vols.mu.Unlock()
		}
		close(f.done)
	}
	select {
	case <-f.done:
		return f.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// fillVolume creates vol and copies archive into it through a helper
// container that is created, never started, and removed.
func (d *Docker) fillVolume(ctx context.Context, vol, name, content string, archive []byte) (err error) {
	labels := map[string]string{LabelBot: name, LabelContent: content}
	for k, v := range d.labels {
		labels[k] = v
	}
	if _, err := d.cli.VolumeCreate(ctx, volume.CreateOptions{Name: vol, Labels: labels}); err != nil {
		return fmt.Errorf("sandbox: creating the volume of %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			d.cli.VolumeRemove(context.WithoutCancel(ctx), vol, true)
		}
	}()
	helper, err := d.cli.ContainerCreate(ctx, &container.Config{
		Image: d.image, Cmd: []string{"/bin/true"}, Labels: labels, NetworkDisabled: true,
	}, &container.HostConfig{
		NetworkMode: "none",
		LogConfig:   container.LogConfig{Type: "none"},
		Mounts:      []mount.Mount{{Type: mount.TypeVolume, Source: vol, Target: "/fill", VolumeOptions: &mount.VolumeOptions{NoCopy: true}}},
	}, nil, nil, "")
	if err != nil {
		if cerrdefs.IsNotFound(err) {
			return fmt.Errorf("%w: %s: run `make image` (%v)", ErrImageMissing, d.image, err)
		}
		return fmt.Errorf("sandbox: creating the container filling the volume of %s: %w", name, err)
	}
	defer func() {
		rerr := d.cli.ContainerRemove(context.WithoutCancel(ctx), helper.ID, container.RemoveOptions{Force: true})
		if rerr != nil && !cerrdefs.IsNotFound(rerr) && err == nil {
			err = fmt.Errorf("sandbox: removing container %.12s: %w", helper.ID, rerr)
		}
	}()
	if err := d.cli.CopyToContainer(ctx, helper.ID, "/fill", bytes.NewReader(archive), container.CopyToContainerOptions{}); err != nil {
		return fmt.Errorf("sandbox: copying %s into its volume: %w", name, err)
	}
	return nil
}

// epoch is every file's time in a bot's tar, so that the same files give
// the same tar, hence the same volume.
var epoch = time.Unix(0, 0)

// tarBot is the bot's file or folder at src as a tar holding it under its
// base name, owned by root with its own permissions: what a read-only bind
// mount of it showed.
func tarBot(src string) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	parent := filepath.Dir(src)
	err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(parent, p)
		if err != nil {
			return err
		}
		link := ""
		if info.Mode()&fs.ModeSymlink != 0 {
			if link, err = os.Readlink(p); err != nil {
				return err
			}
		}
		h, err := tar.FileInfoHeader(info, link)
		if err != nil {
			return err
		}
		h.Name = filepath.ToSlash(rel)
		if info.IsDir() {
			h.Name += "/"
		}
		h.Uid, h.Gid, h.Uname, h.Gname = 0, 0, "", ""
		h.ModTime, h.AccessTime, h.ChangeTime = epoch, time.Time{}, time.Time{}
		h.Format = tar.FormatPAX
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		return copyFile(tw, p)
	})
	if err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// RemoveVolumes removes the bots' volumes this Docker filled: at the end of
// a run, once its containers are gone.
func (d *Docker) RemoveVolumes(ctx context.Context) error {
	vols, err := d.VolumesLabelled(ctx, LabelOwner, d.owner)
	if err != nil {
		return err
	}
	var errs []error
	for _, v := range vols {
		if err := d.cli.VolumeRemove(ctx, v, true); err != nil && !cerrdefs.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("sandbox: removing volume %s: %w", v, err))
		}
	}
	d.vols.mu.Lock()
	d.vols.fill, d.vols.known = nil, nil
	d.vols.mu.Unlock()
	return errors.Join(errs...)
}

// VolumesLabelled lists the names of the volumes that carry label=value.
func (d *Docker) VolumesLabelled(ctx context.Context, label, value string) ([]string, error) {
	list, err := d.cli.VolumeList(ctx, volume.ListOptions{Filters: filters.NewArgs(filters.Arg("label", label+"="+value))})
	if err != nil {
		return nil, fmt.Errorf("sandbox: listing volumes: %w", err)
	}
	names := make([]string, 0, len(list.Volumes))
	for _, v := range list.Volumes {
		names = append(names, v.Name)
	}
	return names, nil
}

// reapVolumes removes the volumes of judges that died, as Reap does their
// containers (which must go first: a volume in use cannot be removed).
func (d *Docker) reapVolumes(ctx context.Context) error {
	list, err := d.cli.VolumeList(ctx, volume.ListOptions{Filters: filters.NewArgs(filters.Arg("label", LabelJudge+"=1"))})
	if err != nil {
		return fmt.Errorf("sandbox: listing volumes: %w", err)
	}
	var errs []error
	for _, v := range list.Volumes {
		l := v.Labels
		if l[LabelOwner] == d.owner || l[LabelHost] != d.host || ownerAlive(l[LabelPID], l[LabelStart]) {
			continue
		}
		if err := d.cli.VolumeRemove(ctx, v.Name, true); err != nil && !cerrdefs.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("sandbox: removing volume %s: %w", v.Name, err))
		}
	}
	return errors.Join(errs...)
}

// copyFile copies the file at path to w.
func copyFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}
