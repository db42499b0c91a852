package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"botjudge/judge/contest"
	"botjudge/results"
	"botjudge/sandbox"
)

func TestRosterCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "j.db")
	csv := filepath.Join(dir, "class.csv")
	os.WriteFile(csv, []byte("name,group\ncarol,A\n\nZoé,B\n"), 0o644)
	sheet := filepath.Join(dir, "slips.html")
	code, out, errs := judge(t, "roster", "add", "--db", db, "--csv", csv, "--sheet", sheet, "alice", "bob")
	if code != 0 {
		t.Fatalf("roster add: %d %s", code, errs)
	}
	codes := slipCodes(out)
	if len(codes) != 5 || codes["organiser"] == "" || codes["Zoé"] == "" {
		t.Fatalf("codes printed: %v\n%s", codes, out)
	}
	html, _ := os.ReadFile(sheet)
	for n, c := range codes {
		if !strings.Contains(string(html), c) || !strings.Contains(string(html), n) {
			t.Errorf("the sheet lacks %s's slip", n)
		}
	}
	if code, _, errs := judge(t, "roster", "add", "--db", db, "alice"); code != 0 || !strings.Contains(errs, "already on the roster") {
		t.Errorf("adding alice twice: %d %q", code, errs)
	}
	if code, _, errs := judge(t, "roster", "add", "--db", db, "<b>x</b>"); code != 2 || !strings.Contains(errs, "letters, digits") {
		t.Errorf("a name with HTML: %d %q", code, errs)
	}
	if code, _, errs := judge(t, "roster", "reset", "--db", db, "dave"); code != 1 || !strings.Contains(errs, "not on the roster") {
		t.Errorf("reset of a name not on the roster: %d %q", code, errs)
	}
	code, out, _ = judge(t, "roster", "reset", "--db", db, "alice")
	again := slipCodes(out)
	if code != 0 || again["alice"] == "" || again["alice"] == codes["alice"] {
		t.Fatalf("reset: %d %s", code, out)
	}
	d, err := results.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.LogIn(context.Background(), "alice", results.HashCode(again["alice"])); err != nil {
		t.Errorf("alice's new code: %v", err)
	}
	if _, err := d.LogIn(context.Background(), "alice", results.HashCode(codes["alice"])); err == nil {
		t.Error("alice's old code still logs in")
	}
	code, out, _ = judge(t, "roster", "--db", db)
	if code != 0 || !strings.Contains(out, "alice") || !strings.Contains(out, "carol") || strings.Contains(out, "organiser") {
		t.Errorf("judge roster: %d\n%s", code, out)
	}
}

// TestRosterSchoolNames: names as the school writes them, given on the
// command line or in the class list a school's system exports; a name that
// would make the same bot as another is refused with one line, nothing
// added; `judge roster` says what the tournament plays.
func TestRosterSchoolNames(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "j.db")
	class := filepath.Join(dir, "classe.csv")
	os.WriteFile(class, []byte("\uFEFFNom;Prénom;Classe\r\n\"Le Guen\";\"Maël\";\"2nde 3; latin\"\r\nŒuvray;Éloïse;2nde 3\r\n"), 0o644)
	code, out, errs := judge(t, "roster", "add", "--db", db, "--csv", class, "Zoé Martin-O'Neil")
	codes := slipCodes(out)
	if code != 0 || len(codes) != 4 || codes["Maël Le Guen"] == "" || codes["Éloïse Œuvray"] == "" ||
		!regexp.MustCompile(`(?m)^Zoé Martin-O'Neil +zoe-martin-o-neil +[A-Z0-9-]{14}$`).MatchString(out) {
		t.Fatalf("roster add: %d %q\n%s", code, errs, out)
	}
	count := func() int {
		d, err := results.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		sts, _ := d.Students(context.Background())
		return len(sts)
	}
	clash := filepath.Join(dir, "clash.csv")
	os.WriteFile(clash, []byte("name\nLucas Martin\nLucas Martin\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"Zoe Martin-O'Neil"}, `"Zoe Martin-O'Neil" and "Zoé Martin-O'Neil" (already on the roster) would both be the bot zoe-martin-o-neil`},
		{[]string{"--csv", clash, "Paul"}, `"Lucas Martin" (` + clash + ` line 3) and "Lucas Martin" (` + clash + ` line 2) would both be the bot lucas-martin`},
		{[]string{"李雷"}, "no Latin letter"},
	} {
		code, out, errs := judge(t, append([]string{"roster", "add", "--db", db}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 || out != "" {
			t.Errorf("roster add %q: %d %q, want one line saying %q", c.args, code, errs, c.want)
		}
	}
	if n := count(); n != 3 {
		t.Errorf("%d students after the refusals, want the 3 first", n)
	}
	// The same class list again adds no one.
	if code, out, errs := judge(t, "roster", "add", "--db", db, "--csv", class); code != 0 || len(slipCodes(out)) != 0 || strings.Count(errs, "already on the roster") != 2 {
		t.Errorf("the class list again: %d %q\n%s", code, errs, out)
	}
	// A lost code: the name as the student types it.
	code, out, _ = judge(t, "roster", "reset", "--db", db, "zoe martin o'neil")
	if again := slipCodes(out); code != 0 || again["Zoé Martin-O'Neil"] == "" || again["Zoé Martin-O'Neil"] == codes["Zoé Martin-O'Neil"] {
		t.Errorf("reset: %d\n%s", code, out)
	}
	// Zoé's last version is NOT READY, her first is the one she chose.
	d, err := results.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := d.StudentNamed(context.Background(), "zoe-martin-o-neil")
	first := time.Date(2030, 1, 2, 10, 2, 0, 0, time.Local)
	for i, ready := range []bool{true, false} {
		h, _ := d.AddHandIn(context.Background(), results.HandIn{StudentID: st.ID, Game: "virus", At: first.Add(time.Duration(i) * 3 * time.Minute), Kind: "file", Ext: ".py", Content: []byte{byte(i)}}, 0)
		d.SetStatus(context.Background(), h.ID, results.StatusDone, []byte(fmt.Sprintf(`{"ready":%v}`, ready)))
		if ready {
			d.SetCurrent(context.Background(), h)
		}
	}
	d.Close()
	code, out, _ = judge(t, "roster", "--db", db)
	if code != 0 || !regexp.MustCompile(`(?m)^Zoé Martin-O'Neil +zoe-martin-o-neil +plays 01-02 10:02 READY \(last 01-02 10:05 NOT READY\), 2 versions$`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^Maël Le Guen +mael-le-guen +-$`).MatchString(out) {
		t.Errorf("judge roster:\n%s", out)
	}
}

func TestServeHandInFlags(t *testing.T) {
	db := filepath.Join(t.TempDir(), "j.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--db", db, "--hand-in", "--deadline", "tomorrow"}, `--deadline "tomorrow": give a date and time`},
		{[]string{"serve", "--db", db, "--deadline", "2030-01-01 10:00"}, "are for --hand-in"},
		{[]string{"serve", "--db", db, "--hand-in", "--cert", "c.pem"}, "give both --cert and --key"},
		{[]string{"serve", "--db", db, "--hand-in", "--games", "chess"}, `unknown game "chess"`},
		{[]string{"serve", "--db", db, "--hand-in", "--submissions", filepath.Join("..", "submissions"), "--quota", "0"}, "--quota, --checks and --arena-parallel take a number above 0"},
		// Student code never runs outside the sandbox.
		{[]string{"serve", "--db", db, "--hand-in", "--sandbox", "none"}, "--hand-in runs the students' code: it needs --sandbox docker, never --sandbox none"},
		{[]string{"serve", "--db", db, "--hand-in", "--sandbox=none", "--deadline", "2030-01-01 10:00"}, "it needs --sandbox docker"},
		{[]string{"serve", "--db", db, "--hand-in", "--allow-url-bots"}, "drop --allow-url-bots"},
	} {
		if code, _, errs := judge(t, c.args...); code != 2 || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("judge %s: %d %q, want 2 and one line saying %q", strings.Join(c.args, " "), code, errs, c.want)
		}
		if _, err := os.Stat(db); err == nil {
			t.Fatalf("judge %s opened the database before refusing", strings.Join(c.args, " "))
		}
	}
}

// TestHandInThenRun is the organiser's day end to end, with plain
// processes for speed: judge roster add, judge serve --hand-in over HTTPS,
// a student hands in, and judge run plays the version handed in.
func TestHandInThenRun(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "j.db")
	subs := filepath.Join(dir, "submissions")
	os.MkdirAll(filepath.Join(subs, "virus"), 0o755)
	for _, ex := range []string{"first_cell.py", "greedy.py"} {
		data, _ := os.ReadFile(filepath.Join("..", "submissions", "virus", ex))
		os.WriteFile(filepath.Join(subs, "virus", ex), data, 0o644)
	}
	// The wiring is under test, not the sandbox: plain processes stand in
	// for Docker, which --hand-in --sandbox none may not ask for.
	defer func(open func(context.Context, []string, io.Writer) (contest.Runner, string, func(), error)) {
		dockerRunner = open
	}(dockerRunner)
	dockerRunner = func(context.Context, []string, io.Writer) (contest.Runner, string, func(), error) {
		return sandbox.NewLocal(), "none", func() {}, nil
	}
	_, out, _ := judge(t, "roster", "add", "--db", db, "alice")
	code := slipCodes(out)["alice"]
	cert, key := selfSigned(t, dir)

	ctx, stop := context.WithCancel(context.Background())
	var sout, serr syncBuffer
	done := make(chan int)
	go func() {
		done <- runMain(ctx, []string{"serve", "--db", db, "--hand-in", "--submissions", subs, "--addr", "127.0.0.1:0",
			"--cert", cert, "--key", key, "--deadline", time.Now().Add(time.Hour).Format("2006-01-02 15:04")}, &sout, &serr)
	}()
	var base string
	for i := 0; i < 200 && base == ""; i++ {
		if m := regexp.MustCompile(`Hand-in open at (https://\S+)/hand-in/`).FindStringSubmatch(sout.String()); m != nil {
			base = m[1]
		}
		time.Sleep(20 * time.Millisecond)
	}
	if base == "" {
		stop()
		t.Fatalf("judge serve did not start: %s %s", sout.String(), serr.String())
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.PostForm(base+"/hand-in/login", url.Values{"name": {"alice"}, "code": {code}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || len(resp.Cookies()) == 0 || !resp.Cookies()[0].Secure {
		t.Fatalf("log-in over HTTPS: %d, cookies %v: want a Secure cookie", resp.StatusCode, resp.Cookies())
	}
	greedy, _ := os.ReadFile(filepath.Join("..", "submissions", "virus", "greedy.py"))
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("bot", "whatever.py")
	fw.Write(append([]byte("# alice's\n"), greedy...))
	mw.Close()
	req, _ := http.NewRequest("POST", base+"/hand-in/game/virus", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if resp, err = client.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("hand-in: %d", resp.StatusCode)
	}
	// A check and its sparring games take seconds on an idle machine, and
	// minutes on a loaded one.
	for end := time.Now().Add(3 * time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if _, out, _ := judge(t, "roster", "--db", db); readyOnce.MatchString(out) {
			break
		}
	}
	stop()
	if c := <-done; c != 0 {
		t.Fatalf("judge serve: exit %d: %s", c, serr.String())
	}
	if _, out, _ := judge(t, "roster", "--db", db); !readyOnce.MatchString(out) {
		t.Errorf("judge roster after the check:\n%s", out)
	}
	c, out, errs := judge(t, "run", "--db", db, "--sandbox", "none", "--submissions", subs, "virus")
	if c != 0 || !regexp.MustCompile(`(?m)^\s*\d+\s+alice\b`).MatchString(out) {
		t.Errorf("judge run after the hand-in: %d\n%s\n%s", c, out, errs)
	}
}

// readyOnce is `judge roster`'s cell of a student's one version, READY
// and in the tournament.
var readyOnce = regexp.MustCompile(`plays [0-9-]+ [0-9:]+ READY, 1 version\b`)

// slipCodes reads the codes `judge roster add` printed, by name as
// written.
func slipCodes(out string) map[string]string {
	codes := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^(.+?) {3,}(\S+) {3,}([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})$`).FindAllStringSubmatch(out, -1) {
		codes[m[1]] = m[3]
	}
	return codes
}

// selfSigned writes a certificate and key for 127.0.0.1.
func selfSigned(t *testing.T, dir string) (cert, key string) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "judge"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kder, _ := x509.MarshalECPrivateKey(k)
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
	return cert, key
}
