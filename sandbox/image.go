package sandbox

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/build"
)

// ErrImageMissing means the runtime image is not built.
var ErrImageMissing = errors.New("sandbox: the runtime image is missing")

// BaseImage is Debian with the languages' packages, built once; the
// runtime image adds the harness to it. Its tag names the package list: an
// existing base is never rebuilt, so a new list needs a new tag.
var BaseImage = "botjudge-base:" + suite + "-" + shortHash(packages)

const (
	// judgeDir holds judgeFiles.
	judgeDir    = "/opt/judge"
	harnessPath = judgeDir + "/harness.py"
	// warmDir holds warm.py as sitecustomize.py and warm.js, the hooks of a
	// bot's process started ahead of its request.
	warmDir = judgeDir + "/warm"

	suite = "bookworm"
	// ocaml-base is ocaml-nox's dependency through a virtual package that
	// debootstrap cannot resolve by itself.
	packages  = "python3,nodejs,coffeescript,php-cli,gcc,g++,libc6-dev,default-jdk-headless,ocaml-nox,ocaml-base"
	mirrorEnv = "DEBIAN_MIRROR"
	mirror    = "http://deb.debian.org/debian"
)

var (
	// The label names where the image's /usr comes from: the runtime layer
	// adds nothing under /usr, so every build of the harness on one base
	// shares one copy of it (see usrSource), on any engine the image is
	// sent to.
	runtimeDockerfile = "FROM " + BaseImage + "\nLABEL " + LabelUsr + "=" + BaseImage + "\nCOPY judge " + judgeDir + "\n"
	// registryDockerfile is the base where debootstrap cannot run and a
	// registry can be reached (a Mac, a non-root user).
	registryDockerfile = "FROM debian:" + suite + "-slim\n" +
		"RUN apt-get update && apt-get install -y --no-install-recommends " + aptPackages +
		" && rm -rf /var/lib/apt/lists/* /usr/share/doc/* /usr/share/man/* /usr/share/locale/*\n"
)

// aptPackages is the package list as apt-get takes it.
var aptPackages = strings.ReplaceAll(packages, ",", " ")

// shortHash names a recipe in a tag.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:12]
}

// slimmed are the parts of the debootstrapped system no bot needs.
var slimmed = []string{
	"usr/share/doc/*", "usr/share/man/*", "usr/share/info/*", "usr/share/locale/*",
	"var/lib/apt/lists/*", "var/cache/apt/*", "var/cache/debconf/*-old", "var/log/*",
}

// runtimeRepository names the runtime images. Tests of a changed harness on
// an engine that others share build theirs under a name of their own:
// go test -ldflags=-X=botjudge/sandbox.runtimeRepository=NAME.
var runtimeRepository = "botjudge-runtime"

// RuntimeImage is the runtime image of this build: its tag changes with
// the harness and with the recipe of the image.
func RuntimeImage() string {
	h := sha256.New()
	for _, part := range []string{runtimeDockerfile, registryDockerfile, suite, packages, strings.Join(slimmed, " ")} {
		fmt.Fprintf(h, "%d:%s", len(part), part)
	}
	for _, p := range judgePaths() {
		fmt.Fprintf(h, "%d:%s%d:%s", len(p), p, len(judgeFiles[p]), judgeFiles[p])
	}
	return runtimeRepository + ":" + hex.EncodeToString(h.Sum(nil))[:12]
}

// EnsureImage makes sure the runtime image and its /usr volume exist and
// returns the image's ID (a digest, recorded with every game). When the
// image is missing it is built if build is set (the base too, if needed;
// progress gets the builders' output), otherwise the error wraps
// ErrImageMissing.
func (d *Docker) EnsureImage(ctx context.Context, progress io.Writer, build bool) (string, error) {
	if progress == nil {
		progress = io.Discard
	}
	id, err := d.ensureImage(ctx, progress, build)
	if err == nil {
		// Its /usr volume too, before any bot waits for it.
		_, err = d.usr(ctx)
	}
	return id, err
}

func (d *Docker) ensureImage(ctx context.Context, progress io.Writer, build bool) (string, error) {
	if id, err := d.imageID(ctx, d.image); id != "" || err != nil {
		return id, err
	}
	if !build {
		return "", fmt.Errorf("%w: %s is not built yet: run `make image`", ErrImageMissing, d.image)
	}
	base, err := d.imageID(ctx, BaseImage)
	if err != nil {
		return "", err
	}
	if base == "" {
		if err := d.buildBase(ctx, progress); err != nil {
			return "", fmt.Errorf("sandbox: building %s: %w", BaseImage, err)
		}
	}
	files := map[string]string{"Dockerfile": runtimeDockerfile}
	for p, body := range judgeFiles {
		files["judge/"+p] = body
	}
	buildContext, err := tarFiles(files)
	if err != nil {
		return "", err
	}
	if err := d.build(ctx, buildContext, d.image, progress); err != nil {
		return "", fmt.Errorf("sandbox: building %s: %w", d.image, err)
	}
	id, err := d.imageID(ctx, d.image)
	if err == nil && id == "" {
		err = fmt.Errorf("sandbox: %s is missing right after its build", d.image)
	}
	return id, err
}

// imageID is the ID of a local image, or "" when there is none.
func (d *Docker) imageID(ctx context.Context, ref string) (string, error) {
	info, err := d.cli.ImageInspect(ctx, ref)
	switch {
	case cerrdefs.IsNotFound(err):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("sandbox: inspecting image %s: %w", ref, err)
	}
	return info.ID, nil
}

// buildBase builds the base from Debian's packages with debootstrap, with
// no registry involved, or else from the registry's debian image.
func (d *Docker) buildBase(ctx context.Context, progress io.Writer) error {
	err := d.importBase(ctx, progress)
	if !errors.Is(err, errNoDebootstrap) {
		return err
	}
	fmt.Fprintf(progress, "%v; building from the registry's debian:%s-slim instead\n", err, suite)
	buildContext, terr := tarFiles(map[string]string{"Dockerfile": registryDockerfile})
	if terr != nil {
		return terr
	}
	if berr := d.build(ctx, buildContext, BaseImage, progress); berr != nil {
		return fmt.Errorf("%v; and %w", err, berr)
	}
	return nil
}

var errNoDebootstrap = errors.New("debootstrap cannot run here")

// build runs the engine's classic builder, which needs no BuildKit and
// pulls nothing that is already present.
func (d *Docker) build(ctx context.Context, buildContext io.Reader, tag string, progress io.Writer) error {
	resp, err := d.cli.ImageBuild(ctx, buildContext, build.ImageBuildOptions{
		Tags:        []string{tag},
		Remove:      true,
		ForceRemove: true,
		Version:     build.BuilderV1,
	})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return followProgress(resp.Body, progress)
}

// followProgress copies the engine's JSON progress stream to w as text and
// returns the error it reports, if any.
func followProgress(r io.Reader, w io.Writer) error {
	dec := json.NewDecoder(r)
	for {
		var m struct {
			Stream string `json:"stream"`
			Status string `json:"status"`
			Error  string `json:"error"`
		}
		if err := dec.Decode(&m); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("reading the engine's progress: %w", err)
		}
		if m.Error != "" {
			return errors.New(strings.TrimSpace(m.Error))
		}
		if m.Stream != "" {
			io.WriteString(w, m.Stream)
		} else if m.Status != "" {
			fmt.Fprintln(w, m.Status)
		}
	}
}

// tarFiles is a build context of small text files, by their slash-separated
// paths, their folders readable by all.
func tarFiles(files map[string]string) (io.Reader, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	names := slices.Sorted(maps.Keys(files))
	written := map[string]bool{}
	for _, name := range names {
		parts := strings.Split(name, "/")
		for i := 1; i < len(parts); i++ {
			if dir := strings.Join(parts[:i], "/") + "/"; !written[dir] {
				written[dir] = true
				if err := tw.WriteHeader(&tar.Header{Name: dir, Mode: 0o755, Typeflag: tar.TypeDir}); err != nil {
					return nil, err
				}
			}
		}
		body := files[name]
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			return nil, err
		}
		if _, err := io.WriteString(tw, body); err != nil {
			return nil, err
		}
	}
	return &buf, tw.Close()
}
