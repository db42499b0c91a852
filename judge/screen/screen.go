// Package screen is the judge's web screen: the standings, the crosstable,
// the replays, the live games and a presentation mode for the classroom's
// projector, read from the results database, plus the bot pages where a
// student finds out why their bot lost.
//
// Everything is served from the judge binary (the HTML, CSS and JavaScript
// are embedded, written by hand, with no font or script from elsewhere) so
// that it works offline. Replays are computed here by feeding the stored
// answers to the rules again, so a page draws the rules' own views and its
// last frame is the stored result. The database may be written by a `judge
// run` in another process: the server polls it while someone watches and
// pushes the changes as server-sent events.
package screen

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"html/template"
	"io/fs"
	"log"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"botjudge/judge/arena"
	"botjudge/results"
)

//go:embed assets
var assets embed.FS

// Server serves the screen of one results database.
type Server struct {
	db   *results.DB
	mux  *http.ServeMux
	page *template.Template
	hub  *hub
	log  *log.Logger
	opt  Options
}

// Options tune a Server; zero fields take their defaults.
type Options struct {
	// Poll is how often the database is read for changes while a page is
	// open; 0 means 500 ms.
	Poll time.Duration
	// Log receives the server's own errors; nil means the standard logger.
	Log *log.Logger
	// HideLogs keeps what bots printed (and their error text) off every
	// page and export: with hand-in on, a student's log is theirs alone.
	HideLogs bool
	// MayRead says whether the request may see a game of a private
	// tournament (a hand-in's sparring game): its student, or the
	// organiser. nil lets nobody.
	MayRead func(r *http.Request, gameID int64) bool
	// Viewer is the roster's student whose session made r (ok false for
	// nobody's, or the organiser's): the arena's ladder marks their row.
	// nil knows nobody.
	Viewer func(r *http.Request) (student int64, ok bool)
	// ArenaNames names the students on the arena's ladder and in the
	// replays of its games: their names (the zero value) or pseudonyms.
	ArenaNames arena.Names
}

// New returns the screen of db. It polls db only while some page listens to
// its events.
func New(db *results.DB, opt Options) *Server {
	if opt.Poll <= 0 {
		opt.Poll = 500 * time.Millisecond
	}
	if opt.Log == nil {
		opt.Log = log.Default()
	}
	s := &Server{
		db:   db,
		mux:  http.NewServeMux(),
		page: template.Must(template.ParseFS(assets, "assets/index.html")),
		log:  opt.Log,
		opt:  opt,
	}
	s.hub = newHub(s, opt.Poll)
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded folder is part of the binary
	}
	files := http.FileServerFS(static)
	s.mux.Handle("GET /assets/", http.StripPrefix("/assets/", noCache(files)))
	s.mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/assets/favicon.svg", http.StatusMovedPermanently)
	})
	for _, p := range []string{"GET /{$}", "GET /t/{tid}", "GET /t/{tid}/{view...}", "GET /game/{id}", "GET /arena/{game...}"} {
		s.mux.HandleFunc(p, s.servePage)
	}
	// Any other path is the page too, answered 404: its script says what
	// was not found, in the reader's language, with a link back.
	s.mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		s.writePage(w, r, http.StatusNotFound)
	})
	s.routeAPI()
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
}

// noCache makes browsers revalidate the assets, so a new judge binary is
// seen at the next reload.
func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

// servePage sends the single page; its script draws the view the path names.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	s.writePage(w, r, http.StatusOK)
}

func (s *Server) writePage(w http.ResponseWriter, r *http.Request, status int) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(status)
	if err := s.page.Execute(w, struct{ Lang string }{Language(r)}); err != nil {
		s.log.Printf("screen: page: %v", err)
	}
}

// Languages are the languages of the pages; the first is the fallback.
var Languages = []string{"en", "fr"}

// Language picks the page's language: the toggle's cookie, else the best
// one the browser asks for in Accept-Language, else English.
func Language(r *http.Request) string {
	if c, err := r.Cookie("lang"); err == nil && known(c.Value) {
		return c.Value
	}
	type choice struct {
		lang string
		q    float64
	}
	var list []choice
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		base, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		if known(base) && q > 0 {
			list = append(list, choice{base, q})
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].q > list[j].q })
	if len(list) > 0 {
		return list[0].lang
	}
	return Languages[0]
}

func known(lang string) bool {
	for _, l := range Languages {
		if l == lang {
			return true
		}
	}
	return false
}

// writeJSON sends v, or a 500 when it does not encode.
func (s *Server) writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b)
}

// fail answers a request that could not be served: 404 for what does not
// exist, 400 for a malformed parameter, 500 (logged) for the judge's own
// failures; always as JSON, {"status": 404, "error": "..."}, so that a page
// tells a missing id from a broken judge.
func (s *Server) fail(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	switch {
	case errors.Is(err, results.ErrNotFound) || errors.Is(err, errNotFound):
		status = http.StatusNotFound
	case errors.As(err, new(badRequest)):
		status = http.StatusBadRequest
	case errors.Is(err, context.Canceled):
		return // the browser went away
	default:
		s.log.Printf("screen: %v", err)
	}
	failJSON(w, status, err.Error())
}

// APIError is the body of every failed API request.
type APIError struct {
	Status int    `json:"status"`
	Error  string `json:"error"`
}

func failJSON(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(APIError{Status: status, Error: msg}) // two plain fields always encode
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(b)
}

var errNotFound = errors.New("not found")

// badRequest is a malformed URL parameter.
type badRequest string

func (e badRequest) Error() string { return string(e) }

// idParam reads a numeric path parameter.
func idParam(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, errNotFound
	}
	return id, nil
}
