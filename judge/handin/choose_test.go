package handin

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"botjudge/results"
)

const zoe = "Zoé Martin-O'Neil"

// TestSchoolNames: a student on the roster as the school writes her name
// logs in with it, or with her bot's name, in any case, with or without
// accents; every page shows her name as written, and her bot is named
// after its file name.
func TestSchoolNames(t *testing.T) {
	c := newClass(t, Options{}, zoe, "alice")
	for _, typed := range []string{zoe, "zoe-martin-o-neil", "ZOÉ MARTIN-O'NEIL", "zoe martin o'neil", " Zoé  Martin O’Neil "} {
		if st := c.browser().logIn(typed, c.codes[zoe]); st != http.StatusSeeOther {
			t.Errorf("Zoé logs in as %q: %d", typed, st)
		}
	}
	for _, typed := range []string{"Zoé Martin", "alice", "zoe"} {
		if st := c.browser().logIn(typed, c.codes[zoe]); st != http.StatusUnauthorized {
			t.Errorf("Zoé's code under %q: %d, want 401", typed, st)
		}
	}
	b := c.student(zoe)
	const shown = "Zoé Martin-O&#39;Neil" // as html/template writes it
	if _, home := b.get("/hand-in/"); !strings.Contains(home, "<h1>"+shown+"</h1>") || !strings.Contains(home, `<span class="me">`+shown+`</span>`) ||
		!strings.Contains(home, "zoe-martin-o-neil") {
		t.Errorf("Zoé's page does not show her name as written and her bot's:\n%s", home)
	}
	v := b.location("virus", "my bot.py", []byte(pyBot))
	if got, err := os.ReadFile(filepath.Join(c.subs, "virus", "zoe-martin-o-neil.py")); err != nil || string(got) != pyBot {
		t.Errorf("her bot: %q %v (folder: %v)", got, err, c.entries("virus"))
	}
	if _, page := b.get(v); !strings.Contains(page, "Version of "+shown) {
		t.Errorf("her version's page:\n%s", page)
	}
	org := c.student(results.OrganiserName)
	if _, page := org.get("/hand-in/"); !strings.Contains(page, ">"+shown+"</a>") || !strings.Contains(page, `<span class="dim">zoe-martin-o-neil</span>`) {
		t.Errorf("the organiser's table:\n%s", page)
	}
	if _, page := org.get(v); !strings.Contains(page, "Version of "+shown) {
		t.Errorf("her version's page for the organiser:\n%s", page)
	}
	if st, page := org.get(v + "/content"); st != 200 || page != pyBot {
		t.Errorf("her version's download: %d %q", st, page)
	}
}

// verdictChecker finds a version NOT READY when it says "broken".
type verdictChecker struct{}

func (verdictChecker) Check(ctx context.Context, h results.HandIn, update func(string, Report)) (Report, error) {
	if strings.Contains(string(h.Content), "broken") {
		return Report{FirstMS: 1, Moves: 3, End: "over", Faults: []ReportFault{{Move: 2, Verdict: "crash", Reason: "NameError"}}}, nil
	}
	return Report{Ready: true, FirstMS: 1, Moves: 3, End: "over"}, nil
}

// TestChooseVersion: a NOT READY hand-in is said to be what the tournament
// plays, in red, never "checked · in the tournament" in green; the student
// puts back an earlier version that works, until the deadline; the
// organiser is warned before choosing a version that is NOT READY.
func TestChooseVersion(t *testing.T) {
	deadline := time.Now().Add(time.Hour)
	c := newClass(t, Options{Checker: verdictChecker{}, Deadline: deadline}, "alice", "bob")
	alice, bob, org := c.student("alice"), c.student("bob"), c.student(results.OrganiserName)
	v1 := alice.location("virus", "a.py", []byte("# works\n"+pyBot))
	waitDone(t, c, "alice", 1)
	v2 := alice.location("virus", "a.py", []byte("# broken\n"+pyBot))
	waitDone(t, c, "alice", 2)

	_, home := alice.get("/hand-in/")
	plays := regexp.MustCompile(`(?s)<p class="plays ([a-z]*)" id="plays-virus">(.*?)</p>`).FindStringSubmatch(home)
	if plays == nil || plays[1] != "broken" || !strings.Contains(plays[2], "NOT READY") {
		t.Errorf("what the tournament plays, on alice's page: %q\n%s", plays, home)
	}
	if !strings.Contains(home, `<strong class="current broken">in the tournament</strong>`) || !strings.Contains(home, `class="status done broken"`) {
		t.Errorf("her NOT READY version in the list is not marked so:\n%s", home)
	}
	if _, page := alice.get(v2); !strings.Contains(page, `<p class="plays broken" id="plays">`) || strings.Contains(page, `class="choose"`) {
		t.Errorf("the NOT READY version in the tournament, its page:\n%s", page)
	}
	_, page := alice.get(v1)
	if !strings.Contains(page, "Not in the tournament, which plays the version of") || !strings.Contains(page, `class="choose"`) || strings.Contains(page, `id="warn"`) {
		t.Errorf("her working version's page: no way to choose it:\n%s", page)
	}
	if st, _ := bob.post(v1+"/restore", "application/x-www-form-urlencoded", nil); st != http.StatusNotFound {
		t.Errorf("bob chooses alice's version: %d, want 404", st)
	}
	if st, page := alice.post(v1+"/restore", "application/x-www-form-urlencoded", nil); st != http.StatusSeeOther {
		t.Fatalf("alice chooses her working version: %d\n%s", st, page)
	}
	if got, _ := os.ReadFile(filepath.Join(c.subs, "virus", "alice.py")); !strings.HasPrefix(string(got), "# works") {
		t.Errorf("alice's bot after she chose version 1: %q", got)
	}
	if _, home := alice.get("/hand-in/"); !strings.Contains(home, `<p class="plays ready" id="plays-virus">`) {
		t.Errorf("alice's page after her choice:\n%s", home)
	}
	// Choosing the NOT READY one again, the student and the organiser are
	// warned.
	for who, b := range map[string]*browser{"alice": alice, "the organiser": org} {
		if _, page := b.get(v2); !strings.Contains(page, `<p class="bad" id="warn">This version is NOT READY`) {
			t.Errorf("%s is not warned before choosing a NOT READY version:\n%s", who, page)
		}
	}
	if _, page := org.get("/hand-in/"); !strings.Contains(page, `<strong class="current ready">in the tournament</strong>: <a href="`+v1+`">`) {
		t.Errorf("the organiser's table does not say which version plays:\n%s", page)
	}
	after := deadline.Add(time.Minute)
	c.now.Store(&after)
	st, page := alice.post(v2+"/restore", "application/x-www-form-urlencoded", nil)
	if st != http.StatusForbidden || !strings.Contains(page, "can no longer change") {
		t.Errorf("alice chooses after the deadline: %d, want 403 and one line\n%s", st, page)
	}
	if _, page := alice.get(v2); strings.Contains(page, `class="choose"`) {
		t.Error("after the deadline, alice's page still offers to choose")
	}
	if got, _ := os.ReadFile(filepath.Join(c.subs, "virus", "alice.py")); !strings.HasPrefix(string(got), "# works") {
		t.Errorf("alice's bot after a choice past the deadline: %q", got)
	}
	if vs := c.versions("alice", "virus"); len(vs) != 2 || vs[0].Current || !vs[1].Current {
		t.Errorf("versions: %+v", vs)
	}
}
