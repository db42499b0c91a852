package sandbox

import (
	"archive/tar"
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/docker/docker/api/types/image"
)

// importBase builds the base image's root filesystem with debootstrap in a
// temporary folder and streams it to the engine as a tar. The folder goes
// away on every path out, cancellation included.
func (d *Docker) importBase(ctx context.Context, progress io.Writer) (err error) {
	if os.Geteuid() != 0 {
		return fmt.Errorf("%w: it needs root (run `make image` as root once)", errNoDebootstrap)
	}
	bin, err := findDebootstrap(ctx, progress)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "botjudge-rootfs-")
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, removeRootfs(dir)) }()
	// A folder of its own, because MkdirTemp's mode 0700 would become
	// the mode of the image's /.
	root := filepath.Join(dir, "rootfs")
	src := os.Getenv(mirrorEnv)
	if src == "" {
		src = mirror
	}
	cmd := exec.CommandContext(ctx, bin, "--variant=minbase", "--include="+packages, suite, root, src)
	cmd.Stdout, cmd.Stderr = progress, progress
	// Cancelling must stop debootstrap's children (dpkg in the chroot) too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("debootstrap: %w", err)
	}
	if left, err := mountsUnder(dir); err != nil || len(left) > 0 {
		return errors.Join(err, fmt.Errorf("debootstrap left mounts in %s: %v", dir, left))
	}
	for _, pattern := range slimmed {
		matches, _ := filepath.Glob(filepath.Join(root, pattern))
		for _, m := range matches {
			if err := os.RemoveAll(m); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(progress, "importing %s\n", BaseImage)
	return d.importTree(ctx, root, progress)
}

// findDebootstrap finds debootstrap, installing it from Debian's packages
// when it is missing: on a machine with only Go, gcc and Docker the
// README's two commands must still build the image.
func findDebootstrap(ctx context.Context, progress io.Writer) (string, error) {
	if bin, err := exec.LookPath("debootstrap"); err == nil {
		return bin, nil
	}
	apt, err := exec.LookPath("apt-get")
	if err != nil {
		return "", fmt.Errorf("%w: it is not installed and there is no apt-get to install it: install debootstrap", errNoDebootstrap)
	}
	fmt.Fprintln(progress, "installing debootstrap from Debian's packages")
	install := []string{"install", "-y", "-q", "--no-install-recommends", "debootstrap"}
	// A fresh machine may have no package lists yet: update only then.
	for _, args := range [][]string{install, {"update", "-q"}, install} {
		cmd := exec.CommandContext(ctx, apt, args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		cmd.Stdout, cmd.Stderr = progress, progress
		if cmd.Run() == nil && args[0] == "install" {
			break
		}
	}
	bin, err := exec.LookPath("debootstrap")
	if err != nil {
		return "", fmt.Errorf("%w: `apt-get install debootstrap` failed (see above): install debootstrap", errNoDebootstrap)
	}
	return bin, nil
}

// importTree streams the folder root as a tar into a new image.
func (d *Docker) importTree(ctx context.Context, root string, progress io.Writer) error {
	pr, pw := io.Pipe()
	written := make(chan error, 1)
	go func() {
		err := writeTree(pw, root)
		pw.CloseWithError(err)
		written <- err
	}()
	body, err := d.cli.ImageImport(ctx, image.ImportSource{Source: pr, SourceName: "-"}, BaseImage, image.ImportOptions{
		Message: "botjudge base: debootstrap " + suite + " with " + packages,
		Changes: []string{"ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
	})
	if err == nil {
		err = followProgress(body, progress)
		body.Close()
	}
	// Unblock the writer if the engine stopped reading, and wait for it:
	// the folder is removed after this returns.
	pr.CloseWithError(errors.New("import ended"))
	if werr := <-written; err == nil {
		err = werr
	}
	return err
}

// writeTree writes root as a tar with numeric owners, modes, symlinks and
// hard links. The contents of /dev, /proc and /sys are the engine's job.
func writeTree(w io.Writer, root string) error {
	tw := tar.NewWriter(w)
	links := map[uint64]string{}
	err := filepath.WalkDir(root, func(path string, entry fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		info, err := entry.Info()
		if err != nil || info.Mode()&(fs.ModeSocket|fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe) != 0 {
			return err
		}
		hdr, err := treeHeader(path, rel, info, links)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if info.IsDir() && (rel == "dev" || rel == "proc" || rel == "sys") {
			return fs.SkipDir
		}
		if hdr.Typeflag == tar.TypeReg {
			return copyFile(tw, path)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return tw.Close()
}

// treeHeader is the tar header of the file at path, rel in the tree; links
// maps the inodes of files with more than one name to the first name
// written, so that the others are hard links to it.
func treeHeader(path, rel string, info fs.FileInfo, links map[uint64]string) (*tar.Header, error) {
	target := ""
	if info.Mode()&fs.ModeSymlink != 0 {
		var err error
		if target, err = os.Readlink(path); err != nil {
			return nil, err
		}
	}
	hdr, err := tar.FileInfoHeader(info, target)
	if err != nil {
		return nil, err
	}
	hdr.Name = filepath.ToSlash(rel)
	if info.IsDir() {
		hdr.Name += "/"
	}
	hdr.Uname, hdr.Gname = "", ""
	// No bot needs setuid programs; no-new-privileges already makes
	// them harmless, this makes them plain.
	hdr.Mode &^= 0o6000
	st, _ := info.Sys().(*syscall.Stat_t)
	if st != nil {
		hdr.Uid, hdr.Gid = int(st.Uid), int(st.Gid)
		if info.Mode().IsRegular() && st.Nlink > 1 {
			if first, ok := links[st.Ino]; ok {
				hdr.Typeflag, hdr.Linkname, hdr.Size = tar.TypeLink, first, 0
			} else {
				links[st.Ino] = hdr.Name
			}
		}
	}
	return hdr, nil
}

// removeRootfs deletes a debootstrap folder. A debootstrap that was killed
// may leave /proc, /sys or even bind mounts of the host's /dev inside: they
// are unmounted first, and nothing is deleted while any remains.
func removeRootfs(dir string) error {
	mounts, err := mountsUnder(dir)
	if err != nil {
		return err
	}
	// Deepest first.
	slices.SortFunc(mounts, func(a, b string) int { return len(b) - len(a) })
	for _, m := range mounts {
		_ = syscall.Unmount(m, syscall.MNT_DETACH)
	}
	if left, err := mountsUnder(dir); err != nil || len(left) > 0 {
		return errors.Join(err, fmt.Errorf("not removing %s: still mounted: %v", dir, left))
	}
	return os.RemoveAll(dir)
}

// mountsUnder lists the mount points inside dir.
func mountsUnder(dir string) ([]string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var found []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			continue
		}
		point := unescapeMount(fields[4])
		if strings.HasPrefix(point, dir+"/") || point == dir {
			found = append(found, point)
		}
	}
	return found, sc.Err()
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space...).
func unescapeMount(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
