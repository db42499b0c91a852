package handin

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"botjudge/results"
)

// TestCrossSiteRefusedInWords: a cross-site post is refused with the
// judge's own page, in the reader's language, not Go's English line.
func TestCrossSiteRefusedInWords(t *testing.T) {
	c := newClass(t, Options{}, "alice")
	b := c.student("alice")
	for lang, want := range map[string]string{"fr": "vient de la page d&#39;un autre site", "en": "came from another site&#39;s page"} {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		fw, _ := mw.CreateFormFile("bot", "a.py")
		fw.Write([]byte(pyBot))
		mw.Close()
		req, _ := http.NewRequest("POST", c.http.URL+"/hand-in/game/virus", &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.Header.Set("Accept-Language", lang)
		st, page := b.do(req)
		if st != http.StatusForbidden || !strings.Contains(page, `id="refused"`) || !strings.Contains(page, want) {
			t.Errorf("a cross-site hand-in read in %s: %d\n%s", lang, st, page)
		}
	}
}

// TestDeadlineToTheSecond: the refusals say the deadline to the second, as
// the pages say the versions' times.
func TestDeadlineToTheSecond(t *testing.T) {
	deadline := time.Date(2030, 6, 1, 17, 0, 30, 0, time.Local)
	c := newClass(t, Options{Deadline: deadline}, "alice")
	before := deadline.Add(-time.Minute)
	c.now.Store(&before)
	org, alice := c.student(results.OrganiserName), c.student("alice")
	if _, page := alice.get("/hand-in/"); !strings.Contains(page, "2030-06-01 17:00:30") {
		t.Errorf("alice's page does not say the deadline to the second:\n%s", page)
	}
	after := deadline.Add(13 * time.Second)
	c.now.Store(&after)
	if st, page := alice.handIn("virus", "a.py", []byte(pyBot)); st != http.StatusForbidden || !strings.Contains(refusal(page), "2030-06-01 17:00:30") {
		t.Errorf("a hand-in at 17:00:43: %d, want 403 saying the deadline to the second:\n%s", st, page)
	}
	late, err := c.db.AddHandIn(t.Context(), results.HandIn{StudentID: c.studentID("alice"), Game: "virus", At: after, Kind: "file", Ext: ".py", Content: []byte(pyBot)})
	if err != nil {
		t.Fatal(err)
	}
	if st, page := org.post(fmt.Sprintf("/hand-in/v/%d/restore", late.ID), "application/x-www-form-urlencoded", nil); st != http.StatusForbidden || !strings.Contains(refusal(page), "2030-06-01 17:00:30") {
		t.Errorf("restoring a version from after the deadline: %d, want 403 saying the deadline to the second:\n%s", st, page)
	}
}

// refusal is the line of a refusal's page.
func refusal(page string) string {
	_, line, _ := strings.Cut(page, `id="refused">`)
	line, _, _ = strings.Cut(line, "</p>")
	return line
}

func (c *class) studentID(name string) int64 {
	c.t.Helper()
	sts, err := c.db.Students(c.t.Context())
	if err != nil {
		c.t.Fatal(err)
	}
	for _, st := range sts {
		if st.Name == name {
			return st.ID
		}
	}
	c.t.Fatalf("no student %s", name)
	return 0
}
