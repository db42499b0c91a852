package handin

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"botjudge/judge/screen"
	"botjudge/results"
)

// Progress is where a version's check stands, as its page shows it.
type Progress struct {
	Status string `json:"status"`
	Text   string `json:"text"`
	// Done is true once the check has ended: the page then shows its report.
	Done bool `json:"done"`
}

// progressOf says in lang where h's check stands and how long it has taken.
func progressOf(lang string, h results.HandIn, now time.Time) Progress {
	p := Progress{Status: h.Status}
	took := since(now.Sub(h.At))
	switch h.Status {
	case results.StatusStored, results.StatusQueued:
		// A version being installed waits for its check as a queued one does.
		p.Text = fmt.Sprintf(word(lang, "progress.queued"), took)
	case results.StatusChecking:
		p.Text = fmt.Sprintf(word(lang, "progress.checking"), took)
	case results.StatusPlaying:
		rep, _ := ReadReport(h)
		p.Text = fmt.Sprintf(word(lang, counted(lang, "progress.playing", len(rep.Sparring))), len(rep.Sparring), took)
	default:
		p.Done = true
	}
	return p
}

// since is a duration as a student reads it: seconds, or minutes and
// seconds.
func since(d time.Duration) string {
	d = max(d, 0).Round(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%d s", int(d.Seconds()))
	}
	return fmt.Sprintf("%d min %02d s", int(d.Minutes()), int(d.Seconds())%60)
}

// eventsPoll is how often a version's events look at its check.
const eventsPoll = 500 * time.Millisecond

// serveVersionEvents streams a version's check as it goes (Server-Sent
// Events, as the screen's pages follow a tournament): an event whenever
// what its page would say changes, the last one when the check has ended.
// The page updates its progress line from them and reloads only at the end.
func (s *Server) serveVersionEvents(w http.ResponseWriter, r *http.Request) {
	h, _, ok := s.version(w, r)
	if !ok {
		return
	}
	flush, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	lang, last := screen.Language(r), ""
	tick := time.NewTicker(eventsPoll)
	defer tick.Stop()
	for {
		p := progressOf(lang, h, s.opt.Now())
		if b, _ := json.Marshal(p); string(b) != last {
			last = string(b)
			fmt.Fprintf(w, "data: %s\n\n", b)
			if flush != nil {
				flush.Flush()
			}
		}
		if p.Done {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
		var err error
		if h, err = s.db.HandIn(r.Context(), h.ID); err != nil {
			return // gone, or the server stops: the page keeps its last line
		}
	}
}
