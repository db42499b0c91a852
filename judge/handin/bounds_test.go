package handin

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"botjudge/results"
)

// deepPath is a path of 15 folders of 90 letters: 1,365 bytes.
var deepPath = strings.Repeat(strings.Repeat("d", 90)+"/", 15) + "x.txt"

// unfit are uploads that the filesystem or the language refuses once
// unpacked: each is refused with one line before it is stored.
var unfit = []struct {
	name, file string
	data       func(t *testing.T) []byte
	want       string
}{
	{"300-byte file name in a zip", "long.zip", func(t *testing.T) []byte {
		return zipOf(t, map[string]string{"run.sh": "x", strings.Repeat("a", 300) + ".txt": "x"})
	}, "longer than 100 bytes"},
	{"300-byte folder name in a tar", "long.tar", func(t *testing.T) []byte {
		return tarOf(t, []tar.Header{{Name: "run.sh", Typeflag: tar.TypeReg, Mode: 0o755, Size: 1}, {Name: strings.Repeat("b", 300) + "/x", Typeflag: tar.TypeReg, Mode: 0o644, Size: 1}}, "x")
	}, "longer than 100 bytes"},
	{"1,365-byte path in a zip", "deep.zip", func(t *testing.T) []byte {
		return zipOf(t, map[string]string{"run.sh": "x", deepPath: "x"})
	}, "longer than 255 bytes"},
	{"a file x and a file x/y", "clash.zip", func(t *testing.T) []byte {
		return zipOf(t, map[string]string{"run.sh": "x", "x": "1", "x/y": "2"})
	}, "both a file and a folder named x"},
	{"a file x/y and a file x", "clash.tar", func(t *testing.T) []byte {
		return tarOf(t, []tar.Header{{Name: "run.sh", Typeflag: tar.TypeReg, Size: 1}, {Name: "x/y", Typeflag: tar.TypeReg, Size: 1}, {Name: "x", Typeflag: tar.TypeReg, Size: 1}}, "x")
	}, "both a file and a folder named x"},
	{"a Java class of 300 letters", "Long.java", func(t *testing.T) []byte {
		return []byte("public class " + strings.Repeat("L", 300) + " {\n}\n")
	}, "longer than 64 letters"},
}

// TestUnfitUploads: whatever the disk or javac would refuse after the
// version is stored is refused before, with one line in the student's
// language; no version is stored, nothing is installed, and every version
// accepted before stays downloadable, byte for byte.
func TestUnfitUploads(t *testing.T) {
	c := newClass(t, Options{UploadsPerMinute: 100}, "alice")
	b := c.student("alice")
	kept := acceptSome(t, c, b)
	for _, tc := range unfit {
		t.Run(tc.name, func(t *testing.T) {
			st, page := b.handIn("tictactoe", tc.file, tc.data(t))
			if st != http.StatusBadRequest || !strings.Contains(page, tc.want) || strings.Count(refusedLine(page), "\n") > 0 {
				t.Errorf("%d, want 400 saying %q in one line:\n%s", st, tc.want, page)
			}
		})
	}
	body, ctype := uploadForm("clash.zip", unfit[3].data(t))
	req, _ := http.NewRequest("POST", c.http.URL+"/hand-in/game/tictactoe", body)
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Accept-Language", "fr")
	if st, page := b.do(req); st != http.StatusBadRequest || !strings.Contains(page, "à la fois un fichier et un dossier") {
		t.Errorf("in French: %d\n%s", st, page)
	}
	if vs := c.versions("alice", "tictactoe"); len(vs) != 2 {
		t.Errorf("refused uploads were stored: %d versions of tictactoe, want the 2 accepted", len(vs))
	}
	kept.sameAfter(t)
}

// refusedLine is the line of a refusal page.
func refusedLine(page string) string {
	_, after, _ := strings.Cut(page, `id="refused">`)
	line, _, _ := strings.Cut(after, "</p>")
	return line
}

// accepted are versions handed in and what downloading each gave.
type accepted struct {
	b    *browser
	want map[string]string // version's path: its content
}

// acceptSome hands in a file and a folder and downloads them.
func acceptSome(t *testing.T, c *class, b *browser) accepted {
	t.Helper()
	a := accepted{b: b, want: map[string]string{}}
	file := b.location("tictactoe", "bot.py", []byte("print('x')\n"))
	folder := b.location("tictactoe", "bot.zip", zipOf(t, map[string]string{"run.sh": "#!/bin/sh\necho x\n", "lib/a.txt": strings.Repeat("z", 100<<10)}))
	for _, v := range []string{file, folder} {
		st, body := b.get(v + "/content")
		if st != http.StatusOK || len(body) == 0 {
			t.Fatalf("downloading %s: %d", v, st)
		}
		a.want[v] = body
	}
	if a.want[file] != "print('x')\n" {
		t.Errorf("the file downloaded: %q", a.want[file])
	}
	return a
}

// sameAfter checks that every accepted version is still downloaded as it was.
func (a accepted) sameAfter(t *testing.T) {
	t.Helper()
	for v, want := range a.want {
		if st, body := a.b.get(v + "/content"); st != http.StatusOK || body != want {
			t.Errorf("%s after the attacks: %d, %d bytes, want the %d bytes downloaded before", v, st, len(body), len(want))
		}
	}
}

// TestRefusedUploadsCounted: twenty zip bombs in a row are rate-limited as
// twenty hand-ins would be.
func TestRefusedUploadsCounted(t *testing.T) {
	c := newClass(t, Options{UploadsPerMinute: 6}, "alice")
	b := c.student("alice")
	bomb := zipOf(t, map[string]string{"run.sh": strings.Repeat("\x00", 17<<20)})
	var limited int
	for range 20 {
		st, page := b.handIn("tictactoe", "bomb.zip", bomb)
		switch st {
		case http.StatusBadRequest:
			if !strings.Contains(page, "zip bomb") {
				t.Fatalf("a bomb refused for another reason:\n%s", page)
			}
		case http.StatusTooManyRequests:
			limited++
		default:
			t.Fatalf("a bomb: %d", st)
		}
	}
	if limited != 14 {
		t.Errorf("%d of 20 bombs in a minute were rate-limited, want 14 (6 a minute)", limited)
	}
}

// TestQuota: a student's stored versions are bounded in bytes; past the
// quota a hand-in is refused with one line and nothing is deleted. A zip
// of 15 MiB of zeros takes its compressed size, not 15 MiB.
func TestQuota(t *testing.T) {
	c := newClass(t, Options{UploadsPerMinute: 100, Quota: 1 << 20}, "alice")
	b := c.student("alice")
	zeros := zipOf(t, map[string]string{"run.sh": strings.Repeat("\x00", 15<<20)})
	b.location("tictactoe", "zeros.zip", zeros)
	noise := func() []byte {
		b := make([]byte, 300<<10)
		rand.Read(b)
		return b
	}
	var locs []string
	for range 3 {
		locs = append(locs, b.location("tictactoe", "bot.zip", storedZip(t, "run.sh", noise())))
	}
	locs = append(locs, b.location("tictactoe", "bot.zip", storedZip(t, "run.sh", []byte("x"))))
	st, page := b.handIn("tictactoe", "bot.zip", storedZip(t, "run.sh", noise()))
	if st != http.StatusRequestEntityTooLarge || !strings.Contains(page, "of the 1 MiB") || !strings.Contains(page, "nothing was deleted") {
		t.Errorf("past the quota: %d %s", st, refusedLine(page))
	}
	if vs := c.versions("alice", "tictactoe"); len(vs) < 5 || vs[len(vs)-1].Size < 15<<20 {
		t.Errorf("versions after the quota: %d", len(vs))
	}
	for _, l := range locs {
		if st, _ := b.get(l + "/content"); st != http.StatusOK {
			t.Errorf("%s after the quota: %d", l, st)
		}
	}
}

// storedZip is a zip of one file, not compressed: its bytes are its size.
func storedZip(t *testing.T, name string, data []byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	h := &zip.FileHeader{Name: name, Method: zip.Store}
	h.SetMode(0o755)
	w, err := zw.CreateHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	zw.Close()
	return buf.Bytes()
}

// TestInstallFails: a version that cannot be installed (the game's folder
// is a file) is failed, never left waiting; its student reads one line and
// that the judge failed, not their bot, and hands in again once it is fixed.
func TestInstallFails(t *testing.T) {
	c := newClass(t, Options{Checker: &fakeChecker{seen: map[int64]int{}}}, "alice")
	org, b := c.student(results.OrganiserName), c.student("alice")
	dir := filepath.Join(c.subs, "tictactoe")
	os.RemoveAll(dir)
	os.WriteFile(dir, []byte("in the way"), 0o644)
	st, page := b.handIn("tictactoe", "bot.py", []byte("print('x')\n"))
	if st != http.StatusServiceUnavailable || !strings.Contains(page, "hand it in again") || strings.Contains(page, c.subs) {
		t.Errorf("an upload that cannot be installed: %d, want 503 with one line and no path\n%s", st, page)
	}
	vs := c.versions("alice", "tictactoe")
	if len(vs) != 1 || vs[0].Status != results.StatusFailed || vs[0].Current {
		t.Fatalf("the version: %+v, want it stored and failed", vs)
	}
	v := fmt.Sprintf("/hand-in/v/%d", vs[0].ID)
	_, page = b.get(v)
	if !strings.Contains(page, "not your bot") || strings.Contains(page, c.subs) || strings.Contains(page, "install:") {
		t.Errorf("the student's page of a version not installed:\n%s", page)
	}
	if _, page := org.get(v); !strings.Contains(page, "install:") || !strings.Contains(page, "tictactoe") {
		t.Errorf("the organiser's page does not say why:\n%s", page)
	}
	os.Remove(dir)
	os.MkdirAll(dir, 0o755)
	if st, _ := b.handIn("tictactoe", "bot.py", []byte("print('y')\n")); st != http.StatusSeeOther {
		t.Errorf("handing in again once fixed: %d", st)
	}
	waitDone(t, c, "alice", 1)
}

// TestRestartFinishesInstalling: a server that stopped between storing a
// version and installing it leaves none waiting: at the next start the
// newest version is installed and checked, an older one failed.
func TestRestartFinishesInstalling(t *testing.T) {
	c := newClass(t, Options{}, "alice")
	c.stop()
	ctx := context.Background()
	sts, _ := c.db.Students(ctx)
	at := time.Now()
	older, err := c.db.AddHandIn(ctx, results.HandIn{StudentID: sts[0].ID, Game: "virus", At: at, Kind: "file", Ext: ".py", Content: []byte("# older\n" + pyBot)}, 0)
	if err != nil {
		t.Fatal(err)
	}
	newer, _ := c.db.AddHandIn(ctx, results.HandIn{StudentID: sts[0].ID, Game: "virus", At: at.Add(time.Second), Kind: "file", Ext: ".py", Content: []byte("# newer\n" + pyBot)}, 0)
	fc := &fakeChecker{seen: map[int64]int{}}
	again := New(c.db, http.NotFoundHandler(), Options{Submissions: c.subs, Games: []string{"virus"}, Checker: fc, Log: c.srv.opt.Log})
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { again.Run(runCtx); close(done) }()
	defer func() { cancel(); <-done }()
	vs := waitDone(t, c, "alice", 1)
	byID := map[int64]results.HandIn{}
	for _, v := range vs {
		byID[v.ID] = v
	}
	if v := byID[newer.ID]; v.Status != results.StatusDone || !v.Current {
		t.Errorf("the newest version after a restart: %+v, want installed and checked", v)
	}
	if v := byID[older.ID]; v.Status != results.StatusFailed || v.Current {
		t.Errorf("the older version after a restart: %+v, want failed", v)
	}
	if got, _ := os.ReadFile(filepath.Join(c.subs, "virus", "alice.py")); !strings.HasPrefix(string(got), "# newer") {
		t.Errorf("submissions/virus/alice.py after a restart: %q", got)
	}
}

// TestRestoreUnfit: a version stored before its unfitness was found (by an
// older judge) is refused by the organiser's restore with one line, never
// a 500.
func TestRestoreUnfit(t *testing.T) {
	c := newClass(t, Options{}, "alice")
	org := c.student(results.OrganiserName)
	sts, _ := c.db.Students(context.Background())
	for _, tc := range []struct {
		name string
		tar  []byte
		want string
	}{
		{"long name", tarOf(t, []tar.Header{{Name: "run.sh", Typeflag: tar.TypeReg, Size: 1}, {Name: strings.Repeat("a", 300), Typeflag: tar.TypeReg, Size: 1}}, "x"), "longer than 100 bytes"},
		{"file and folder", tarOf(t, []tar.Header{{Name: "run.sh", Typeflag: tar.TypeReg, Size: 1}, {Name: "x", Typeflag: tar.TypeReg, Size: 1}, {Name: "x/y", Typeflag: tar.TypeReg, Size: 1}}, "x"), "both a file and a folder"},
	} {
		h, err := c.db.AddHandIn(context.Background(), results.HandIn{StudentID: sts[0].ID, Game: "tictactoe", Kind: "folder", Content: tc.tar}, 0)
		if err != nil {
			t.Fatal(err)
		}
		st, page := org.post(fmt.Sprintf("/hand-in/v/%d/restore", h.ID), "application/x-www-form-urlencoded", nil)
		if st != http.StatusConflict || !strings.Contains(page, tc.want) {
			t.Errorf("%s: restore %d, want 409 saying %q\n%s", tc.name, st, tc.want, page)
		}
	}
	if e := c.entries("tictactoe"); len(e) != 0 {
		t.Errorf("a refused restore left %v", e)
	}
}

// failingChecker fails as the engine does under load.
type failingChecker struct{}

const engineError = "Cannot connect to the Docker daemon at unix:///var/run/docker.sock; open /tmp/botjudge-handin-42/alice: file name too long"

func (failingChecker) Check(context.Context, results.HandIn, func(string, Report)) (Report, error) {
	return Report{}, errors.New(engineError)
}

// TestJudgeFailureHidden: a check the judge failed tells the student, in
// their language, that the judge failed, not their bot, and nothing of the
// judge's internals; the organiser reads the details.
func TestJudgeFailureHidden(t *testing.T) {
	c := newClass(t, Options{Checker: failingChecker{}}, "alice")
	org, b := c.student(results.OrganiserName), c.student("alice")
	v := b.location("virus", "a.py", []byte(pyBot))
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if vs := c.versions("alice", ""); vs[0].Status == results.StatusFailed {
			break
		}
	}
	for _, lang := range []string{"en", "fr"} {
		req, _ := http.NewRequest("GET", c.http.URL+v, nil)
		req.Header.Set("Accept-Language", lang)
		_, page := b.do(req)
		want := map[string]string{"en": "the judge failed, not your bot (the organiser has the details)", "fr": "le juge a échoué, pas votre bot"}[lang]
		if !strings.Contains(strings.ToLower(page), want) || strings.Contains(page, "docker.sock") || strings.Contains(page, "/tmp/") {
			t.Errorf("the student's page in %s: want %q and no internals:\n%s", lang, want, page)
		}
	}
	if _, page := org.get(v); !strings.Contains(page, "unix:///var/run/docker.sock") {
		t.Errorf("the organiser's page hides the details:\n%s", page)
	}
}
