package screen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"botjudge/judge/screen/browsertest"
	"botjudge/results"
)

// A display the screen must fit: three projectors, a 4K screen, a phone.
type display struct {
	name  string
	w, h  int
	phone bool
}

var displays = []display{
	{"1024x768", 1024, 768, false},
	{"1366x768", 1366, 768, false},
	{"1920x1080", 1920, 1080, false},
	{"3840x2160", 3840, 2160, false},
	{"phone", 390, 844, true},
}

// The type thresholds of the README ("Screen on any display"): no text is
// smaller than minText, nor than the display's height over textPerHeight;
// on a projector view the body of the standings (bot names, points,
// counts) is at least the height over bodyPerHeight.
const (
	minText       = 12
	textPerHeight = 90
	bodyPerHeight = 52
)

// resize makes the tab a display, as a window resized or a phone would.
func resize(t *testing.T, ctx context.Context, p *browsertest.Page, d display) {
	t.Helper()
	emulate(t, ctx, p, d)
	// The page fits itself on resize (its resize and ResizeObserver
	// handlers, and again on the next frame): let two frames pass.
	wait(t, ctx, p, fmt.Sprintf(`%s && %s`, sized(d), settled))
}

// emulate makes p's window the size of d, for the page open and the next.
func emulate(t *testing.T, ctx context.Context, p *browsertest.Page, d display) {
	t.Helper()
	err := p.Call(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{
		"width": d.w, "height": d.h, "deviceScaleFactor": 1, "mobile": d.phone}, nil)
	if err != nil {
		t.Fatal(err)
	}
}

// sized is a JavaScript condition: the window has d's size.
func sized(d display) string {
	return fmt.Sprintf(`matchMedia('(width: %dpx) and (height: %dpx)').matches`, d.w, d.h)
}

// settled is a promise of true once the page's fonts are in and two frames
// have passed: a view fits itself on the frame after it is drawn.
const settled = `document.fonts.ready.then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))))`

// blocks are the main boxes of the pages, which must not overlap.
const blocks = `#top, #top > *, .fit > table, .note, .page > h1, .page > h2, .gametitle, .card, .stage > *, .centre > *, .moves, .controls, .why, .legend,
	.podium .place, .place .pname, .place .ppts, .tcard, .livecard, .game-row, .botgame, .facts, .caption, .bigprogress,
	.sside, .bside, .said, .resultbox, .scorechart, .movelist`

// layoutCheck lists what is wrong with the page as laid out: boxes outside
// the window or cut by their box, boxes overlapping, text too small or of
// too low a contrast. opts: {projector: the page must not scroll at all,
// sideways: a selector of boxes that may scroll sideways, minText, body:
// selector of the body text, minBody, contrast: check text contrast}.
const layoutCheck = `((opts) => {
	const W = document.documentElement.clientWidth, H = document.documentElement.clientHeight;
	const bad = [];
	const say = (s) => { if (bad.length < 12) bad.push(s); };
	const name = (e) => {
		let s = e.tagName.toLowerCase();
		if (e.id) s += '#' + e.id;
		const c = e.getAttribute('class');
		if (c) s += '.' + c.trim().split(/\s+/).join('.');
		const txt = (e.textContent || '').trim().slice(0, 30);
		return txt ? s + ' "' + txt + '"' : s;
	};
	const shown = (e) => e.checkVisibility({ visibilityProperty: true });
	const r0 = (r) => Math.round(r.left) + ',' + Math.round(r.top) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height);
	const se = document.scrollingElement;
	if (se.scrollWidth > W + 1) say('the page scrolls sideways: ' + se.scrollWidth + ' px wide in ' + W);
	if (opts.projector && se.scrollHeight > H + 1) say('the page scrolls: ' + se.scrollHeight + ' px high in ' + H);
	const all = [...document.body.querySelectorAll('*')].filter((e) => !e.closest('svg') || e.tagName === 'svg');
	const styles = new Map(all.map((e) => [e, getComputedStyle(e)]));
	const style = (e) => styles.get(e) || getComputedStyle(e);
	// Nothing moves while the check runs: each box is measured once, not
	// once for each of its descendants.
	const rects = new Map();
	const rect = (e) => { let r = rects.get(e); if (!r) rects.set(e, r = e.getBoundingClientRect()); return r; };
	const clips = (v) => v === 'hidden' || v === 'clip';
	const scrolls = (v) => v === 'auto' || v === 'scroll';
	// A deliberate clip of a decoration, not of content.
	const decoration = '.scorechart, .scorechart *, .bbar, .bbar *, .token, .token *, #progress, #progress *';
	for (const e of all) {
		if (!shown(e) || e.matches(decoration)) continue;
		const s = style(e);
		if (scrolls(s.overflowX) && e.scrollWidth > e.clientWidth + 1 && !(opts.sideways && e.matches(opts.sideways)))
			say(name(e) + ' scrolls sideways (' + e.scrollWidth + ' px in ' + e.clientWidth + ')');
		if (clips(s.overflowX) && e.scrollWidth > e.clientWidth + 1) say(name(e) + ' cuts its content sideways (' + e.scrollWidth + ' px in ' + e.clientWidth + ')');
		if (clips(s.overflowY) && e.scrollHeight > e.clientHeight + 2) say(name(e) + ' cuts its content (' + e.scrollHeight + ' px high in ' + e.clientHeight + ')');
		const r = rect(e);
		if (r.width < 1 && r.height < 1) continue;
		let x = true, y = opts.projector;
		for (let a = e.parentElement; a && a !== document.body && (x || y); a = a.parentElement) {
			const as = style(a), ar = rect(a);
			if (x && scrolls(as.overflowX)) x = false;
			if (y && scrolls(as.overflowY)) y = false;
			if (x && clips(as.overflowX) && (r.left < ar.left - 1 || r.right > ar.right + 1)) { say(name(e) + ' ' + r0(r) + ' cut by ' + name(a) + ' ' + r0(ar)); x = false; }
			if (clips(as.overflowY) && (r.top < ar.top - 1 || r.bottom > ar.bottom + 1)) {
				if (!scrolls(as.overflowY)) { say(name(e) + ' ' + r0(r) + ' cut by ' + name(a) + ' ' + r0(ar)); y = false; }
			}
		}
		if (x && (r.left < -1 || r.right > W + 1)) say(name(e) + ' ' + r0(r) + ' is out of the window sideways');
		if (y && (r.top < -1 || r.bottom > H + 1)) say(name(e) + ' ' + r0(r) + ' is out of the window');
	}
	// Main blocks do not overlap (one inside another is not an overlap).
	// What shows of a box: its rectangle inside every box that clips or
	// scrolls it.
	const showing = (e) => {
		let r = rect(e), [l, t, rt, b] = [r.left, r.top, r.right, r.bottom];
		for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
			const as = style(a);
			if (as.overflowX === 'visible' && as.overflowY === 'visible') continue;
			const ar = rect(a);
			[l, t, rt, b] = [Math.max(l, ar.left), Math.max(t, ar.top), Math.min(rt, ar.right), Math.min(b, ar.bottom)];
		}
		return { left: l, top: t, right: rt, bottom: b, width: rt - l, height: b - t };
	};
	const bs = [...document.querySelectorAll(opts.blocks)].filter(shown).map((e) => [e, showing(e)]).filter(([, r]) => r.width >= 1 && r.height >= 1);
	for (let i = 0; i < bs.length; i++) for (let j = i + 1; j < bs.length; j++) {
		const [a, ra] = bs[i], [b, rb] = bs[j];
		if (a.contains(b) || b.contains(a)) continue;
		const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left), h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
		if (w > 1 && h > 1) say(name(a) + ' ' + r0(ra) + ' overlaps ' + name(b) + ' ' + r0(rb));
	}
	// The header is one line where the window is wide enough: nothing of
	// it (the progress line included) pushes its buttons onto a second.
	const brand = document.querySelector('#top .brand');
	if (opts.oneLine && brand && shown(brand)) {
		const line = brand.getBoundingClientRect();
		for (const e of document.querySelectorAll('#top > *')) {
			const r = e.getBoundingClientRect();
			if (shown(e) && r.width > 0 && (r.top >= line.bottom - 1 || r.bottom <= line.top + 1)) say(name(e) + ' ' + r0(r) + ' is not on the header\'s line ' + r0(line));
		}
	}
	// A board is inside its live card, or the TV's stage, and no smaller
	// than 8rem each way (the smallest, tic-tac-toe's on a card, is 9.6rem).
	const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
	for (const e of document.querySelectorAll('.livecard .lboard > *, .tv-view .stage > *')) {
		if (!shown(e)) continue;
		const box = e.closest('.livecard, .stage'), r = e.getBoundingClientRect(), br = box.getBoundingClientRect();
		if (r.left < br.left - 1 || r.right > br.right + 1 || r.top < br.top - 1 || r.bottom > br.bottom + 1) say(name(e) + ' ' + r0(r) + ' is not inside ' + name(box) + ' ' + r0(br));
		if (r.width < 8 * rem || r.height < 8 * rem) say(name(e) + ' ' + r0(r) + ' is smaller than 8rem (' + 8 * rem + ' px)');
	}
	// Words: none is broken across two lines (a name on a card wraps
	// whole, or gets smaller), unless it is longer than its line at the
	// smallest type (1.5rem, and the display's least). A word ends at a
	// space or after a hyphen or a slash, where lines may break.
	const smallest = Math.max(opts.minText, 1.5 * rem) + .5;
	const container = (e) => { while (e.parentElement && getComputedStyle(e).display === 'inline') e = e.parentElement; return e; };
	const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, { acceptNode: (n) => /\S/.test(n.data) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT });
	for (let n = texts.nextNode(); n; n = texts.nextNode()) {
		const e = n.parentElement;
		if (!e || e.closest('option, script, style, svg') || !shown(e)) continue;
		// A text on one line breaks no word: only the few that wrap are
		// measured word by word (a 30-bot schedule has thousands of words).
		const whole = document.createRange();
		whole.selectNodeContents(n);
		const lines = [...whole.getClientRects()].filter((q) => q.width > 0);
		if (lines.every((q) => Math.abs(q.top - lines[0].top) < 2)) continue;
		const box = container(e), bs = getComputedStyle(box), fs = parseFloat(getComputedStyle(e).fontSize);
		const room = box.clientWidth - parseFloat(bs.paddingLeft) - parseFloat(bs.paddingRight);
		for (const m of n.data.matchAll(/[^\s\-\u2010\u2013\u2014\/]+[\-\u2010\u2013\u2014\/]?/g)) {
			const range = document.createRange();
			range.setStart(n, m.index);
			range.setEnd(n, m.index + m[0].length);
			const rs = [...range.getClientRects()].filter((q) => q.width > 0);
			if (rs.length < 2 || rs.every((q) => Math.abs(q.top - rs[0].top) < 2)) continue;
			const whole = rs.reduce((w, q) => w + q.width, 0);
			if (fs > smallest || whole <= room + 1) say(name(e) + ' breaks "' + m[0] + '" across lines (' + fs.toFixed(1) + ' px type, ' + Math.round(whole) + ' px in ' + Math.round(room) + ')');
		}
	}
	// A crosstable's name stays in its header, off the cells beside it.
	for (const a of document.querySelectorAll('.cross th.nm a')) {
		if (!shown(a)) continue;
		const th = a.closest('th').getBoundingClientRect(), range = document.createRange();
		range.selectNodeContents(a);
		if ([...range.getClientRects()].some((q) => q.right > th.right + 1 || q.left < th.left - 1)) say(name(a) + ' runs out of its header ' + r0(th) + ' over the cells');
	}
	// Text: size, and contrast against the first opaque background under it.
	const rgb = (c) => { const m = c.match(/[\d.]+/g).map(Number); return { r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1 }; };
	const lum = ({ r, g, b }) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
	const mix = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
	// The background under e: its own colour over its parent's, down to
	// the first opaque one; null under an image. Kept for the texts of the
	// same boxes.
	const backgrounds = new Map();
	const background = (e) => {
		if (!e) return { r: 255, g: 255, b: 255, a: 1 };
		if (backgrounds.has(e)) return backgrounds.get(e);
		const s = style(e), own = rgb(s.backgroundColor);
		let c = null;
		if (s.backgroundImage === 'none') {
			const under = own.a >= 1 ? null : background(e.parentElement);
			c = own.a >= 1 ? own : under && (own.a > 0 ? mix(own, under) : under);
		}
		backgrounds.set(e, c);
		return c;
	};
	const seen = new Set();
	const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, { acceptNode: (n) => /\S/.test(n.data) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT });
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		const e = n.parentElement;
		if (!e || seen.has(e) || e.closest('option, script, style, svg') || !shown(e)) continue;
		seen.add(e);
		const range = document.createRange();
		range.selectNodeContents(n);
		if (![...range.getClientRects()].some((r) => r.width > 0 && r.height > 0)) continue;
		const s = getComputedStyle(e), fs = parseFloat(s.fontSize);
		if (fs < opts.minText - 0.01) say(name(e) + ': ' + fs.toFixed(1) + ' px text, under ' + opts.minText.toFixed(1));
		if (opts.body && e.closest(opts.body) && fs < opts.minBody - 0.01) say(name(e) + ': ' + fs.toFixed(1) + ' px body text, under ' + opts.minBody.toFixed(1));
		if (opts.contrast) {
			const bg = background(e);
			if (!bg || parseFloat(s.opacity) < 1) continue;
			const fg = mix(rgb(s.color), bg);
			const [l1, l2] = [lum(fg), lum(bg)].sort((a, b) => b - a);
			const ratio = (l1 + 0.05) / (l2 + 0.05);
			if (ratio < 4.5) say(name(e) + ': contrast ' + ratio.toFixed(2) + ' (' + s.color + ' on rgb(' + [bg.r, bg.g, bg.b].map(Math.round) + '))');
		}
	}
	return bad;
})`

// A view of the screen to check at every display.
type layoutView struct {
	name  string
	path  string
	ready string // a JavaScript condition: the view is shown
	// projector views fill the window and never scroll (except on a phone,
	// where the standings and crosstable may scroll down).
	projector bool
	// sideways are the boxes that may scroll sideways on a phone.
	sideways string
	// phoneFits: the view fits a phone's screen too (the presentation's
	// tables and podium; its replay, board above moves, scrolls).
	phoneFits bool
	// empty: the view of a database that holds no tournament yet.
	empty bool
}

// The states a tournament's pages go through: none yet, in progress, and
// finished.
func layoutViews(t *testing.T) []layoutView {
	ctx := context.Background()
	// No tournament yet: the list says so, a tournament's pages wait for it.
	waiting := `document.querySelector('.notfound .wait')`
	views := []layoutView{
		{name: "empty/tournaments", path: "/", ready: `document.querySelector('.tournaments > .message')`, empty: true},
		{name: "empty/standings", path: "/t/1", ready: waiting, empty: true},
		{name: "empty/tv", path: "/t/1/tv", ready: waiting, empty: true},
		{name: "empty/show", path: "/t/1/show", ready: waiting, empty: true},
		{name: "tournaments", path: "/", ready: `document.querySelector('.tcard')`},
	}
	// Every view of a tournament; those of one in progress show its games
	// in progress, each on its live card.
	for _, sd := range []seeded{fix.c4, fix.virus, fix.run.busy, fix.swiss} {
		state := "finished"
		if len(sd.live) > 0 {
			state = "running"
		}
		if sd.t.Format == results.FormatSwiss {
			state = "swiss"
		}
		tid := sd.t.ID
		n := len(sd.bots)
		st := must(fix.db.Standings(ctx, tid, results.SchemeDefault))
		worst := mostFaults(st)
		named := func(view string) string { return fmt.Sprintf("%s/%s-%d", state, view, n) }
		// The pair page of the leader and an opponent it met (in swiss
		// rounds, not every bot meets the second).
		met := must(fix.db.Games(ctx, tid, results.GameFilter{BotID: st[0].Bot.ID}))[0].Players
		opponent := met[0].BotID
		if opponent == st[0].Bot.ID {
			opponent = met[1].BotID
		}
		show := func(stage string) layoutView {
			return layoutView{name: named("show-" + stage), path: fmt.Sprintf("/t/%d/show?only=%s&dwell=3600", tid, stage),
				ready: fmt.Sprintf(`document.querySelector('.show-view')?.dataset.stage === '%s' && !document.querySelector('.show-view .stage-box > .message')`, stage), projector: true, sideways: ".show-view .fit", phoneFits: true}
		}
		views = append(views,
			layoutView{name: named("standings"), path: fmt.Sprintf("/t/%d", tid), ready: `document.querySelector('table.standings')`, projector: true},
			layoutView{name: named("crosstable"), path: fmt.Sprintf("/t/%d/crosstable", tid), ready: `document.querySelector('table.cross')`, projector: true, sideways: ".cross-view > .fit"},
			layoutView{name: named("schedule"), path: fmt.Sprintf("/t/%d/schedule", tid), ready: `document.querySelector('.schedule-view .done .game-row')`},
			layoutView{name: named("pair"), path: fmt.Sprintf("/t/%d/pair/%d/%d", tid, st[0].Bot.ID, opponent), ready: `document.querySelector('.pair-view .game-row')`},
			layoutView{name: named("bot"), path: fmt.Sprintf("/t/%d/bot/%d", tid, worst.Bot.ID), ready: `document.querySelector('.botgame')`},
			show("standings"), show("crosstable"),
			layoutView{name: named("show-decisive"), path: fmt.Sprintf("/t/%d/show?only=decisive&dwell=3600&replay=3600", tid),
				ready: `document.querySelector('.show-view .replay')`, projector: true},
		)
		if state == "finished" {
			views = append(views, show("podium"),
				layoutView{name: named("live"), path: fmt.Sprintf("/t/%d/live", tid), ready: `document.querySelector('.live-view .game-row')`},
				layoutView{name: named("tv"), path: fmt.Sprintf("/t/%d/tv", tid), ready: `document.querySelector('.tv-view > .message:not([hidden])')`, projector: true, phoneFits: true})
		}
	}
	// Long names beside a crosstable's cells: the podium's, and the one
	// word of a running tournament's.
	views = append(views,
		layoutView{name: "finished/crosstable-longnames", path: fmt.Sprintf("/t/%d/crosstable", fix.podium.t.ID), ready: `document.querySelector('table.cross')`, projector: true, sideways: ".cross-view > .fit"},
		layoutView{name: "running/crosstable-longname", path: fmt.Sprintf("/t/%d/crosstable", fix.run.boards[0].t.ID), ready: `document.querySelector('table.cross td.playing')`, projector: true, sideways: ".cross-view > .fit"})
	// Every board on the TV and on the live cards, in every kind of card.
	for _, sd := range append([]seeded{fix.run.busy}, fix.run.boards...) {
		views = append(views, liveViews(sd)...)
	}
	// A free-for-all's rows, in progress and played: a score by each name.
	views = append(views, layoutView{name: "running/tron-12/schedule", path: fmt.Sprintf("/t/%d/schedule", twelveInProgress(t).TournamentID),
		ready: `document.querySelector('.schedule-view .playing .pscore') && document.querySelector('.schedule-view .done .pscore')`})
	// A replay of every board at its last move, which shows the result,
	// the longest line of a replay: the most seats of each game, and the
	// example bots' names.
	for _, sd := range append([]seeded{fix.virus, fix.ships, fix.tron, fix.ffa, fix.ttt, fix.c4, fix.boats, fix.long}, fix.run.boards...) {
		most := 0
		for _, g := range must(fix.db.Games(ctx, sd.t.ID, results.GameFilter{})) {
			most = max(most, len(g.Players))
		}
		g := gameWhere(t, sd, func(g results.Game) bool { return len(g.Players) == most })
		views = append(views, layoutView{name: fmt.Sprintf("replay/%s-%d-t%d", sd.t.Game, most, sd.t.ID), path: fmt.Sprintf("/game/%d?move=%d", g.ID, len(g.Moves)),
			ready: `document.querySelector('.replay')`, projector: true})
	}
	return views
}

// mostFaults is the standing of the bot with the most faults: the longest
// bot page, whose first faulty game shows its log open.
func mostFaults(st []results.Standing) results.Standing {
	worst := st[0]
	for _, s := range st {
		if s.Timeouts+s.Crashes+s.Illegal > worst.Timeouts+worst.Crashes+worst.Illegal {
			worst = s
		}
	}
	return worst
}

// liveViews are the views of a tournament in progress that draw its games:
// the TV on each of its kinds of game (by seats), the live cards, and the
// presentation's stage of games in progress.
func liveViews(sd seeded) []layoutView {
	tid := sd.t.ID
	name := fmt.Sprintf("running/%s-%d", sd.t.Game, len(sd.bots))
	cards := fmt.Sprintf(`document.querySelectorAll('.livecard').length === %d && [...document.querySelectorAll('.livecard')].every((c) => c.querySelector('.lboard > *'))`, len(sd.live))
	views := []layoutView{
		{name: name + "/live", path: fmt.Sprintf("/t/%d/live", tid), ready: cards},
		{name: name + "/show-live", path: fmt.Sprintf("/t/%d/show?only=live&dwell=3600", tid),
			ready: `document.querySelector('.show-view')?.dataset.stage === 'live' && document.querySelector('.show-view .livecard .lboard > *')`, projector: true, phoneFits: true},
	}
	seats := map[int]bool{}
	for _, l := range sd.live {
		if seats[len(l.Players)] {
			continue
		}
		seats[len(l.Players)] = true
		views = append(views, layoutView{name: fmt.Sprintf("%s/tv-%d", name, len(l.Players)), path: fmt.Sprintf("/t/%d/tv?key=%s", tid, url.QueryEscape(l.Key)),
			ready: fmt.Sprintf(`document.querySelector('.tv-view')?.dataset.key === %q && document.querySelector('.tv-view .stage > *')`, l.Key), projector: true, phoneFits: true})
	}
	return views
}

// Every view fits every display, in English and in French: nothing out of
// the window or cut, no overlapping blocks, no text too small or too pale,
// no word broken where it would fit whole, the header on one line where
// the window is wide enough, every board inside its card or its stage.
// Desktop displays have Chromium's ordinary scrollbars, which take room
// from a page that scrolls; a phone's overlay ones take none.
func TestLayout(t *testing.T) {
	b := browsertest.Start(t)
	servers := map[bool]string{false: serve(t).URL, true: serveDB(t, must(results.Open(filepath.Join(t.TempDir(), "empty.db")))).URL}
	// A hundred views × 5 displays × 2 languages, each opened anew:
	// minutes on a busy machine.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	type check struct {
		lang string
		v    layoutView
	}
	var checks []check
	views := layoutViews(t)
	for _, lang := range []string{"en", "fr"} {
		for _, v := range views {
			checks = append(checks, check{lang, v})
		}
	}
	// A check waits for frames after each resize and load: tabs take the
	// checks in turn, so that one's waits overlap another's work.
	pages := make([]*browsertest.Page, layoutTabs)
	var wg sync.WaitGroup
	for i := range pages {
		p := b.NewPage(t)
		pages[i] = p
		wg.Add(1)
		go func() {
			defer wg.Done()
			lang := ""
			for k := i; k < len(checks); k += len(pages) {
				c := checks[k]
				if c.lang != lang {
					if err := p.SetHeaders(ctx, map[string]string{"Accept-Language": c.lang}); err != nil {
						t.Error(err)
						return
					}
					lang = c.lang
				}
				t.Run(c.lang+"/"+c.v.name, func(t *testing.T) { checkLayout(t, ctx, p, servers[c.v.empty], c.lang, c.v) })
			}
		}()
	}
	wg.Wait()
	// Pages of a tournament that does not exist yet find its API missing.
	var probs []string
	for _, p := range pages {
		for _, pb := range p.Problems() {
			if !strings.Contains(pb, "404") || !strings.Contains(pb, servers[true]+"/api/t/1/") {
				probs = append(probs, pb)
			}
		}
	}
	if len(probs) > 0 {
		t.Errorf("the browser reported problems:\n%s", strings.Join(probs, "\n"))
	}
}

// layoutTabs are the tabs TestLayout checks views in at once.
const layoutTabs = 3

// checkLayout checks view v, served at base, at every display.
func checkLayout(t *testing.T, ctx context.Context, p *browsertest.Page, base, lang string, v layoutView) {
	// Each display opens the page anew, as a projector does: resizing an
	// open page is TestMoveLinkScrollsTheList's and
	// TestPodiumTiesAndLongNames's.
	for _, d := range displays {
		// The page left open is not drawn again at the new size: the
		// next one opens at it.
		emulate(t, ctx, p, d)
		if err := p.Navigate(ctx, base+v.path); err != nil {
			t.Fatal(err)
		}
		wait(t, ctx, p, sized(d)+" && "+v.ready)
		wait(t, ctx, p, settled)

		opts := map[string]any{
			"projector": v.projector && !(d.phone && !v.phoneFits),
			"sideways":  "",
			"blocks":    blocks,
			"minText":   math.Max(minText, float64(d.h)/textPerHeight),
			"contrast":  d.name == "1920x1080",
			"oneLine":   !d.phone && d.w >= 1366,
		}
		if d.phone {
			opts["sideways"] = v.sideways
		}
		if v.projector && !d.phone {
			opts["body"] = ".standings td.name > a, .standings td.num:not(.pts), .standings .pts > .v, .standings .rv"
			opts["minBody"] = float64(d.h) / bodyPerHeight
		}
		if dbg := os.Getenv("LAYOUT_DEBUG"); dbg != "" {
			t.Logf("%s at %s: %v", v.name, d.name, eval[any](t, ctx, p, dbg))
		}
		problems := eval[[]string](t, ctx, p, fmt.Sprintf("%s(%s)", layoutCheck, must(jsonString(opts))))
		for _, pr := range problems {
			t.Errorf("%s at %s: %s", v.name, d.name, pr)
		}
		if os.Getenv("SCREENSHOTS") != "" {
			screenshot(t, ctx, p, strings.NewReplacer("/", "-").Replace(fmt.Sprintf("layout-%s-%s-%s", lang, v.name, d.name)))
		}
	}
}

func jsonString(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// check runs layoutCheck on the page as it is, at display d, with the
// contrast of text checked.
func check(t *testing.T, ctx context.Context, p *browsertest.Page, what string, d display) {
	t.Helper()
	opts := map[string]any{"projector": false, "sideways": "", "blocks": blocks,
		"minText": math.Max(minText, float64(d.h)/textPerHeight), "contrast": true}
	for _, pr := range eval[[]string](t, ctx, p, fmt.Sprintf("%s(%s)", layoutCheck, must(jsonString(opts)))) {
		t.Errorf("%s at %s: %s", what, d.name, pr)
	}
}

// stripes measures what a projector must show of the standings: the
// contrast of a striped row against the next one, of the rating's band
// against its track, and of the track against its row.
const stripes = `(() => {
	const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
	const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
	const ratio = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
	const bg = (e) => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor; if (!/rgba\(.*, 0\)/.test(c) && c !== 'transparent') return c; } return 'rgb(255, 255, 255)'; };
	const rows = document.querySelectorAll('.standings tbody tr');
	const odd = bg(rows[0]), even = bg(rows[1]);
	const track = getComputedStyle(rows[1].querySelector('.cibar')).backgroundColor;
	const band = getComputedStyle(rows[1].querySelector('.cibar .band')).backgroundColor;
	return [ratio(odd, even), ratio(band, track), Math.min(ratio(track, odd), ratio(track, even))];
})()`

// The header's button switches to the light theme and back, in both
// languages; the choice outlives a reload; in both themes every text
// reaches 4.5:1, the stripes and the rating bar show on a projector.
func TestThemeToggle(t *testing.T) {
	d := displays[2]
	tid := fix.c4.t.ID
	p, _, srv := browse(t, fmt.Sprintf("/t/%d", tid))
	// A dozen pages: more than browse's time on a busy machine.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	wait(t, ctx, p, `document.querySelector('table.standings') && document.querySelector('#top button.theme')`)
	if got := eval[[2]string](t, ctx, p, `[document.documentElement.dataset.theme || '', document.querySelector('#top button.theme').textContent]`); got != [2]string{"", "Light"} {
		t.Errorf("at first the theme is %q", got)
	}
	pages := []struct{ path, ready string }{
		{fmt.Sprintf("/t/%d", tid), `document.querySelector('table.standings')`},
		{fmt.Sprintf("/t/%d/crosstable", tid), `document.querySelector('table.cross')`},
		{fmt.Sprintf("/t/%d/bot/%d", fix.virus.t.ID, fix.virus.ids[1]), `document.querySelector('.botgame')`},
		// A bot's log, open under its first fault: a terminal in both themes.
		{fmt.Sprintf("/t/%d/bot/%d", fix.virus.t.ID, mostFaults(must(fix.db.Standings(context.Background(), fix.virus.t.ID, results.SchemeDefault))).Bot.ID),
			`document.querySelector('.logbox[open] .log')`},
		{fmt.Sprintf("/game/%d", gameWhere(t, fix.ships, func(results.Game) bool { return true }).ID), `document.querySelector('.replay')`},
		{fmt.Sprintf("/game/%d", gameWhere(t, fix.ffa, func(results.Game) bool { return true }).ID), `document.querySelector('.replay')`},
		{fmt.Sprintf("/t/%d/show?only=podium&dwell=3600", fix.podium.t.ID), `document.querySelector('.podium')`},
	}
	for _, theme := range []string{"dark", "light"} {
		if theme == "light" {
			if err := p.Navigate(ctx, srv.URL+pages[0].path); err != nil {
				t.Fatal(err)
			}
			wait(t, ctx, p, `document.querySelector('#top button.theme')`)
			if err := p.Eval(ctx, `document.querySelector('#top button.theme').click()`, nil); err != nil {
				t.Fatal(err)
			}
			got := eval[[3]string](t, ctx, p, `[document.documentElement.dataset.theme, localStorage.getItem('theme'), document.querySelector('#top button.theme').textContent]`)
			if got != [3]string{"light", "light", "Dark"} {
				t.Errorf("after a click the theme, the stored theme and the button say %q", got)
			}
		}
		for _, pg := range pages {
			if err := p.Navigate(ctx, srv.URL+pg.path); err != nil {
				t.Fatal(err)
			}
			wait(t, ctx, p, pg.ready)
			if got := eval[string](t, ctx, p, `document.documentElement.dataset.theme || 'dark'`); got != theme {
				t.Errorf("%s: the theme is %s after a reload, not %s", pg.path, got, theme)
			}
			check(t, ctx, p, theme+" "+pg.path, d)
			if os.Getenv("SCREENSHOTS") != "" {
				screenshot(t, ctx, p, "theme-"+theme+strings.NewReplacer("/", "-", "?", "-", "&", "-", "=", "-").Replace(pg.path))
			}
			if strings.HasPrefix(pg.path, fmt.Sprintf("/t/%d", tid)) && !strings.Contains(pg.path, "crosstable") {
				r := eval[[3]float64](t, ctx, p, stripes)
				if r[0] < 1.3 || r[1] < 3 || r[2] < 1.3 {
					t.Errorf("%s theme: stripes %.2f:1 (want 1.3), band on track %.2f:1 (want 3), track on rows %.2f:1 (want 1.3)", theme, r[0], r[1], r[2])
				}
			}
		}
	}
	// The button speaks French too, and switches back.
	if err := p.SetHeaders(ctx, map[string]string{"Accept-Language": "fr"}); err != nil {
		t.Fatal(err)
	}
	if err := p.Navigate(ctx, srv.URL+pages[0].path); err != nil {
		t.Fatal(err)
	}
	wait(t, ctx, p, `document.querySelector('#top button.theme')`)
	if got := eval[string](t, ctx, p, `document.querySelector('#top button.theme').textContent`); got != "Sombre" {
		t.Errorf("in French, in the light theme, the button says %q", got)
	}
	if err := p.Eval(ctx, `document.querySelector('#top button.theme').click()`, nil); err != nil {
		t.Fatal(err)
	}
	if got := eval[[2]string](t, ctx, p, `[document.documentElement.dataset.theme, document.querySelector('#top button.theme').textContent]`); got != [2]string{"dark", "Clair"} {
		t.Errorf("back to dark, the theme and the button say %q", got)
	}
}

// The podium shows long names whole, and bots that share the first rank
// on gold blocks, at every display.
func TestPodiumTiesAndLongNames(t *testing.T) {
	st := must(fix.db.Standings(context.Background(), fix.podium.t.ID, results.SchemeDefault))
	first := 0
	for _, s := range st {
		if s.Rank == 1 {
			first++
		}
	}
	if first < 2 {
		t.Fatalf("the podium fixture has %d first bots, the test needs a tie", first)
	}
	p, ctx, _ := browse(t, fmt.Sprintf("/t/%d/show?only=podium&dwell=3600", fix.podium.t.ID))
	wait(t, ctx, p, `document.querySelector('.podium .place')`)
	type place struct {
		Name  string
		Rank  string
		Step  string
		Whole bool
	}
	// A name is whole when its text's boxes are inside its own box.
	const places = `[...document.querySelectorAll('.podium .place')].map((pl) => {
		const n = pl.querySelector('.pname'), r = n.getBoundingClientRect(), range = document.createRange();
		range.selectNodeContents(n);
		// Glyphs overhang a tight line box: a third of the type is allowed.
		const slack = parseFloat(getComputedStyle(n).fontSize) / 3;
		const whole = [...range.getClientRects()].every((q) => q.left >= r.left - 1 && q.right <= r.right + 1 && q.top >= r.top - slack && q.bottom <= r.bottom + slack)
			&& n.scrollWidth <= n.clientWidth + 1 && getComputedStyle(n).textOverflow !== 'ellipsis';
		return { name: n.textContent, rank: pl.dataset.rank, step: [...pl.classList].find((c) => /^p\d$/.test(c)), whole };
	})`
	for _, d := range displays {
		resize(t, ctx, p, d)
		got := eval[[]place](t, ctx, p, places)
		if len(got) != 3 {
			t.Fatalf("the podium has %d places", len(got))
		}
		for _, pl := range got {
			want := "p" + pl.Rank
			if pl.Rank > "3" {
				want = "p3"
			}
			if pl.Step != want {
				t.Errorf("at %s, %s of rank %s stands on %s", d.name, pl.Name, pl.Rank, pl.Step)
			}
			if !pl.Whole {
				t.Errorf("at %s, %q is not shown whole", d.name, pl.Name)
			}
			if len([]rune(pl.Name)) <= 11 {
				t.Errorf("%q: the fixture's names should be longer than 11 characters", pl.Name)
			}
		}
		check(t, ctx, p, "podium", d)
		if os.Getenv("SCREENSHOTS") != "" {
			screenshot(t, ctx, p, "podium-ties-"+d.name)
		}
	}
}

// A link to a move (a bot page's fault) opens the replay at it, with its
// line in view in the move list.
func TestMoveLinkScrollsTheList(t *testing.T) {
	g := gameWhere(t, fix.long, func(results.Game) bool { return true })
	// The step half-way through: each of it holds both seats' moves.
	n := g.Moves[len(g.Moves)/2].Ply + 1
	p, ctx, _ := browse(t, fmt.Sprintf("/game/%d?move=%d", g.ID, n))
	wait(t, ctx, p, `document.querySelector('.movelist li.current')`)
	for _, d := range displays {
		resize(t, ctx, p, d)
		ok := eval[bool](t, ctx, p, `(l => { const li = l.querySelector('li.current'), r = li.getBoundingClientRect(), b = l.getBoundingClientRect();
			return l.scrollTop > 0 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1; })(document.querySelector('.movelist'))`)
		if !ok {
			t.Errorf("at %s, opened at move %d, the move list does not show its line", d.name, n)
		}
	}
}
