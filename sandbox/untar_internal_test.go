package sandbox

import (
	"archive/tar"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tarOf is a tar of the given headers, each regular file with body "x".
func tarOf(t testing.TB, headers ...tar.Header) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range headers {
		if h.Typeflag == tar.TypeReg {
			h.Size = 1
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write([]byte("x"))
		}
	}
	tw.Close()
	return buf.Bytes()
}

// TestUntar: what a build.sh leaves is kept only as folders and regular
// files inside the build's folder.
func TestUntar(t *testing.T) {
	for _, c := range []struct {
		name    string
		headers []tar.Header
		err     string
		want    []string // what dst then holds
	}{
		{"program", []tar.Header{{Name: "./", Typeflag: tar.TypeDir}, {Name: "./main", Mode: 0o700, Typeflag: tar.TypeReg}, {Name: "./lib/", Typeflag: tar.TypeDir}, {Name: "./lib/a", Typeflag: tar.TypeReg}}, "", []string{"lib", "lib/a", "main"}},
		{"links dropped", []tar.Header{{Name: "./passwd", Linkname: "/etc/passwd", Typeflag: tar.TypeSymlink}, {Name: "./main", Typeflag: tar.TypeReg}}, "", []string{"main"}},
		{"escape", []tar.Header{{Name: "../evil", Typeflag: tar.TypeReg}}, "outside the build", nil},
		{"nothing", []tar.Header{{Name: "./", Typeflag: tar.TypeDir}}, "produced nothing", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "built")
			err := untar(bytes.NewReader(tarOf(t, c.headers...)), dst, 1<<20, 100)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("got %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
				if p != dst {
					rel, _ := filepath.Rel(dst, p)
					got = append(got, rel)
				}
				return err
			})
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("got %v, want %v", got, c.want)
			}
			if c.name != "program" {
				return
			}
			if info, err := os.Stat(filepath.Join(dst, "main")); err != nil || info.Mode().Perm() != 0o755 {
				t.Errorf("main: %v %v, want an executable readable by the sandbox's user (0755)", info, err)
			}
		})
	}
}

// TestUntarBounds: a build's program past its bytes or its files is refused
// with a line that says which.
func TestUntarBounds(t *testing.T) {
	var many []tar.Header
	for i := range 30 {
		many = append(many, tar.Header{Name: fmt.Sprintf("./f%d", i), Typeflag: tar.TypeReg})
	}
	big := tarOf(t, tar.Header{Name: "./a", Typeflag: tar.TypeReg}, tar.Header{Name: "./b", Typeflag: tar.TypeReg})
	for _, c := range []struct {
		name  string
		data  []byte
		bytes int64
		files int
		want  string
	}{
		{"files", tarOf(t, many...), 1 << 20, 20, "more than 20 files"},
		{"bytes", big, 1, 100, "more than 0 MiB"},
	} {
		err := untar(bytes.NewReader(c.data), filepath.Join(t.TempDir(), "built"), c.bytes, c.files)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// FuzzUntar: whatever tar a build hands back, nothing lands outside the
// build's folder.
func FuzzUntar(f *testing.F) {
	f.Add(tarOf(f, tar.Header{Name: "./main", Typeflag: tar.TypeReg}))
	f.Add(tarOf(f, tar.Header{Name: "../x", Typeflag: tar.TypeReg}))
	f.Add(tarOf(f, tar.Header{Name: "a", Linkname: "/", Typeflag: tar.TypeSymlink}, tar.Header{Name: "a/b", Typeflag: tar.TypeReg}))
	f.Fuzz(func(t *testing.T, data []byte) {
		parent := t.TempDir()
		dst := filepath.Join(parent, "built")
		_ = untar(bytes.NewReader(data), dst, 1<<16, 100)
		des, err := os.ReadDir(parent)
		if err != nil {
			t.Fatal(err)
		}
		for _, de := range des {
			if de.Name() != "built" {
				t.Fatalf("%s written beside the build's folder", de.Name())
			}
		}
		filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !d.Type().IsRegular() {
				t.Errorf("%s is neither a folder nor a regular file", p)
			}
			return nil
		})
	})
}
