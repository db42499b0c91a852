package handin

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// Bounds of an unpacked folder bot: a handful of sources fits in far less,
// and a zip bomb (a small archive that unpacks to gigabytes) is refused at
// the first byte past them, whatever its headers claim.
const (
	MaxFiles    = 200
	MaxUnpacked = 16 << 20
	maxDepth    = 16
	// A name of a path, and a whole path, in bytes: well under what Linux
	// takes (255 and 4096), so that the folders the judge puts around a bot
	// and the files javac writes beside a class still fit. Past them a
	// version would be stored and then fail to install: refused instead.
	MaxNameBytes = 100
	MaxPathBytes = 255
)

// errRefused is a hand-in refused for what it holds: its text is the one
// line the student reads.
type errRefused struct{ en, fr string }

func (e errRefused) Error() string { return e.en }

// line is the refusal in lang.
func (e errRefused) line(lang string) string {
	if lang == "fr" {
		return e.fr
	}
	return e.en
}

func refused(en, fr string, a ...any) error {
	return errRefused{fmt.Sprintf(en, a...), fmt.Sprintf(fr, a...)}
}

// file is one regular file of a folder bot.
type file struct {
	name string // slash-separated, clean, relative
	exec bool
	data []byte
}

// unpack reads a .zip or .tar archive of a folder bot into its files,
// refusing absolute paths, "..", links, devices and anything beyond the
// bounds. A folder that holds everything else (mybot/ zipped from its
// parent) is taken away, so that run.sh sits at the top.
func unpack(kind string, data []byte) ([]file, error) {
	var files []file
	var err error
	switch kind {
	case ".zip":
		files, err = unzip(data)
	case ".tar":
		files, err = untar(data)
	default:
		return nil, fmt.Errorf("handin: unknown archive %q", kind)
	}
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, refused("the archive holds no file", "l'archive ne contient aucun fichier")
	}
	return stripTop(files), nil
}

// budget counts what an archive unpacks to.
type budget struct {
	files int
	bytes int64
	seen  map[string]bool // the files
	dirs  map[string]bool // the folders that hold them
}

func (b *budget) add(name string, r io.Reader) (file, error) {
	clean, err := cleanName(name)
	if err != nil {
		return file{}, err
	}
	if clean == "." {
		return file{}, refused("the archive holds a file without a name", "l'archive contient un fichier sans nom")
	}
	if b.seen == nil {
		b.seen, b.dirs = map[string]bool{}, map[string]bool{}
	}
	if b.seen[clean] {
		return file{}, refused("%q is twice in the archive", "%q est deux fois dans l'archive", clean)
	}
	if err := b.noFileFolder(clean); err != nil {
		return file{}, err
	}
	b.seen[clean] = true
	if b.files++; b.files > MaxFiles {
		return file{}, refused("the archive holds more than %d files: hand in your sources only", "l'archive contient plus de %d fichiers : ne rendez que vos sources", MaxFiles)
	}
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(r, MaxUnpacked-b.bytes+1))
	if err != nil {
		return file{}, refused("the archive is damaged (%v)", "l'archive est abîmée (%v)", err)
	}
	if b.bytes += n; b.bytes > MaxUnpacked {
		return file{}, refused("the archive unpacks to more than %d MiB (a zip bomb?): hand in your sources only", "l'archive se décompresse en plus de %d Mio (une bombe zip ?) : ne rendez que vos sources", MaxUnpacked>>20)
	}
	return file{name: clean, data: buf.Bytes()}, nil
}

// noFileFolder refuses a file that is also a folder of the archive (x and
// x/y): no filesystem holds both.
func (b *budget) noFileFolder(clean string) error {
	clash := ""
	if b.dirs[clean] {
		clash = clean
	}
	for d := path.Dir(clean); d != "."; d = path.Dir(d) {
		if b.seen[d] {
			clash = d
		}
		b.dirs[d] = true
	}
	if clash != "" {
		return refused("the archive holds both a file and a folder named %s: rename one of them", "l'archive contient à la fois un fichier et un dossier nommés %s : renommez l'un des deux", short(clash))
	}
	return nil
}

// short is a name cut for a one-line refusal.
func short(name string) string {
	if r := []rune(name); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return name
}

// cleanName is an archive's path made safe to create under the bot's
// folder, or why it is not.
func cleanName(name string) (string, error) {
	if !utf8.ValidString(name) || strings.ContainsAny(name, "\x00\\") {
		return "", refused("the archive holds a strange name (%q): rename it", "l'archive contient un nom étrange (%q) : renommez-le", name)
	}
	if strings.HasPrefix(name, "/") || (len(name) > 1 && name[1] == ':') {
		return "", refused("the archive holds an absolute path (%s): make the archive from inside your bot's folder", "l'archive contient un chemin absolu (%s) : faites l'archive depuis le dossier de votre bot", name)
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return "", refused("the archive holds a path with .. (%s): it would write outside your bot's folder", "l'archive contient un chemin avec .. (%s) : il écrirait hors du dossier de votre bot", name)
		}
	}
	clean := path.Clean(name)
	if strings.Count(clean, "/") >= maxDepth {
		return "", refused("the archive holds a path too deep (%s)", "l'archive contient un chemin trop profond (%s)", short(name))
	}
	for _, part := range strings.Split(clean, "/") {
		if len(part) > MaxNameBytes {
			return "", refused("the archive holds a name longer than %d bytes (%s): shorten it", "l'archive contient un nom de plus de %d octets (%s) : raccourcissez-le", MaxNameBytes, short(part))
		}
	}
	if len(clean) > MaxPathBytes {
		return "", refused("the archive holds a path longer than %d bytes (%s): shorten it", "l'archive contient un chemin de plus de %d octets (%s) : raccourcissez-le", MaxPathBytes, short(clean))
	}
	return clean, nil
}

func unzip(data []byte) ([]file, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, refused("not a zip archive the judge can read (%v)", "pas une archive zip lisible (%v)", err)
	}
	var b budget
	var files []file
	for _, f := range zr.File {
		mode := f.Mode()
		switch {
		case mode.IsDir():
			if _, err := cleanName(f.Name); err != nil {
				return nil, err
			}
			continue
		case !mode.IsRegular():
			return nil, refused("the archive holds %s, which is not a plain file or folder (a link?): put the file itself in it", "l'archive contient %s, qui n'est ni un fichier ni un dossier (un lien ?) : mettez-y le fichier lui-même", f.Name)
		}
		r, err := f.Open()
		if err != nil {
			return nil, refused("the archive is damaged (%v)", "l'archive est abîmée (%v)", err)
		}
		out, err := b.add(f.Name, r)
		r.Close()
		if err != nil {
			return nil, err
		}
		out.exec = mode&0o111 != 0
		files = append(files, out)
	}
	return files, nil
}

func untar(data []byte) ([]file, error) {
	tr := tar.NewReader(bytes.NewReader(data))
	var b budget
	var files []file
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, refused("not a tar archive the judge can read (%v)", "pas une archive tar lisible (%v)", err)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if _, err := cleanName(h.Name); err != nil {
				return nil, err
			}
			continue
		case tar.TypeReg:
		case tar.TypeXGlobalHeader:
			continue
		default:
			return nil, refused("the archive holds %s, which is not a plain file or folder (a link? a device?): put the file itself in it", "l'archive contient %s, qui n'est ni un fichier ni un dossier (un lien ? un périphérique ?) : mettez-y le fichier lui-même", h.Name)
		}
		out, err := b.add(h.Name, tr)
		if err != nil {
			return nil, err
		}
		out.exec = h.Mode&0o111 != 0
		files = append(files, out)
	}
}

// stripTop takes away a folder that holds every file.
func stripTop(files []file) []file {
	top, _, ok := strings.Cut(files[0].name, "/")
	if !ok {
		return files
	}
	for _, f := range files {
		if !strings.HasPrefix(f.name, top+"/") {
			return files
		}
	}
	for i := range files {
		files[i].name = strings.TrimPrefix(files[i].name, top+"/")
	}
	return files
}

// packTar writes files as the tar the database keeps of a folder bot:
// sorted, regular files and their folders only, fixed modes and times, so
// that the same folder is always the same bytes.
func packTar(files []file) []byte {
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dirs := map[string]bool{}
	for _, f := range files {
		for d := path.Dir(f.name); d != "."; d = path.Dir(d) {
			if dirs[d] {
				break
			}
			dirs[d] = true
		}
	}
	var names []string
	for d := range dirs {
		names = append(names, d)
	}
	sort.Strings(names)
	epoch := time.Unix(0, 0)
	for _, d := range names {
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d + "/", Mode: 0o755, ModTime: epoch})
	}
	for _, f := range files {
		mode := int64(0o644)
		if f.exec {
			mode = 0o755
		}
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: f.name, Mode: mode, Size: int64(len(f.data)), ModTime: epoch})
		tw.Write(f.data)
	}
	tw.Close() // writes to memory: nothing can fail
	return buf.Bytes()
}
