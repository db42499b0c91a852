package handin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"botjudge/games/virus"
	"botjudge/judge/arena"
	"botjudge/judge/screen/browsertest"
	"botjudge/results/scoring"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// firstCell is the fake runner with bots that play virus: each places on
// the first cell it may, in reading order, so that arena games fill the
// grid and their replays move; and each writes a log naming itself, which
// no other student may read.
type firstCell struct{ *sandboxtest.Fake }

func (f firstCell) Start(ctx context.Context, bot sandbox.Bot, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error) {
	s, err := f.Fake.Start(ctx, bot, lim, labels)
	if err != nil {
		return nil, err
	}
	return firstCellSession{Session: s, log: logMark + bot.Name}, nil
}

// logMark begins every log of firstCell's bots.
const logMark = "LOG-OF-"

type firstCellSession struct {
	sandbox.Session
	log string
}

func (s firstCellSession) Log() string { return s.log }

func (s firstCellSession) Ask(ctx context.Context, request []byte) (sandbox.Reply, error) {
	if _, err := s.Session.Ask(ctx, request); err != nil {
		return sandbox.Reply{}, err
	}
	var req struct {
		Side string
		Game struct{ Grid [virus.Size][virus.Size]int }
	}
	pass := sandbox.Reply{Data: []byte("false")}
	if json.Unmarshal(request, &req) != nil {
		return pass, nil
	}
	mine := 1 + slices.Index([]string{"player_1", "player_2"}, req.Side)
	touches := func(r, c int) bool {
		for _, n := range [][2]int{{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}} {
			if rr, cc := r+n[0], c+n[1]; rr >= 0 && rr < virus.Size && cc >= 0 && cc < virus.Size && req.Game.Grid[rr][cc] == mine {
				return true
			}
		}
		return false
	}
	for r, row := range req.Game.Grid {
		for c, v := range row {
			if v == 0 && touches(r, c) {
				return sandbox.Reply{Data: fmt.Appendf(nil, "[%d, %d]", r, c)}, nil
			}
		}
	}
	return pass, nil
}

// errPaused is the paced arena's answer while the test grants no game.
var errPaused = errors.New("no arena game granted")

// paced plays only the arena games the test grants, so that the ladder's
// page is seen before them and must follow them live. The loop only logs
// the judge's own failures: paced fails the test with them.
type paced struct {
	arena.Player
	grants chan struct{}
	t      *testing.T
}

func (p *paced) Play(ctx context.Context, game string, g arena.Game) error {
	select {
	case <-p.grants:
	default:
		return errPaused
	}
	err := p.Player.Play(ctx, game, g)
	if err != nil && ctx.Err() == nil {
		p.t.Errorf("arena game %s: %v", g.Key, err)
	}
	return err
}

// flowClass is a class of alice, bob and carol handing in virus bots,
// checked on firstCell's bots, with the arena on as judge serve --arena
// has it (ArenaPlayer and the arena's loop) but paced by the test.
func flowClass(t *testing.T) (*class, *paced) {
	t.Helper()
	sc := &SandboxChecker{Run: firstCell{&sandboxtest.Fake{}}, StageRoot: t.TempDir(), Limits: sandbox.DefaultLimits(), Opponents: 1}
	c := newClass(t, Options{Checker: sc, Games: []string{"virus"}}, "alice", "bob", "carol")
	p := &ArenaPlayer{Checker: sc}
	pace := &paced{Player: p, grants: make(chan struct{}, played), t: t}
	// Idle: a paused loop asks again soon, so that a grant is played at once.
	loop := &arena.Loop{Source: p, Player: pace, Games: []string{"virus"}, Idle: 100 * time.Millisecond, Log: log.New(io.Discard, "", 0), Hold: c.srv.ChecksWait}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { loop.Run(ctx); close(done) }()
	// Before the database closes (cleanups run last first).
	t.Cleanup(func() { cancel(); <-done })
	return c, pace
}

// played are the arena games the test grants.
const played = 12

// TestArenaFlow is the arena in Chromium (SPEC §7): the projector shows
// the ladder while three students hand in through the hand-in pages; each
// version joins it once checked, and its games are counted as they are
// played, without the page being reloaded. A student opens the replay of
// one of her arena games from her version's page and plays it; a student
// who did not play that game can neither open it nor read its record,
// from the browser or with her cookie in a plain request.
func TestArenaFlow(t *testing.T) {
	b := browsertest.Start(t)
	c, pace := flowClass(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The projector's page reads the ladder every 3 s.
	projector, student := newTab(ctx, t, b, c), newTab(ctx, t, b, c)
	projector.patience, student.patience = 20*time.Second, 20*time.Second
	projector.open("/arena/virus")
	projector.wait(`document.querySelectorAll('table.arena tbody tr').length === 1`)
	// A reload would forget this.
	projector.eval(`window.neverReloaded = true`, nil)

	bot := filepath.Join(t.TempDir(), "my bot.py")
	os.WriteFile(bot, []byte(pyBot), 0o644)
	student.open("/hand-in/")
	for _, name := range []string{"alice", "bob", "carol"} {
		student.logIn(name, c.codes[name], name)
		student.handIn(bot)
		student.wait(`document.getElementById('ready')`)
		student.open("/hand-in/")
		student.logOut()
	}
	ladderShows(projector, 0)
	projector.shot("arena-joined")
	for range played {
		pace.grants <- struct{}{}
	}
	ladderShows(projector, played)
	projector.shot("arena-played")

	w := gameToWatch(t, c)
	watchReplay(student, c, w)
	student.open("/hand-in/")
	student.logOut()
	student.logIn(w.other, c.codes[w.other], w.other)
	notOpened(student, c, w)
	// On the public ladder, she finds her own row marked; logged out, the
	// same page marks none. (The projector's tab shares her cookies.)
	student.open("/arena/virus")
	student.wait(fmt.Sprintf(`(() => {
		const mine = document.querySelectorAll('table.arena tbody tr.mine');
		return mine.length === 1 && mine[0].querySelector('.name').textContent === %q;
	})()`, w.other+"you"))
	student.shot("arena-you")
	student.open("/hand-in/")
	student.logOut()
	student.open("/arena/virus")
	student.wait(`document.querySelectorAll('table.arena tbody tr').length === 4`)
	var marked int
	student.eval(`document.querySelectorAll('table.arena tr.mine, table.arena .tag.you').length`, &marked)
	if marked != 0 {
		t.Errorf("logged out, the ladder marks %d rows or tags as its viewer's", marked)
	}
	for _, pr := range append(projector.p.Problems(), student.p.Problems()...) {
		if !strings.Contains(pr, "404") {
			t.Errorf("the browser reported: %s", pr)
		}
	}
}

// ladderShows waits until the projector's ladder, never reloaded, has the
// three students and the example bot, and counts games arena games.
func ladderShows(projector *tab, games int) {
	projector.t.Helper()
	projector.wait(fmt.Sprintf(`window.neverReloaded && (() => {
		const rows = [...document.querySelectorAll('table.arena tbody tr')];
		const names = rows.map((tr) => tr.querySelector('.name').textContent).sort().join(' ');
		const played = rows.reduce((n, tr) => n + +tr.children[3].textContent, 0);
		return names === 'alice bob carol exampleexample' && played === 2 * %d &&
			document.querySelector('.arena-view footer.note').textContent.includes('(%d games)');
	})()`, games, games))
}

// watched is the arena game a student replays, who played it, a student
// who did not, and an arena game of that student's own.
type watched struct {
	game          int64
	player, other string
	others        int64
}

// gameToWatch is an arena game between two students, and the one who did
// not play it.
func gameToWatch(t *testing.T, c *class) watched {
	t.Helper()
	a, err := c.db.Arena(context.Background(), "virus")
	if err != nil {
		t.Fatal(err)
	}
	students := func(g scoring.Game) (in []string) {
		for _, s := range g.Seats {
			if b := a.Joined[s.BotID]; !b.Example {
				in = append(in, b.Name)
			}
		}
		return in
	}
	var w watched
	for _, g := range a.Games {
		if in := students(g); len(in) == 2 && w.game == 0 {
			w.game, w.player = g.ID, in[0]
			w.other = strings.Join(slices.DeleteFunc([]string{"alice", "bob", "carol"}, func(s string) bool { return slices.Contains(in, s) }), "")
		}
	}
	for _, g := range a.Games {
		if w.other != "" && slices.Contains(students(g), w.other) {
			w.others = g.ID
		}
	}
	if w.game == 0 || w.others == 0 {
		t.Fatalf("among %d arena games, none between two students, or none of the third's: %+v", len(a.Games), w)
	}
	return w
}

// watchReplay: the player logs in on the log-in page, opens her version from her page, then the
// game's replay from her version's list of arena games, and plays it. Its
// record is hers to keep, with nobody's log.
func watchReplay(student *tab, c *class, w watched) {
	student.t.Helper()
	student.logIn(w.player, c.codes[w.player], w.player)
	student.eval(`document.querySelector('ol.versions li a').click()`, nil)
	link := fmt.Sprintf(`ul.arena-games a.replay[href="/game/%d"]`, w.game)
	student.wait(fmt.Sprintf(`location.pathname.startsWith('/hand-in/v/') && document.querySelector('%s')`, link))
	student.shot("arena-games")
	student.eval(fmt.Sprintf(`document.querySelector('%s').click()`, link), nil)
	student.wait(fmt.Sprintf(`location.pathname === '/game/%d' && document.querySelector('.replay')?.dataset.frame === '0'`, w.game))
	student.eval(`document.querySelector('.replay .ctl.play').click()`, nil)
	// The bots place pieces: the replay steps through their moves.
	student.wait(`+document.querySelector('.replay').dataset.frame >= 3 && document.querySelector('.replay.playing')`)
	student.shot("arena-replay")
	if st, body := student.fetch(fmt.Sprintf("/api/game/%d/record.json", w.game)); st != http.StatusOK || strings.Contains(body, logMark) {
		student.t.Errorf("%s's record of her arena game %d: %d %.300s, want it without the logs", w.player, w.game, st, body)
	}
}

// notOpened: the other student, logged in, gets the judge's not-found
// page for the game; its replay, its record and the player's version
// answer 404, to the browser and to a plain request with her cookie, which
// does open her own arena game.
func notOpened(student *tab, c *class, w watched) {
	t := student.t
	t.Helper()
	student.open(fmt.Sprintf("/game/%d", w.game))
	student.wait(`document.querySelector('section.notfound[data-what="notfound.game"]')`)
	student.shot("arena-not-found")
	plain := c.browser()
	u, _ := url.Parse(c.http.URL)
	plain.client.Jar.SetCookies(u, student.cookies())
	if st, body := plain.get(fmt.Sprintf("/api/game/%d/replay.json", w.others)); st != http.StatusOK || !strings.Contains(body, `"frames"`) {
		t.Fatalf("%s's cookie does not open her own arena game %d: %d %.200s", w.other, w.others, st, body)
	}
	hidden := []string{
		fmt.Sprintf("/api/game/%d/replay.json", w.game),
		fmt.Sprintf("/api/game/%d/record.json", w.game),
		fmt.Sprintf("/hand-in/v/%d", c.versions(w.player, "virus")[0].ID),
	}
	for _, path := range hidden {
		for how, get := range map[string]func(string) (int, string){"from the browser": student.fetch, "in a plain request": plain.get} {
			if st, body := get(path); st != http.StatusNotFound || strings.Contains(body, logMark) {
				t.Errorf("%s asks for %s %s: %d %.300s, want 404", w.other, path, how, st, body)
			}
		}
	}
}
