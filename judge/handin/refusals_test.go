package handin

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
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

// refusal is the line of a refusal's page.
func refusal(page string) string {
	_, line, _ := strings.Cut(page, `id="refused">`)
	line, _, _ = strings.Cut(line, "</p>")
	return line
}
