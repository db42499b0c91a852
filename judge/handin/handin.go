// Package handin is the hand-in side of the judge's server (SPEC §6):
// students log in with a code from the organiser's roster, hand in a bot
// for each game the organiser opened, see its check and its sparring games
// at once, and hand in again until the deadline; the organiser sees who is
// ready and can restore any version. The roster and every version live in
// the results database; the version a student handed in last is their bot
// in submissions/<game>/, where `judge run` finds it like any other.
//
// It is its own handler in front of the screen: its pages are under
// /hand-in/, everything else is the screen's, read-only as always. Every
// request that changes something must come from the judge's own pages
// (http.CrossOriginProtection), with the session's cookie (HttpOnly,
// SameSite=Strict); nothing the client sends names a file on the server.
package handin

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"botjudge/games"
	"botjudge/judge/screen"
	"botjudge/results"
)

//go:embed assets
var assets embed.FS

// DefaultMaxUpload is the largest hand-in: sources, not data sets.
const DefaultMaxUpload = 1 << 20

// Options tune a Server; zero fields take their defaults.
type Options struct {
	// Submissions is the folder of the games' folders (submissions/).
	Submissions string
	// Games are the games open for hand-in.
	Games []string
	// Deadline, when not zero, ends the hand-ins.
	Deadline time.Time
	// MaxUpload bounds a hand-in's size; 0 is DefaultMaxUpload.
	MaxUpload int64
	// UploadsPerMinute bounds a student's hand-ins; 0 is 6.
	UploadsPerMinute int
	// Checker checks each version; Workers of them at once (0: 1).
	Checker Checker
	Workers int
	// Secure marks the cookie for HTTPS only.
	Secure bool
	Log    *log.Logger
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time
}

// Server serves the hand-in pages in front of the screen.
type Server struct {
	db       *results.DB
	screen   http.Handler
	opt      Options
	mux      *http.ServeMux
	handler  http.Handler
	pages    *template.Template
	sessions sessions
	// Failed log-ins per address and per name; hand-ins per student.
	byAddress, byName, uploads *limiter
	queue                      *queue
	// installing makes versions current one at a time: two at once could
	// leave the file of one and the record of the other.
	installing sync.Mutex
}

// Limits of log-in attempts: a class behind one address fails often when
// thirty type their codes, one name rarely.
const (
	failuresPerAddress = 30
	failuresPerName    = 10
	failureWindow      = 10 * time.Minute
)

// New returns the hand-in server over db, serving the screen's pages for
// every path not its own.
func New(db *results.DB, scr http.Handler, opt Options) *Server {
	if opt.MaxUpload <= 0 {
		opt.MaxUpload = DefaultMaxUpload
	}
	if opt.UploadsPerMinute <= 0 {
		opt.UploadsPerMinute = 6
	}
	if opt.Log == nil {
		opt.Log = log.Default()
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	s := &Server{
		db: db, screen: scr, opt: opt, mux: http.NewServeMux(),
		pages:     template.Must(template.New("").Funcs(funcs).ParseFS(assets, "assets/*.html")),
		byAddress: newLimiter(failuresPerAddress, failureWindow),
		byName:    newLimiter(failuresPerName, failureWindow),
		uploads:   newLimiter(opt.UploadsPerMinute, time.Minute),
	}
	if opt.Checker != nil {
		s.queue = newQueue(db, opt.Checker, opt.Log)
	}
	s.mux.HandleFunc("GET /hand-in/{$}", s.serveHome)
	s.mux.HandleFunc("POST /hand-in/login", s.serveLogIn)
	s.mux.HandleFunc("POST /hand-in/logout", s.serveLogOut)
	s.mux.HandleFunc("POST /hand-in/game/{game}", s.serveUpload)
	s.mux.HandleFunc("GET /hand-in/v/{id}", s.serveVersion)
	s.mux.HandleFunc("GET /hand-in/v/{id}/content", s.serveContent)
	s.mux.HandleFunc("POST /hand-in/v/{id}/restore", s.serveRestore)
	s.mux.HandleFunc("GET /hand-in/student/{id}", s.serveStudent)
	s.mux.HandleFunc("GET /hand-in/v/{id}/events", s.serveVersionEvents)
	s.mux.HandleFunc("GET /hand-in/assets/style.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		b, _ := assets.ReadFile("assets/style.css")
		w.Write(b)
	})
	s.mux.HandleFunc("GET /hand-in/assets/live.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		b, _ := assets.ReadFile("assets/live.js")
		w.Write(b)
	})
	s.mux.HandleFunc("/hand-in/", func(w http.ResponseWriter, r *http.Request) {
		s.refuse(w, r, http.StatusNotFound, "not.found")
	})
	s.mux.Handle("/", scr)
	// Cross-site requests that change anything are refused, whatever
	// cookie they carry: a page elsewhere cannot hand in for a student.
	s.handler = http.NewCrossOriginProtection().Handler(s.mux)
	return s
}

// Run checks the versions handed in until ctx ends.
func (s *Server) Run(ctx context.Context) {
	if s.queue != nil {
		s.queue.run(ctx, s.opt.Workers)
	}
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	s.handler.ServeHTTP(w, r)
}

// MayRead says whether r's session may see a sparring game: the organiser
// any, a student their own (screen.Options.MayRead).
func (s *Server) MayRead(r *http.Request, gameID int64) bool {
	se, ok := s.sessions.get(r, s.opt.Now())
	if !ok {
		return false
	}
	if se.organiser {
		return true
	}
	owner, ok, err := s.db.GameOwner(r.Context(), gameID)
	return err == nil && ok && owner == se.student
}

// ValidName says why name cannot be on the roster: it names the student's
// bot file, so it is letters, digits, - and _ only (no dot, no slash, no
// HTML), at most 40 of them, and not the organiser's.
func ValidName(name string) error {
	if name == "" || len([]rune(name)) > 40 {
		return fmt.Errorf("%q: give a name of 1 to 40 letters", name)
	}
	for i, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && (i == 0 || (r != '-' && r != '_')) {
			return fmt.Errorf("%q: a name is letters and digits, with - or _ inside (it names the student's bot file)", name)
		}
	}
	if strings.EqualFold(name, results.OrganiserName) {
		return fmt.Errorf("%q is the organiser's name", name)
	}
	return nil
}

// ------------------------------------------------------------ log in

func (s *Server) serveLogIn(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	name := strings.TrimSpace(r.PostFormValue("name"))
	code := normCode(r.PostFormValue("code"))
	now := s.opt.Now()
	addr, key := address(r), strings.ToLower(name)
	if d := max(s.byAddress.wait(addr, now), s.byName.wait(key, now)); d > 0 {
		s.refuseWait(w, r, d)
		return
	}
	st, err := s.db.LogIn(r.Context(), name, results.HashCode(code))
	if errors.Is(err, results.ErrNotFound) {
		s.byAddress.add(addr, now)
		s.byName.add(key, now)
		s.refuse(w, r, http.StatusUnauthorized, "login.wrong")
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.sessions.create(w, session{student: st.ID, name: st.Name, organiser: st.Organiser}, s.opt.Secure, now)
	http.Redirect(w, r, "/hand-in/", http.StatusSeeOther)
}

func (s *Server) serveLogOut(w http.ResponseWriter, r *http.Request) {
	s.sessions.end(w, r, s.opt.Secure)
	http.Redirect(w, r, "/hand-in/", http.StatusSeeOther)
}

// who is the request's session, or false after answering a log-in page.
func (s *Server) who(w http.ResponseWriter, r *http.Request) (session, bool) {
	se, ok := s.sessions.get(r, s.opt.Now())
	if !ok {
		s.page(w, r, http.StatusUnauthorized, "login", nil)
	}
	return se, ok
}

// ------------------------------------------------------------ pages

// gameBox is one open game on a student's page.
type gameBox struct {
	Game     string
	Versions []results.HandIn
}

func (s *Server) serveHome(w http.ResponseWriter, r *http.Request) {
	se, ok := s.sessions.get(r, s.opt.Now())
	if !ok {
		s.page(w, r, http.StatusOK, "login", nil)
		return
	}
	if se.organiser {
		s.serveOrganiser(w, r, se)
		return
	}
	s.studentPage(w, r, se, se.student)
}

func (s *Server) studentPage(w http.ResponseWriter, r *http.Request, se session, student int64) {
	st, err := s.db.Student(r.Context(), student)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	list, err := s.db.HandIns(r.Context(), student, "")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var boxes []gameBox
	for _, g := range s.opt.Games {
		b := gameBox{Game: g}
		for _, h := range list {
			if h.Game == g {
				b.Versions = append(b.Versions, h)
			}
		}
		boxes = append(boxes, b)
	}
	s.page(w, r, http.StatusOK, "student", map[string]any{"Student": st, "Games": boxes, "Organiser": se.organiser})
}

// Row is one student on the organiser's page.
type Row struct {
	Student results.Student
	Cells   []Cell
}

// Cell is one student's bot of one game: the last version handed in.
type Cell struct {
	Last     *results.HandIn
	Versions int
}

func (s *Server) serveOrganiser(w http.ResponseWriter, r *http.Request, se session) {
	rows, err := Roster(r.Context(), s.db, s.opt.Games)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.page(w, r, http.StatusOK, "organiser", map[string]any{"Rows": rows, "Games": s.opt.Games})
}

// Roster is every student with, per game, the last version handed in and
// how many there are: the organiser's page and `judge roster`.
func Roster(ctx context.Context, db *results.DB, gameNames []string) ([]Row, error) {
	students, err := db.Students(ctx)
	if err != nil {
		return nil, err
	}
	all, err := db.HandIns(ctx, 0, "")
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, st := range students {
		rw := Row{Student: st, Cells: make([]Cell, len(gameNames))}
		for i, g := range gameNames {
			for _, h := range all {
				if h.StudentID == st.ID && h.Game == g {
					if rw.Cells[i].Versions == 0 {
						h := h
						rw.Cells[i].Last = &h
					}
					rw.Cells[i].Versions++
				}
			}
		}
		rows = append(rows, rw)
	}
	return rows, nil
}

func (s *Server) serveStudent(w http.ResponseWriter, r *http.Request) {
	se, ok := s.who(w, r)
	if !ok {
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || (!se.organiser && id != se.student) {
		s.refuse(w, r, http.StatusNotFound, "not.found")
		return
	}
	s.studentPage(w, r, se, id)
}

// version reads the version the path names, if the session may see it: its
// student's, or any for the organiser. Another's is "not found", as one
// that does not exist.
func (s *Server) version(w http.ResponseWriter, r *http.Request) (results.HandIn, session, bool) {
	se, ok := s.who(w, r)
	if !ok {
		return results.HandIn{}, se, false
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		s.refuse(w, r, http.StatusNotFound, "not.found")
		return results.HandIn{}, se, false
	}
	h, err := s.db.HandIn(r.Context(), id)
	if errors.Is(err, results.ErrNotFound) || (err == nil && !se.organiser && h.StudentID != se.student) {
		s.refuse(w, r, http.StatusNotFound, "not.found")
		return results.HandIn{}, se, false
	}
	if err != nil {
		s.fail(w, r, err)
		return results.HandIn{}, se, false
	}
	return h, se, true
}

func (s *Server) serveVersion(w http.ResponseWriter, r *http.Request) {
	h, se, ok := s.version(w, r)
	if !ok {
		return
	}
	rep, err := ReadReport(h)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var files []string
	if h.Kind == "folder" {
		files = tarFiles(h.Content)
	}
	live := h.Status == results.StatusQueued || h.Status == results.StatusChecking || h.Status == results.StatusPlaying
	s.page(w, r, http.StatusOK, "version", map[string]any{"V": h, "R": rep, "Files": files, "Live": live, "Progress": progressOf(screen.Language(r), h, s.opt.Now()),
		"Organiser": se.organiser, "Restorable": se.organiser && !h.Current && s.beforeDeadline(h.At)})
}

// serveContent sends a version as it was handed in (a folder as its tar),
// under a name the server makes.
func (s *Server) serveContent(w http.ResponseWriter, r *http.Request) {
	h, _, ok := s.version(w, r)
	if !ok {
		return
	}
	name := botName(h.Student, h)
	if h.Kind == "folder" {
		name += ".tar"
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", fmt.Sprintf("%s-v%d-%s", h.Game, h.ID, name)))
	w.Write(h.Content)
}

func (s *Server) beforeDeadline(t time.Time) bool {
	return s.opt.Deadline.IsZero() || !t.After(s.opt.Deadline)
}

// ------------------------------------------------------------ hand in

func (s *Server) serveUpload(w http.ResponseWriter, r *http.Request) {
	se, ok := s.who(w, r)
	if !ok {
		return
	}
	game := r.PathValue("game")
	now := s.opt.Now()
	if !s.mayUpload(w, r, se, game, now) {
		return
	}
	filename, data, ok := s.readUpload(w, r)
	if !ok {
		return
	}
	rules, ok := games.Lookup(game)
	if !ok {
		s.refuse(w, r, http.StatusNotFound, "not.open")
		return
	}
	kind, ext, content, err := prepare(filename, data, rules.Protocol())
	var why errRefused
	if errors.As(err, &why) {
		s.refuseText(w, r, http.StatusBadRequest, why)
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.uploads.add(strconv.FormatInt(se.student, 10), now)
	h, err := s.accept(r.Context(), se.student, se.name, game, kind, ext, content, now)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/hand-in/v/%d", h.ID), http.StatusSeeOther)
}

// mayUpload says whether se may hand in a bot for game now, and when not
// answers why: the game is not open to it, the deadline has passed, or it
// must wait before its next upload.
func (s *Server) mayUpload(w http.ResponseWriter, r *http.Request, se session, game string, now time.Time) bool {
	if !slices.Contains(s.opt.Games, game) || se.organiser {
		s.refuse(w, r, http.StatusNotFound, "not.open")
		return false
	}
	if !s.beforeDeadline(now) {
		s.refuseArgs(w, r, http.StatusForbidden, "deadline.passed", s.opt.Deadline.Format("2006-01-02 15:04 MST"))
		return false
	}
	if d := s.uploads.wait(strconv.FormatInt(se.student, 10), now); d > 0 {
		s.refuseWait(w, r, d)
		return false
	}
	return true
}

// readUpload reads the uploaded file's name and content, at most
// MaxUpload bytes; when there is none, or it is larger, it answers so.
func (s *Server) readUpload(w http.ResponseWriter, r *http.Request) (string, []byte, bool) {
	// The whole body is bounded, not only the file: a 100 MB request is
	// cut at the limit, never read to its end.
	r.Body = http.MaxBytesReader(w, r.Body, s.opt.MaxUpload+64<<10)
	f, fh, err := r.FormFile("bot")
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		s.refuseArgs(w, r, http.StatusRequestEntityTooLarge, "upload.big", s.opt.MaxUpload>>10)
		return "", nil, false
	case err != nil:
		s.refuse(w, r, http.StatusBadRequest, "upload.none")
		return "", nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, s.opt.MaxUpload+1))
	if err != nil {
		s.fail(w, r, err)
		return "", nil, false
	}
	if int64(len(data)) > s.opt.MaxUpload {
		s.refuseArgs(w, r, http.StatusRequestEntityTooLarge, "upload.big", s.opt.MaxUpload>>10)
		return "", nil, false
	}
	return fh.Filename, data, true
}

// accept keeps a new version, makes it the student's bot in submissions/
// and queues its check. The version is stored first: if the judge stops
// between the two, nothing handed in is lost.
func (s *Server) accept(ctx context.Context, student int64, name, game, kind, ext string, content []byte, at time.Time) (results.HandIn, error) {
	h, err := s.db.AddHandIn(ctx, results.HandIn{StudentID: student, Game: game, At: at, Kind: kind, Ext: ext, Content: content})
	if err != nil {
		return h, err
	}
	if err := s.makeCurrent(ctx, name, h); err != nil {
		return h, err
	}
	if s.queue != nil {
		s.queue.add(h.ID)
	}
	return h, nil
}

// makeCurrent puts h in submissions/ and records it as current.
func (s *Server) makeCurrent(ctx context.Context, name string, h results.HandIn) error {
	s.installing.Lock()
	defer s.installing.Unlock()
	if err := install(filepath.Join(s.opt.Submissions, h.Game), name, h); err != nil {
		return err
	}
	return s.db.SetCurrent(ctx, h)
}

func (s *Server) serveRestore(w http.ResponseWriter, r *http.Request) {
	h, se, ok := s.version(w, r)
	if !ok {
		return
	}
	if !se.organiser {
		s.refuse(w, r, http.StatusForbidden, "organiser.only")
		return
	}
	// The tournament plays what was handed in before the deadline: a
	// version from after it never comes back.
	if !s.beforeDeadline(h.At) {
		s.refuseArgs(w, r, http.StatusForbidden, "restore.late", s.opt.Deadline.Format("2006-01-02 15:04 MST"))
		return
	}
	full, err := s.db.HandIn(r.Context(), h.ID)
	if err == nil {
		err = s.makeCurrent(r.Context(), h.Student, full)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/hand-in/v/%d", h.ID), http.StatusSeeOther)
}

// EnforceDeadline makes each student's bot in submissions/ their last
// version handed in before the deadline (none: no bot), for a server
// started with a deadline earlier than versions already handed in. It
// returns how many bots it changed.
func (s *Server) EnforceDeadline(ctx context.Context) (int, error) {
	if s.opt.Deadline.IsZero() {
		return 0, nil
	}
	students, err := s.db.Students(ctx)
	if err != nil {
		return 0, err
	}
	changed := 0
	for _, st := range students {
		for _, g := range s.opt.Games {
			cur, err := s.db.Current(ctx, st.ID, g)
			if errors.Is(err, results.ErrNotFound) || (err == nil && s.beforeDeadline(cur.At)) {
				continue
			}
			if err != nil {
				return changed, err
			}
			list, err := s.db.HandIns(ctx, st.ID, g)
			if err != nil {
				return changed, err
			}
			i := slices.IndexFunc(list, func(h results.HandIn) bool { return s.beforeDeadline(h.At) })
			if i < 0 {
				if err := uninstall(filepath.Join(s.opt.Submissions, g), st.Name); err != nil {
					return changed, err
				}
				if err := s.db.ClearCurrent(ctx, st.ID, g); err != nil {
					return changed, err
				}
			} else {
				h, err := s.db.HandIn(ctx, list[i].ID)
				if err == nil {
					err = s.makeCurrent(ctx, st.Name, h)
				}
				if err != nil {
					return changed, err
				}
			}
			changed++
		}
	}
	return changed, nil
}

// Clashes lists the bots of the game folders that bear a student's name
// but were not handed in by them (an example bot called like a student):
// that student's first hand-in would replace it.
func (s *Server) Clashes(ctx context.Context) ([]string, error) {
	students, err := s.db.Students(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, g := range s.opt.Games {
		des, err := os.ReadDir(filepath.Join(s.opt.Submissions, g))
		if err != nil {
			continue
		}
		for _, st := range students {
			if _, err := s.db.Current(ctx, st.ID, g); err == nil {
				continue
			}
			for _, de := range des {
				if isStudents(de.Name(), st.Name) {
					out = append(out, fmt.Sprintf("%s: %s is on the roster: their first hand-in will replace this bot (rename it to keep it)", filepath.Join(s.opt.Submissions, g, de.Name()), st.Name))
				}
			}
		}
	}
	return out, nil
}

// ------------------------------------------------------------ answers

func (s *Server) page(w http.ResponseWriter, r *http.Request, status int, name string, data map[string]any) {
	if data == nil {
		data = map[string]any{}
	}
	lang := screen.Language(r)
	data["Lang"] = lang
	data["Deadline"] = s.opt.Deadline
	data["Closed"] = !s.beforeDeadline(s.opt.Now())
	data["Max"] = s.opt.MaxUpload >> 10
	if se, ok := s.sessions.get(r, s.opt.Now()); ok {
		data["Me"] = se.name
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'")
	w.WriteHeader(status)
	if err := s.pages.ExecuteTemplate(w, name, data); err != nil {
		s.opt.Log.Printf("hand-in: page %s: %v", name, err)
	}
}

// refuse answers with one line, in the reader's language.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, key string) {
	s.refuseArgs(w, r, status, key)
}

func (s *Server) refuseArgs(w http.ResponseWriter, r *http.Request, status int, key string, args ...any) {
	lang := screen.Language(r)
	s.page(w, r, status, "refused", map[string]any{"Line": fmt.Sprintf(word(lang, key), args...)})
}

func (s *Server) refuseText(w http.ResponseWriter, r *http.Request, status int, why errRefused) {
	line := why.en
	if screen.Language(r) == "fr" {
		line = why.fr
	}
	s.page(w, r, status, "refused", map[string]any{"Line": line})
}

func (s *Server) refuseWait(w http.ResponseWriter, r *http.Request, d time.Duration) {
	w.Header().Set("Retry-After", strconv.Itoa(int(d.Seconds())+1))
	s.refuseArgs(w, r, http.StatusTooManyRequests, "wait", int(d.Round(time.Second).Seconds())+1)
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	s.opt.Log.Printf("hand-in: %s %s: %v", r.Method, r.URL.Path, err)
	s.refuse(w, r, http.StatusInternalServerError, "error")
}
