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
	"encoding/json"
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

	"botjudge/games"
	"botjudge/judge/arena"
	"botjudge/judge/screen"
	"botjudge/results"
)

//go:embed assets
var assets embed.FS

// DefaultMaxUpload is the largest hand-in: sources, not data sets.
const DefaultMaxUpload = 1 << 20

// DefaultQuota bounds the bytes of the versions a student stored (as
// stored: compressed): six hand-ins a minute must not fill the disk.
const DefaultQuota = 64 << 20

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
	// UploadsPerMinute bounds a student's hand-ins, refused ones too; 0 is 6.
	UploadsPerMinute int
	// Quota bounds the bytes of a student's stored versions; 0 is
	// DefaultQuota.
	Quota int64
	// Checker checks each version; Workers of them at once (0:
	// DefaultWorkers).
	Checker Checker
	Workers int
	// Secure marks the cookie for HTTPS only.
	Secure bool
	Log    *log.Logger
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time
	// ArenaNames names the other students on a student's pages as the
	// arena's public ladder does.
	ArenaNames arena.Names
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
	// Failed log-ins; hand-ins per student.
	logIns  *throttle
	uploads *limiter
	queue   *queue
	// installing makes versions current one at a time: two at once could
	// leave the file of one and the record of the other.
	installing sync.Mutex
}

// New returns the hand-in server over db, serving the screen's pages for
// every path not its own.
func New(db *results.DB, scr http.Handler, opt Options) *Server {
	if opt.MaxUpload <= 0 {
		opt.MaxUpload = DefaultMaxUpload
	}
	if opt.UploadsPerMinute <= 0 {
		opt.UploadsPerMinute = 6
	}
	if opt.Quota <= 0 {
		opt.Quota = DefaultQuota
	}
	if opt.Log == nil {
		opt.Log = log.Default()
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	s := &Server{
		db: db, screen: scr, opt: opt, mux: http.NewServeMux(),
		pages:   template.Must(template.New("").Funcs(funcs).ParseFS(assets, "assets/*.html")),
		logIns:  newThrottle(),
		uploads: newLimiter(opt.UploadsPerMinute, time.Minute),
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
	cross := http.NewCrossOriginProtection()
	cross.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.refuse(w, r, http.StatusForbidden, "cross.site")
	}))
	s.handler = cross.Handler(s.mux)
	return s
}

// Run checks the versions handed in until ctx ends, after finishing those
// a stopped server left stored but not installed.
func (s *Server) Run(ctx context.Context) {
	if err := s.finishInstalling(ctx); err != nil {
		s.opt.Log.Printf("hand-in: %v", err)
	}
	if s.queue != nil {
		s.queue.run(ctx, s.opt.Workers)
	}
}

// ChecksWait says whether a version waits for its check, every worker
// being busy: the arena holds its next games meanwhile (arena.Loop's Hold),
// so that the checks have the CPU. A check being played holds nothing: a
// slow bot's check may last many minutes, and the ladder goes on beside it.
func (s *Server) ChecksWait() bool { return s.queue != nil && s.queue.waits() }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	// A body announced larger than any hand-in is refused before a byte
	// of it is read, and its connection closed.
	if r.ContentLength > s.opt.MaxUpload+formSlack {
		w.Header().Set("Connection", "close")
		s.refuseArgs(w, r, http.StatusRequestEntityTooLarge, "upload.big", s.opt.MaxUpload>>10)
		return
	}
	s.handler.ServeHTTP(w, r)
}

// formSlack is what a form adds to the file it carries: its boundaries,
// headers and fields.
const formSlack = 64 << 10

// MayRead says whether r's session may see a game of a private tournament
// (a sparring or an arena game): the organiser any, a student those their
// bots played (screen.Options.MayRead).
func (s *Server) MayRead(r *http.Request, gameID int64) bool {
	se, ok := s.sessions.get(r, s.opt.Now())
	if !ok {
		return false
	}
	if se.organiser {
		return true
	}
	owner, ok, err := s.db.GameOwner(r.Context(), gameID)
	if err == nil && ok && owner == se.student {
		return true
	}
	played, err := s.db.PlayedInArena(r.Context(), gameID, se.student)
	return err == nil && played
}

// Viewer is the student whose session made r, none for the organiser's
// (screen.Options.Viewer).
func (s *Server) Viewer(r *http.Request) (student int64, ok bool) {
	se, ok := s.sessions.get(r, s.opt.Now())
	return se.student, ok && !se.organiser
}

// ------------------------------------------------------------ log in

func (s *Server) serveLogIn(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	name := strings.TrimSpace(r.PostFormValue("name"))
	code := normCode(r.PostFormValue("code"))
	now := s.opt.Now()
	forms := NameForms(name)
	addr, key := address(r), forms[len(forms)-1]
	if d := s.logIns.wait(key, addr, now); d > 0 {
		s.refuseWait(w, r, d)
		return
	}
	st, err := s.logIn(r.Context(), forms, results.HashCode(code))
	if errors.Is(err, results.ErrNotFound) {
		s.logIns.failed(key, addr, now)
		s.refuse(w, r, http.StatusUnauthorized, "login.wrong")
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.logIns.passed(key, addr)
	s.sessions.create(w, session{student: st.ID, name: st.Name, display: st.Display, organiser: st.Organiser}, s.opt.Secure, now)
	http.Redirect(w, r, "/hand-in/", http.StatusSeeOther)
}

// logIn is the student one of the name's forms names, if codeHash is their
// code's: a student types their name as on their slip, or as they
// remember it, with or without its accents and capitals.
func (s *Server) logIn(ctx context.Context, forms []string, codeHash string) (results.Student, error) {
	for _, n := range forms {
		st, err := s.db.LogIn(ctx, n, codeHash)
		if !errors.Is(err, results.ErrNotFound) {
			return st, err
		}
	}
	return results.Student{}, results.ErrNotFound
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

// gameBox is one open game on a student's page: their versions, newest
// first, and the one the tournament plays.
type gameBox struct {
	Game     string
	Versions []results.HandIn
	Current  *results.HandIn
	// Arena is the game's arena, nil when it has none.
	Arena *gameArena
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
		b.Current = current(b.Versions)
		if b.Arena, err = s.arenaOf(r.Context(), g, student, b.Versions); err != nil {
			s.fail(w, r, err)
			return
		}
		if b.Arena != nil {
			b.Arena.drawPaths(120, 24)
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

// Cell is one student's bot of one game: the last version handed in, and
// the one the tournament plays (not always the last: the student or the
// organiser may have chosen an earlier one).
type Cell struct {
	Last, Current *results.HandIn
	Versions      int
}

// current is the version of list in the tournament, or nil.
func current(list []results.HandIn) *results.HandIn {
	for i := range list {
		if list[i].Current {
			return &list[i]
		}
	}
	return nil
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
			var mine []results.HandIn
			for _, h := range all {
				if h.StudentID == st.ID && h.Game == g {
					mine = append(mine, h)
				}
			}
			if len(mine) > 0 {
				rw.Cells[i] = Cell{Last: &mine[0], Current: current(mine), Versions: len(mine)}
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
	var plays *results.HandIn
	if !h.Current {
		cur, err := s.db.Current(r.Context(), h.StudentID, h.Game)
		if err != nil && !errors.Is(err, results.ErrNotFound) {
			s.fail(w, r, err)
			return
		}
		if err == nil {
			plays = &cur
		}
	}
	ga, err := s.arenaOf(r.Context(), h.Game, h.StudentID, []results.HandIn{h})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var rated *versionArena
	if ga != nil {
		ga.drawPaths(360, 72)
		rated = ga.Versions[h.ID]
	}
	live := h.Status == results.StatusStored || h.Status == results.StatusQueued || h.Status == results.StatusChecking || h.Status == results.StatusPlaying
	s.page(w, r, http.StatusOK, "version", map[string]any{"V": h, "R": rep, "Files": files, "Live": live, "Progress": progressOf(screen.Language(r), h, s.opt.Now()),
		"Organiser": se.organiser, "Plays": plays, "Choosable": !h.Current && s.mayChoose(se, h), "Arena": ga, "Rated": rated})
}

// mayChoose says whether se may make h the version in the tournament: a
// student their own until the deadline, the organiser any at any time; but
// never a version handed in after the deadline.
func (s *Server) mayChoose(se session, h results.HandIn) bool {
	return s.beforeDeadline(h.At) && (se.organiser || s.beforeDeadline(s.opt.Now()))
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
	// Counted before it is read: twenty zip bombs in a row cost the server
	// as much as twenty bots.
	s.uploads.add(strconv.FormatInt(se.student, 10), now)
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
	h, err := s.accept(r.Context(), se.student, se.name, game, kind, ext, content, now)
	var full *results.ErrQuota
	switch {
	case errors.As(err, &full):
		s.refuseArgs(w, r, http.StatusRequestEntityTooLarge, "quota", float64(full.Used)/(1<<20), full.Quota>>20)
		return
	case errors.Is(err, errNotInstalled):
		s.refuse(w, r, http.StatusServiceUnavailable, "not.installed")
		return
	case err != nil:
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
		s.refuseArgs(w, r, http.StatusForbidden, "deadline.passed", when(s.opt.Deadline))
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
	r.Body = http.MaxBytesReader(w, r.Body, s.opt.MaxUpload+formSlack)
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
// between the two, nothing handed in is lost (finishInstalling ends it).
// A version that cannot be installed is failed, never left waiting.
func (s *Server) accept(ctx context.Context, student int64, name, game, kind, ext string, content []byte, at time.Time) (results.HandIn, error) {
	h, err := s.db.AddHandIn(ctx, results.HandIn{StudentID: student, Game: game, At: at, Kind: kind, Ext: ext, Content: content}, s.opt.Quota)
	if err != nil {
		return h, err
	}
	return h, s.installAndQueue(ctx, name, h)
}

// errNotInstalled is a version stored and failed: its install failed.
var errNotInstalled = errors.New("hand-in: the version could not be installed")

// installAndQueue makes a stored version current and queues its check, or
// fails it with the reason in the server's log and on the organiser's page.
func (s *Server) installAndQueue(ctx context.Context, name string, h results.HandIn) error {
	ctx = context.WithoutCancel(ctx) // a student who leaves must not leave it half done
	if err := s.makeCurrent(ctx, name, h); err != nil {
		s.opt.Log.Printf("hand-in %d of %s: install: %v", h.ID, h.Student, err)
		return errors.Join(errNotInstalled, s.setFailed(ctx, h.ID, "install: "+err.Error()))
	}
	if err := s.db.SetStatus(ctx, h.ID, results.StatusQueued, nil); err != nil {
		return err
	}
	if s.queue != nil {
		s.queue.add(h.ID)
	}
	return nil
}

// setFailed records the judge's failure on a version: detail is for the
// organiser; its student reads that the judge failed, not their bot.
func (s *Server) setFailed(ctx context.Context, id int64, detail string) error {
	b, err := json.Marshal(Report{Error: detail})
	if err == nil {
		err = s.db.SetStatus(ctx, id, results.StatusFailed, b)
	}
	return err
}

// finishInstalling ends the versions a stopped server left stored but not
// installed: the newest of its student and game, handed in before the
// deadline, is installed and queued; an older one was replaced by a later
// version before it was ever installed, and is failed.
func (s *Server) finishInstalling(ctx context.Context) error {
	list, err := s.db.HandIns(ctx, 0, "")
	if err != nil {
		return err
	}
	type key struct {
		student int64
		game    string
	}
	newer := map[key]bool{}
	var errs []error
	for _, h := range list { // newest first
		k := key{h.StudentID, h.Game}
		newest := !newer[k]
		newer[k] = true
		if h.Status != results.StatusStored {
			continue
		}
		if !newest || !s.beforeDeadline(h.At) {
			errs = append(errs, s.setFailed(ctx, h.ID, "the judge stopped before installing this version, and a later version (or the deadline) came first"))
			continue
		}
		full, err := s.db.HandIn(ctx, h.ID)
		if err == nil {
			err = s.installAndQueue(ctx, h.Student, full)
		}
		if err != nil && !errors.Is(err, errNotInstalled) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
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

// serveRestore makes a version the one in the tournament: a student's
// choice among their own versions (an earlier one that works, when the last
// does not), or the organiser's.
func (s *Server) serveRestore(w http.ResponseWriter, r *http.Request) {
	h, se, ok := s.version(w, r)
	if !ok {
		return
	}
	if !s.mayChoose(se, h) {
		// The tournament plays what was handed in before the deadline: a
		// version from after it never comes back, and after it a student's
		// choice is made.
		key := "restore.late"
		if s.beforeDeadline(h.At) {
			key = "choose.closed"
		}
		s.refuseArgs(w, r, http.StatusForbidden, key, when(s.opt.Deadline))
		return
	}
	full, err := s.db.HandIn(r.Context(), h.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// A version stored before its checks were found (a name too long for
	// the disk) cannot be installed: the organiser reads why, in one line.
	if err := s.makeCurrent(context.WithoutCancel(r.Context()), h.Student, full); err != nil {
		s.opt.Log.Printf("hand-in: restore %d: %v", h.ID, err)
		var why errRefused
		if !errors.As(err, &why) {
			why = errRefused{err.Error(), err.Error()}
		}
		s.refuseArgs(w, r, http.StatusConflict, "restore.fails", why.line(screen.Language(r)))
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
		data["Me"] = se.display
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
	s.page(w, r, status, "refused", map[string]any{"Line": why.line(screen.Language(r))})
}

func (s *Server) refuseWait(w http.ResponseWriter, r *http.Request, d time.Duration) {
	w.Header().Set("Retry-After", strconv.Itoa(ceilSeconds(d)))
	s.refuseArgs(w, r, http.StatusTooManyRequests, "wait", waitWords(screen.Language(r), d))
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	s.opt.Log.Printf("hand-in: %s %s: %v", r.Method, r.URL.Path, err)
	s.refuse(w, r, http.StatusInternalServerError, "error")
}
