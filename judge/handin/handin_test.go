package handin

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "botjudge/games/all" // every game, registered
	"botjudge/judge/screen"
	"botjudge/results"
)

// class is a judge with hand-in on, a roster and an example bot per game.
type class struct {
	t     *testing.T
	db    *results.DB
	srv   *Server
	http  *httptest.Server
	subs  string
	codes map[string]string
	now   atomic.Pointer[time.Time]
	// stop ends the server's queue and waits for it; a test that starts a
	// second server on the same database stops the first one so that only
	// one of them finishes what a stopped server left.
	stop func()
}

func newClass(t *testing.T, opt Options, names ...string) *class {
	t.Helper()
	dir := t.TempDir()
	db, err := results.Open(filepath.Join(dir, "judge.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c := &class{t: t, db: db, subs: filepath.Join(dir, "submissions"), codes: map[string]string{}}
	for _, g := range []string{"virus", "tictactoe"} {
		os.MkdirAll(filepath.Join(c.subs, g), 0o755)
	}
	os.WriteFile(filepath.Join(c.subs, "virus", "example.py"), []byte("def ia(game, side):\n    return None\n"), 0o644)
	for _, n := range names {
		display, file, err := ParseName(n)
		if err != nil {
			t.Fatal(err)
		}
		code := NewCode()
		if _, err := db.AddToRoster(context.Background(), results.Student{Name: file, Display: display}, results.HashCode(code)); err != nil {
			t.Fatal(err)
		}
		c.codes[n] = code
	}
	c.codes[results.OrganiserName] = NewCode()
	if _, err := db.AddStudent(context.Background(), results.OrganiserName, results.HashCode(c.codes[results.OrganiserName]), true); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	c.now.Store(&now)
	switch ch := opt.Checker.(type) {
	case *sparringChecker:
		ch.db = db
	case *SandboxChecker:
		ch.DB, ch.Submissions = db, c.subs
	}
	opt.Submissions = c.subs
	if opt.Games == nil {
		opt.Games = []string{"virus", "tictactoe"}
	}
	opt.Log = log.New(io.Discard, "", 0)
	opt.Now = func() time.Time { return *c.now.Load() }
	var scr *screen.Server
	c.srv = New(db, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { scr.ServeHTTP(w, r) }), opt)
	scr = screen.New(db, screen.Options{HideLogs: true, MayRead: c.srv.MayRead, Viewer: c.srv.Viewer, Log: opt.Log, ArenaNames: opt.ArenaNames})
	c.http = httptest.NewServer(c.srv)
	t.Cleanup(c.http.Close)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.srv.Run(ctx); close(done) }()
	var once sync.Once
	c.stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(c.stop)
	return c
}

// browser is one student's browser: it keeps its cookie and sends what a
// browser sends with a form of the same site.
type browser struct {
	c      *class
	client *http.Client
}

func (c *class) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{c: c, client: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (b *browser) do(req *http.Request) (int, string) {
	b.c.t.Helper()
	resp, err := b.client.Do(req)
	if err != nil {
		b.c.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func (b *browser) get(path string) (int, string) {
	req, _ := http.NewRequest("GET", b.c.http.URL+path, nil)
	return b.do(req)
}

func (b *browser) post(path, ctype string, body io.Reader) (int, string) {
	req, _ := http.NewRequest("POST", b.c.http.URL+path, body)
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Origin", b.c.http.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	return b.do(req)
}

func (b *browser) logIn(name, code string) int {
	st, _ := b.post("/hand-in/login", "application/x-www-form-urlencoded", strings.NewReader(url.Values{"name": {name}, "code": {code}}.Encode()))
	return st
}

func (c *class) student(name string) *browser {
	c.t.Helper()
	b := c.browser()
	if st := b.logIn(name, c.codes[name]); st != http.StatusSeeOther {
		c.t.Fatalf("log-in of %s: %d", name, st)
	}
	return b
}

// handIn uploads data under filename for game; it returns the status and
// the page it leads to (the version's page when accepted).
func (b *browser) handIn(game, filename string, data []byte) (int, string) {
	b.c.t.Helper()
	body, contentType := uploadForm(filename, data)
	st, page := b.post("/hand-in/game/"+game, contentType, body)
	return st, page
}

// uploadForm is the hand-in form's body with data as the file filename.
func uploadForm(filename string, data []byte) (*bytes.Buffer, string) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("bot", filename)
	fw.Write(data)
	mw.Close()
	return &body, mw.FormDataContentType()
}

func (b *browser) location(game, filename string, data []byte) string {
	b.c.t.Helper()
	body, contentType := uploadForm(filename, data)
	req, _ := http.NewRequest("POST", b.c.http.URL+"/hand-in/game/"+game, body)
	req.Header.Set("Content-Type", contentType)
	resp, err := b.client.Do(req)
	if err != nil {
		b.c.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		b.c.t.Fatalf("hand-in of %s: %d", filename, resp.StatusCode)
	}
	return resp.Header.Get("Location")
}

func (c *class) versions(name, game string) []results.HandIn {
	c.t.Helper()
	var id int64
	sts, _ := c.db.Students(context.Background())
	for _, s := range sts {
		if s.Name == name || s.Display == name {
			id = s.ID
		}
	}
	list, err := c.db.HandIns(context.Background(), id, game)
	if err != nil {
		c.t.Fatal(err)
	}
	return list
}

func (c *class) entries(game string) []string {
	des, _ := os.ReadDir(filepath.Join(c.subs, game))
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

const pyBot = "def ia(game, side):\n    return None\n"

func TestLogIn(t *testing.T) {
	c := newClass(t, Options{}, "alice")
	b := c.browser()
	if st, page := b.get("/hand-in/"); st != 200 || !strings.Contains(page, `action="/hand-in/login"`) {
		t.Fatalf("the hand-in page without a session is not the log-in form: %d", st)
	}
	if st := b.logIn("alice", "AAAA-BBBB-CCCC"); st != http.StatusUnauthorized {
		t.Errorf("a wrong code: %d, want 401", st)
	}
	if st := b.logIn("nobody", c.codes["alice"]); st != http.StatusUnauthorized {
		t.Errorf("alice's code under another name: %d, want 401", st)
	}
	// The code as a person types it: lower case, no dashes.
	typed := strings.ToLower(strings.ReplaceAll(c.codes["alice"], "-", ""))
	req, _ := http.NewRequest("POST", c.http.URL+"/hand-in/login", strings.NewReader(url.Values{"name": {"Alice"}, "code": {typed}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := b.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the right code: %d", resp.StatusCode)
	}
	var cookie *http.Cookie
	for _, ck := range resp.Cookies() {
		if ck.Name == cookieName {
			cookie = ck
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("session cookie %+v: want HttpOnly and SameSite=Strict", cookie)
	}
	if _, page := b.get("/hand-in/"); !strings.Contains(page, `id="game-virus"`) || !strings.Contains(page, "<h1>alice</h1>") {
		t.Errorf("alice's page after logging in:\n%s", page)
	}
	// The code is stored as a hash only: it is nowhere in the database's
	// files.
	for _, f := range []string{"judge.db", "judge.db-wal"} {
		data, _ := os.ReadFile(filepath.Join(filepath.Dir(c.subs), f))
		if bytes.Contains(data, []byte(c.codes["alice"])) {
			t.Errorf("alice's code is in %s", f)
		}
	}
}

func TestHandInFile(t *testing.T) {
	c := newClass(t, Options{}, "alice")
	b := c.student("alice")
	st, page := b.handIn("virus", "../../<img src=x onerror=alert(1)>.py", []byte(pyBot))
	if st != http.StatusSeeOther {
		t.Fatalf("hand-in: %d %s", st, page)
	}
	got, err := os.ReadFile(filepath.Join(c.subs, "virus", "alice.py"))
	if err != nil || string(got) != pyBot {
		t.Fatalf("submissions/virus/alice.py: %q, %v", got, err)
	}
	if e := c.entries("virus"); strings.Join(e, " ") != "alice.py example.py" {
		t.Errorf("virus folder: %v: the bot is named after its student, never the uploaded file", e)
	}
	if _, home := b.get("/hand-in/"); strings.Contains(home, "onerror") {
		t.Error("the uploaded file's name reached the page")
	}
	// A new version in another language replaces it; both are kept.
	st, _ = b.handIn("tictactoe", "bot.py", []byte("print('x')\n"))
	st2, _ := b.handIn("tictactoe", "bot.js", []byte("console.log('x')\n"))
	if st != http.StatusSeeOther || st2 != http.StatusSeeOther {
		t.Fatalf("hand-ins: %d %d", st, st2)
	}
	if e := c.entries("tictactoe"); strings.Join(e, " ") != "alice.js" {
		t.Errorf("tictactoe folder after a .py then a .js: %v, want alice.js alone", e)
	}
	vs := c.versions("alice", "tictactoe")
	if len(vs) != 2 || !vs[0].Current || vs[1].Current || vs[0].Ext != ".js" || vs[1].Ext != ".py" {
		t.Errorf("versions: %+v", vs)
	}
	// A version's content is kept whole.
	h, err := c.db.HandIn(context.Background(), vs[1].ID)
	if err != nil || string(h.Content) != "print('x')\n" {
		t.Errorf("the first version's content: %q %v", h.Content, err)
	}
	// A Java file keeps its class's name, in a folder named after alice.
	b.handIn("tictactoe", "Whatever.java", []byte("import java.util.*;\npublic final class Player {\n}\n"))
	if _, err := os.Stat(filepath.Join(c.subs, "tictactoe", "alice", "Player.java")); err != nil {
		t.Errorf("a Java file: %v (entries %v)", err, c.entries("tictactoe"))
	}
	// Not a bot: one line.
	if st, page := b.handIn("virus", "notes.txt", []byte("hello")); st != http.StatusBadRequest || !strings.Contains(page, "Python") {
		t.Errorf("a .txt for virus: %d", st)
	}
	if st, _ := b.handIn("nosuchgame", "a.py", []byte(pyBot)); st != http.StatusNotFound {
		t.Errorf("a game not open: %d", st)
	}
}

func TestFolderHandIn(t *testing.T) {
	c := newClass(t, Options{}, "alice")
	b := c.student("alice")
	zipped := zipOf(t, map[string]string{"mybot/run.sh": "#!/bin/sh\necho x\n", "mybot/lib/util.py": "x = 1\n"})
	if st, page := b.handIn("tictactoe", "mybot.zip", zipped); st != http.StatusSeeOther {
		t.Fatalf("a zipped folder: %d %s", st, page)
	}
	run, err := os.ReadFile(filepath.Join(c.subs, "tictactoe", "alice", "run.sh"))
	if err != nil || !strings.Contains(string(run), "echo x") {
		t.Fatalf("alice/run.sh: %q %v", run, err)
	}
	if _, err := os.Stat(filepath.Join(c.subs, "tictactoe", "alice", "lib", "util.py")); err != nil {
		t.Error(err)
	}
	// A new folder replaces the old one whole, and a file replaces a folder.
	tarred := tarOf(t, []tar.Header{{Name: "main.py", Typeflag: tar.TypeReg, Mode: 0o644, Size: 6}}, "pass\n\n")
	if st, page := b.handIn("tictactoe", "v2.tar", tarred); st != http.StatusSeeOther {
		t.Fatalf("a tar: %d %s", st, page)
	}
	if _, err := os.Stat(filepath.Join(c.subs, "tictactoe", "alice", "run.sh")); err == nil {
		t.Error("the old folder's run.sh survived the new version")
	}
	b.handIn("tictactoe", "x.py", []byte("pass\n"))
	if e := c.entries("tictactoe"); strings.Join(e, " ") != "alice.py" {
		t.Errorf("after a file replaced the folder: %v", e)
	}
}

func TestHostileUploads(t *testing.T) {
	c := newClass(t, Options{UploadsPerMinute: 100}, "alice")
	b := c.student("alice")
	bomb := func() []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, _ := zw.Create("run.sh")
		zero := make([]byte, 1<<20)
		for range 64 {
			w.Write(zero)
		}
		zw.Close()
		return buf.Bytes()
	}()
	if len(bomb) > DefaultMaxUpload {
		t.Fatalf("the bomb is %d bytes: it must pass the size limit to test the unpacking", len(bomb))
	}
	link := func() []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		h := &zip.FileHeader{Name: "run.sh"}
		h.SetMode(os.ModeSymlink | 0o777)
		w, _ := zw.CreateHeader(h)
		w.Write([]byte("/etc/passwd"))
		zw.Close()
		return buf.Bytes()
	}()
	cases := []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"zip bomb", "bomb.zip", bomb, "zip bomb"},
		{"../ path in zip", "up.zip", zipOf(t, map[string]string{"run.sh": "x", "../../evil.sh": "x"}), ".."},
		{"absolute path in zip", "abs.zip", zipOf(t, map[string]string{"run.sh": "x", "/tmp/evil.sh": "x"}), "absolute"},
		{"link in zip", "link.zip", link, "link"},
		{"link in tar", "link.tar", tarOf(t, []tar.Header{{Name: "run.sh", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}}, ""), "link"},
		{"hard link in tar", "hard.tar", tarOf(t, []tar.Header{{Name: "run.sh", Typeflag: tar.TypeLink, Linkname: "/etc/passwd"}}, ""), "link"},
		{"device in tar", "dev.tar", tarOf(t, []tar.Header{{Name: "run.sh", Typeflag: tar.TypeChar, Devmajor: 1, Devminor: 3}}, ""), "device"},
		{"../ in tar", "up.tar", tarOf(t, []tar.Header{{Name: "../run.sh", Typeflag: tar.TypeReg, Mode: 0o644, Size: 1}}, "x"), ".."},
		{"too many files", "many.zip", zipOf(t, manyFiles(MaxFiles+1)), "files"},
		{"no entry point", "none.zip", zipOf(t, map[string]string{"notes.txt": "x"}), "run.sh"},
		{"not a zip", "fake.zip", []byte("not a zip at all"), "zip"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st, page := b.handIn("tictactoe", tc.file, tc.data)
			if st != http.StatusBadRequest || !strings.Contains(page, tc.want) {
				t.Errorf("%d, want 400 saying %q:\n%s", st, tc.want, page)
			}
		})
	}
	if e := c.entries("tictactoe"); len(e) != 0 {
		t.Errorf("refused archives left %v in the game folder", e)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(c.subs), "evil.sh")); err == nil {
		t.Error("an archive wrote outside the bot's folder")
	}
	if vs := c.versions("alice", ""); len(vs) != 0 {
		t.Errorf("refused hand-ins were kept as versions: %d", len(vs))
	}

	// A 100 MB body is cut at the limit, not read to its end.
	counted := &countingReader{}
	counted.n.Store(100 << 20)
	req, _ := http.NewRequest("POST", c.http.URL+"/hand-in/game/tictactoe", counted)
	req.Header.Set("Content-Type", "multipart/form-data; boundary=x")
	req.ContentLength = -1
	st, page := b.do(req)
	if st != http.StatusRequestEntityTooLarge || !strings.Contains(page, "KiB") {
		t.Errorf("a 100 MB body: %d, want 413 with one line", st)
	}
	if read := 100<<20 - counted.n.Load(); read > 8<<20 {
		t.Errorf("the server read %d MB of a 100 MB body", read>>20)
	}
}

// countingReader sends n bytes of a multipart body that never ends; the
// client's transport reads it while the test reads n.
type countingReader struct{ n atomic.Int64 }

func (r *countingReader) Read(p []byte) (int, error) {
	left := r.n.Load()
	if left <= 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), left)
	prefix := "--x\r\nContent-Disposition: form-data; name=\"bot\"; filename=\"a.py\"\r\n\r\n"
	n := copy(p[:k], strings.Repeat("a", int(k)))
	if left == 100<<20 {
		n = copy(p, prefix)
	}
	r.n.Add(-int64(n))
	return n, nil
}

func manyFiles(n int) map[string]string {
	m := map[string]string{"run.sh": "x"}
	for i := range n {
		m[fmt.Sprintf("f%d.txt", i)] = "x"
	}
	return m
}

func zipOf(t *testing.T, files map[string]string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate}
		h.SetMode(0o755)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	zw.Close()
	return buf.Bytes()
}

func tarOf(t *testing.T, hs []tar.Header, body string) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range hs {
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write([]byte(body))
		}
	}
	tw.Close()
	return buf.Bytes()
}

func TestAnotherStudent(t *testing.T) {
	c := newClass(t, Options{Checker: &sparringChecker{}}, "alice", "bob")
	alice, bob, nobody := c.student("alice"), c.student("bob"), c.browser()
	loc := alice.location("virus", "a.py", []byte(pyBot))
	h := waitDone(t, c, "alice", 1)[0]
	rep, _ := ReadReport(h)
	if len(rep.Sparring) == 0 {
		t.Fatalf("no sparring game in %s", h.Report)
	}
	game := rep.Sparring[0].GameID
	if st, page := alice.get(loc); st != 200 || !strings.Contains(page, "alice-log-line") || !strings.Contains(page, fmt.Sprintf(`href="/game/%d"`, game)) {
		t.Errorf("alice's own version page: %d, want her log and the replay's link:\n%s", st, page)
	}
	for _, path := range []string{loc, loc + "/content", fmt.Sprintf("/api/game/%d/replay.json", game), fmt.Sprintf("/api/game/%d/record.json", game)} {
		if st, page := bob.get(path); st != http.StatusNotFound || strings.Contains(page, "alice-log-line") {
			t.Errorf("bob reads %s: %d", path, st)
		}
		if st, _ := nobody.get(path); st == http.StatusOK {
			t.Errorf("someone not logged in reads %s", path)
		}
	}
	// The replay says it is private: its page then links to no page of
	// the private tournament, which would be "not found" for her too.
	if st, page := alice.get(fmt.Sprintf("/api/game/%d/replay.json", game)); st != 200 || !strings.Contains(page, `"private":true`) {
		t.Errorf("alice cannot replay her own sparring game, or it is not said private: %d", st)
	}
	if st, page := alice.get(fmt.Sprintf("/api/game/%d/record.json", game)); st != 200 || strings.Contains(page, "alice-log-line") {
		t.Errorf("the public record of her game: %d (logs are on her page only)", st)
	}
	// Bob cannot hand in as alice, nor choose her version (she can:
	// TestChooseVersion).
	if st, _ := bob.post(loc+"/restore", "application/x-www-form-urlencoded", nil); st != http.StatusNotFound {
		t.Errorf("bob restores alice's version: %d", st)
	}
	if st, page := c.browser().get("/api/tournaments.json"); st != 200 || strings.Contains(page, `"private"`) {
		t.Errorf("the screen lists the sparring tournament: %s", page)
	}
}

func TestCrossSitePost(t *testing.T) {
	c := newClass(t, Options{}, "alice")
	b := c.student("alice")
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("bot", "a.py")
	fw.Write([]byte(pyBot))
	mw.Close()
	for _, h := range []map[string]string{{"Sec-Fetch-Site": "cross-site"}, {"Origin": "http://evil.example"}} {
		req, _ := http.NewRequest("POST", c.http.URL+"/hand-in/game/virus", bytes.NewReader(body.Bytes()))
		req.Header.Set("Content-Type", mw.FormDataContentType())
		for k, v := range h {
			req.Header.Set(k, v)
		}
		if st, _ := b.do(req); st != http.StatusForbidden {
			t.Errorf("a cross-site form post (%v) with alice's cookie: %d, want 403", h, st)
		}
	}
	if vs := c.versions("alice", ""); len(vs) != 0 {
		t.Errorf("a cross-site post handed in %d versions", len(vs))
	}
}

func TestNamesWithHTML(t *testing.T) {
	for _, n := range []string{"<script>alert(1)</script>", "a/b", `a\b`, "", "   ", "organiser", "Organiser", "a\nb", "a\x00b", "李雷"} {
		if d, f, err := ParseName(n); err == nil {
			t.Errorf("ParseName(%q) accepted it as %q, file %q", n, d, f)
		}
	}
	c := newClass(t, Options{}, "alice")
	b := c.browser()
	req, _ := http.NewRequest("POST", c.http.URL+"/hand-in/login", strings.NewReader(url.Values{"name": {"<script>alert(1)</script>"}, "code": {"x"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if st, page := b.do(req); st != http.StatusUnauthorized || strings.Contains(page, "<script>alert") {
		t.Errorf("a name with HTML: %d\n%s", st, page)
	}
}

func TestUploadsPerMinute(t *testing.T) {
	c := newClass(t, Options{UploadsPerMinute: 3}, "alice")
	b := c.student("alice")
	for i := range 3 {
		if st, _ := b.handIn("virus", "a.py", []byte(pyBot)); st != http.StatusSeeOther {
			t.Fatalf("hand-in %d: %d", i, st)
		}
	}
	if st, page := b.handIn("virus", "a.py", []byte(pyBot)); st != http.StatusTooManyRequests || !strings.Contains(page, "seconds") {
		t.Errorf("a 4th hand-in in a minute: %d", st)
	}
	later := c.now.Load().Add(time.Minute)
	c.now.Store(&later)
	if st, _ := b.handIn("virus", "a.py", []byte(pyBot)); st != http.StatusSeeOther {
		t.Errorf("a hand-in a minute later: %d", st)
	}
}

func TestDeadline(t *testing.T) {
	// Its seconds are said in every refusal, as the pages say the
	// versions' times: a version of 17:00:13 is refused after 17:00:00.
	deadline := time.Date(2030, 6, 1, 17, 0, 30, 0, time.Local)
	c := newClass(t, Options{Deadline: deadline}, "alice")
	before := deadline.Add(-time.Minute)
	c.now.Store(&before)
	org, alice := c.student(results.OrganiserName), c.student("alice")
	first := alice.location("virus", "a.py", []byte("# v1\n"+pyBot))
	after := deadline.Add(time.Second)
	c.now.Store(&after)
	st, page := alice.handIn("virus", "a.py", []byte("# late\n"+pyBot))
	if st != http.StatusForbidden || !strings.Contains(refusal(page), "2030-06-01 17:00:30") {
		t.Errorf("a hand-in after the deadline: %d, want 403 saying when it was:\n%s", st, page)
	}
	if got, _ := os.ReadFile(filepath.Join(c.subs, "virus", "alice.py")); !strings.HasPrefix(string(got), "# v1") {
		t.Errorf("the bot after a late hand-in: %q", got)
	}
	// A version handed in after the deadline (the server ran without one
	// then) is neither played nor restored.
	late, err := c.db.AddHandIn(context.Background(), results.HandIn{StudentID: c.versions("alice", "virus")[0].StudentID, Game: "virus", At: after, Kind: "file", Ext: ".py", Content: []byte("# late\n")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	c.srv.makeCurrent(context.Background(), "alice", late)
	if n, err := c.srv.EnforceDeadline(context.Background()); n != 1 || err != nil {
		t.Errorf("EnforceDeadline: %d, %v", n, err)
	}
	if got, _ := os.ReadFile(filepath.Join(c.subs, "virus", "alice.py")); !strings.HasPrefix(string(got), "# v1") {
		t.Errorf("the bot after EnforceDeadline: %q, want the last version before the deadline", got)
	}
	if st, page := org.post(fmt.Sprintf("/hand-in/v/%d/restore", late.ID), "application/x-www-form-urlencoded", nil); st != http.StatusForbidden || !strings.Contains(refusal(page), "2030-06-01 17:00:30") {
		t.Errorf("restoring a version from after the deadline: %d, want 403 saying when it was:\n%s", st, page)
	}
	if st, _ := org.post(first+"/restore", "application/x-www-form-urlencoded", nil); st != http.StatusSeeOther {
		t.Errorf("restoring a version from before the deadline: %d", st)
	}
}

func TestOrganiser(t *testing.T) {
	c := newClass(t, Options{}, "alice", "bob")
	alice, org := c.student("alice"), c.student(results.OrganiserName)
	v1 := alice.location("virus", "a.py", []byte("# v1\n"+pyBot))
	alice.location("virus", "a.py", []byte("# v2\n"+pyBot))
	st, page := org.get("/hand-in/")
	if st != 200 || !strings.Contains(page, ">alice</a>") || !strings.Contains(page, ">bob</a>") || !strings.Contains(page, "2 versions") {
		t.Fatalf("the organiser's page: %d\n%s", st, page)
	}
	if st, page := org.get(v1 + "/content"); st != 200 || !strings.HasPrefix(page, "# v1") {
		t.Errorf("the organiser downloads version 1: %d %q", st, page)
	}
	if st, _ := org.post(v1+"/restore", "application/x-www-form-urlencoded", nil); st != http.StatusSeeOther {
		t.Fatalf("restore: %d", st)
	}
	if got, _ := os.ReadFile(filepath.Join(c.subs, "virus", "alice.py")); !strings.HasPrefix(string(got), "# v1") {
		t.Errorf("after restoring version 1: %q", got)
	}
	if vs := c.versions("alice", "virus"); len(vs) != 2 || vs[0].Current || !vs[1].Current {
		t.Errorf("after restoring, versions: %+v", vs)
	}
	if st, _ := org.handIn("virus", "a.py", []byte(pyBot)); st != http.StatusNotFound {
		t.Errorf("the organiser hands in: %d", st)
	}
}

// sparringChecker stands for the sandbox: it records one sparring game
// per version, as the real one does, and prints a log.
type sparringChecker struct{ db *results.DB }

func (f *sparringChecker) Check(ctx context.Context, h results.HandIn, update func(string, Report)) (Report, error) {
	t, err := f.db.PrivateTournament(ctx, h.Game, json.RawMessage(`{"sparring":true}`))
	if err != nil {
		return Report{}, err
	}
	me, err := f.db.AddBot(ctx, results.Bot{Game: h.Game, Name: h.Student, SHA256: h.SHA256, Path: h.Student + ".py"})
	if err != nil {
		return Report{}, err
	}
	ex, err := f.db.AddBot(ctx, results.Bot{Game: h.Game, Name: "example", SHA256: "e", Path: "example.py"})
	if err != nil {
		return Report{}, err
	}
	g := results.Game{TournamentID: t.ID, Key: fmt.Sprintf("handin-%d", h.ID), Reason: "over", Image: "fake",
		Players: []results.Player{{Seat: 0, BotID: me.ID, Rank: 1, Log: h.Student + "-log-line"}, {Seat: 1, BotID: ex.ID, Rank: 2}}}
	id, err := f.db.SaveSparring(ctx, h.ID, g)
	if err != nil {
		return Report{}, err
	}
	return Report{Ready: true, FirstMS: 3, Moves: 1, End: "over", Log: h.Student + "-log-line",
		Sparring: []Spar{{GameID: id, Opponents: []string{"example"}, Result: "win", Reason: "over"}}}, nil
}

// fakeChecker counts the checks running at once.
type fakeChecker struct {
	running, most, done atomic.Int32
	mu                  sync.Mutex
	seen                map[int64]int
}

func (f *fakeChecker) Check(ctx context.Context, h results.HandIn, update func(string, Report)) (Report, error) {
	n := f.running.Add(1)
	defer f.running.Add(-1)
	for {
		m := f.most.Load()
		if n <= m || f.most.CompareAndSwap(m, n) {
			break
		}
	}
	update(results.StatusPlaying, Report{})
	time.Sleep(2 * time.Millisecond)
	f.mu.Lock()
	f.seen[h.ID]++
	f.mu.Unlock()
	f.done.Add(1)
	return Report{Ready: true}, nil
}

func waitDone(t *testing.T, c *class, name string, n int) []results.HandIn {
	t.Helper()
	return waitDoneWithin(t, c, name, n, 10*time.Second)
}

func waitDoneWithin(t *testing.T, c *class, name string, n int, limit time.Duration) []results.HandIn {
	t.Helper()
	for end := time.Now().Add(limit); time.Now().Before(end); {
		vs := c.versions(name, "")
		done := 0
		for _, v := range vs {
			if v.Status == results.StatusDone {
				done++
			}
		}
		if done >= n {
			return vs
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s: checks not done", name)
	return nil
}

func TestThirtyAtOnce(t *testing.T) {
	names := make([]string, 30)
	for i := range names {
		names[i] = fmt.Sprintf("student%02d", i)
	}
	fc := &fakeChecker{seen: map[int64]int{}}
	c := newClass(t, Options{Checker: fc, Workers: 2}, names...)
	var wg sync.WaitGroup
	for i, n := range names {
		b := c.student(n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range 3 {
				if st, _ := b.handIn("virus", "bot.py", []byte(fmt.Sprintf("# %s v%d\n%s", n, v, pyBot))); st != http.StatusSeeOther {
					t.Errorf("%s v%d (%d): %d", n, v, i, st)
				}
			}
		}()
	}
	wg.Wait()
	for _, n := range names {
		vs := waitDone(t, c, n, 3)
		if len(vs) != 3 {
			t.Errorf("%s: %d versions kept, want 3", n, len(vs))
			continue
		}
		got, _ := os.ReadFile(filepath.Join(c.subs, "virus", n+".py"))
		if !strings.HasPrefix(string(got), fmt.Sprintf("# %s v2", n)) || !vs[0].Current {
			t.Errorf("%s's bot: %q, want the last version", n, got)
		}
	}
	if got := fc.done.Load(); got != 90 {
		t.Errorf("%d checks done, want 90", got)
	}
	for id, k := range fc.seen {
		if k != 1 {
			t.Errorf("version %d checked %d times", id, k)
		}
	}
	if m := fc.most.Load(); m > 2 {
		t.Errorf("%d checks at once, want at most the 2 workers", m)
	}
	if e := c.entries("virus"); len(e) != 31 {
		t.Errorf("virus folder holds %d entries, want 30 bots and the example", len(e))
	}
}

func TestFrench(t *testing.T) {
	for k := range words["en"] {
		if words["fr"][k] == "" {
			t.Errorf("no French for %q", k)
		}
	}
	c := newClass(t, Options{}, "alice")
	b := c.student("alice")
	req, _ := http.NewRequest("GET", c.http.URL+"/hand-in/", nil)
	req.Header.Set("Accept-Language", "fr-FR,fr;q=0.9,en;q=0.5")
	if _, page := b.do(req); !strings.Contains(page, `lang="fr"`) || !strings.Contains(page, "Rendre") {
		t.Errorf("the page in French:\n%s", page)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("bot", "bomb.zip")
	fw.Write(zipOf(t, map[string]string{"../x": "x"}))
	mw.Close()
	req, _ = http.NewRequest("POST", c.http.URL+"/hand-in/game/tictactoe", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept-Language", "fr")
	if st, page := b.do(req); st != http.StatusBadRequest || !strings.Contains(page, "hors du dossier de votre bot") {
		t.Errorf("a refusal in French: %d\n%s", st, page)
	}
}

func TestClashes(t *testing.T) {
	c := newClass(t, Options{}, "example", "alice")
	got, err := c.srv.Clashes(context.Background())
	if err != nil || len(got) != 1 || !strings.Contains(got[0], "example.py: example is on the roster") {
		t.Fatalf("clashes: %q %v", got, err)
	}
	c.student("example").handIn("virus", "a.py", []byte(pyBot))
	if got, _ := c.srv.Clashes(context.Background()); len(got) != 0 {
		t.Errorf("after example's own hand-in: %q", got)
	}
}

// TestQueuedOnce: a version handed in while the queue starts is added by
// its hand-in and found queued in the database by the queue's start: it is
// checked once, not twice (the second check found its sparring games
// stored already and reported none; TestEveryGame failed so in CI).
func TestQueuedOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db, err := results.Open(filepath.Join(t.TempDir(), "judge.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, err := db.AddStudent(ctx, "alice", results.HashCode(NewCode()), false)
	if err != nil {
		t.Fatal(err)
	}
	h, err := db.AddHandIn(ctx, results.HandIn{StudentID: st.ID, Game: "virus", Kind: "file", Ext: ".py", Content: []byte("def ia(game, side):\n    return None\n")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	fc := &fakeChecker{seen: map[int64]int{}}
	q := newQueue(db, fc, log.New(io.Discard, "", 0))
	q.add(h.ID) // as the hand-in does, before the queue has started
	done := make(chan struct{})
	go func() {
		q.run(ctx, 2)
		close(done)
	}()
	for end := time.Now().Add(time.Minute); fc.done.Load() == 0 && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // a second check would have started by now
	cancel()
	<-done
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if fc.seen[h.ID] != 1 {
		t.Errorf("the version was checked %d times, want once", fc.seen[h.ID])
	}
	q.add(h.ID) // once checked, it may be queued again
	if len(q.waiting) != 1 {
		t.Errorf("a version checked already cannot be queued again: %v", q.waiting)
	}
}
