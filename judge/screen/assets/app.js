// The screen's single page: a router over the views (standings, crosstable,
// pairings, replays, live games, bot pages, presentation), the header with
// the tournament's progress, and the server-sent events that keep it live.

import { el, fill, t, tn, getJSON, points, duration, loadStrings, lang, nameLength, setLanguage, verdict, verdictText, sleep, timeText, timeTitle, winText } from './util.js';
import { Player, labelled, loadBoard, many, markOf, words } from './replay.js';
import { follow } from './events.js';

const main = document.getElementById('view');
const top = document.getElementById('top');
const bar = document.getElementById('progress');

let current = null; // the mounted view: {cleanup, onState, fit}
let routeSeq = 0;
let events = null; // {tid, stop}
let lastState = null;
let kinds = {}; // tournament id → game name

// ------------------------------------------------------------ routing

const routes = [
  [/^\/$/, viewTournaments],
  [/^\/t\/(\d+)(?:\/standings)?\/?$/, viewStandings],
  [/^\/t\/(\d+)\/crosstable$/, viewCrosstable],
  [/^\/t\/(\d+)\/pair\/(\d+)\/(\d+)$/, viewPair],
  [/^\/t\/(\d+)\/bot\/(\d+)$/, viewBot],
  [/^\/t\/(\d+)\/live$/, viewLive],
  [/^\/t\/(\d+)\/schedule$/, viewSchedule],
  [/^\/t\/(\d+)\/tv$/, viewTv],
  [/^\/t\/(\d+)\/show$/, viewShow],
  [/^\/game\/(\d+)$/, viewGame],
];

function navigate(url, replace = false) {
  history[replace ? 'replaceState' : 'pushState'](null, '', url);
  route();
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a');
  if (!a || a.target || a.hasAttribute('download') || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  const u = new URL(a.href, location.href);
  if (u.origin !== location.origin || u.pathname.startsWith('/api/') || u.pathname.startsWith('/assets/')) return;
  e.preventDefault();
  navigate(u.pathname + u.search);
});
window.addEventListener('popstate', route);
// A view fits itself to its room whenever that changes: a window resized,
// a phone turned, the header wrapping onto two lines.
// Some resizes (a browser's device emulation, a phone turned) tell before
// the layout has its new size: fit again on the next frame.
const refit = () => { current?.fit?.(); requestAnimationFrame(() => current?.fit?.()); };
new ResizeObserver(refit).observe(main);
window.addEventListener('resize', refit);
// and a frame's check of the window's size, which no event can miss.
let seen = '';
(function watch() {
  const size = `${innerWidth}x${innerHeight}`;
  if (size !== seen) { seen = size; refit(); }
  requestAnimationFrame(watch);
})();

async function route() {
  const seq = ++routeSeq;
  current?.cleanup?.();
  current = null;
  document.body.className = '';
  const query = new URLSearchParams(location.search);
  let view = null, params = [];
  for (const [re, v] of routes) {
    const m = location.pathname.match(re);
    if (m) { view = v; params = m.slice(1).map(Number); break; }
  }
  if (!view) {
    await failure(seq, null);
    return;
  }
  fill(main, el('p', { class: 'message', text: t('loading') }));
  try {
    const v = await view(params, query);
    if (seq !== routeSeq) { v.cleanup?.(); return; }
    current = v;
    document.body.classList.add('view-' + view.name.replace(/^view/, '').toLowerCase());
    if (v.bodyClass) document.body.classList.add(v.bodyClass);
    await header(v.tid, v.nav);
    if (seq !== routeSeq) return;
    fill(main, v.node);
    v.fit?.();
    v.start?.();
    listen(v.tid);
  } catch (err) {
    if (seq === routeSeq) await failure(seq, err);
  }
}

// failure shows what was not found (or what failed), in words, with a link
// back to the tournament if it exists, else to the list of tournaments. The
// page then follows the list of tournaments and tries again when what it
// lacks may have come: a page opened before `judge run` recorded its
// tournament (or game, or bot) shows it when it comes. The tests are on
// counts that only grow, so that a list a poll behind the one fetched here
// cannot make the page try again and again.
async function failure(seq, err) {
  const path = location.pathname;
  const tid = +(path.match(/^\/t\/(\d+)(\/|$)/)?.[1] || 0);
  let list = null;
  try { list = await getJSON('/api/tournaments.json'); } catch { /* the message below says enough */ }
  if (seq !== routeSeq) return;
  const there = list?.find((x) => x.id === tid);
  const missing = !err || err.status === 404;
  let what = 'notfound.page';
  if (tid && !there) what = 'notfound.tournament';
  else if (/^\/game\/\d+$/.test(path)) what = 'notfound.game';
  else if (/^\/t\/\d+\/bot\/\d+$/.test(path)) what = 'notfound.bot';
  else if (/^\/t\/\d+\/pair\/\d+\/\d+$/.test(path)) what = 'notfound.pair';
  const id = path.match(/(\d+)$/)?.[1] || '';
  const back = there
    ? el('a', { class: 'back', href: `/t/${tid}`, text: t('notfound.back.tournament', { name: `${there.game} #${tid}` }) })
    : el('a', { class: 'back', href: '/', text: t('notfound.back.list') });
  const node = el('section', { class: 'page notfound', dataset: { what: missing ? what : 'error' } },
    el('h1', { text: t(missing ? 'notfound.title' : 'error.title') }),
    el('p', { class: 'message', text: missing ? t(what, { id, path, tid }) : t('error', { msg: err.message }) }),
    tid && !there && list ? el('p', { class: 'dim wait', text: t('notfound.wait') }) : null,
    el('p', {}, back));
  try { await header(there ? tid : null); } catch { /* the judge is away: the message stays */ }
  if (seq !== routeSeq) return;
  document.body.className = 'view-notfound';
  fill(main, node);
  listen(there ? tid : null);
  if (!list) return;
  const ready = (l) => {
    if (tid && !there) return l.some((x) => x.id === tid);
    if (what === 'notfound.game') return l.some((x) => x.progress.last_game >= +id);
    if (what === 'notfound.bot' || what === 'notfound.pair') return (l.find((x) => x.id === tid)?.bots ?? 0) > there.bots;
    return false;
  };
  current = { cleanup: follow('/api/events', (l) => { if (ready(l) && seq === routeSeq) route(); }) };
}

// ------------------------------------------------------------ header, events

async function header(tid, active) {
  const list = await getJSON('/api/tournaments.json');
  for (const x of list) kinds[x.id] = x.game;
  const nav = tid ? [['standings', `/t/${tid}`], ['crosstable', `/t/${tid}/crosstable`], ['schedule', `/t/${tid}/schedule`], ['live', `/t/${tid}/live`], ['tv', `/t/${tid}/tv`], ['show', `/t/${tid}/show`]] : [];
  const select = tid && list.length > 1 ? el('select', {
    class: 'tpick', 'aria-label': t('nav.tournaments'),
    // The same view of the other tournament; pairings, bots and games
    // belong to one tournament, so they lead to its standings.
    onchange: (e) => navigate(`/t/${e.target.value}${(location.pathname.match(/^\/t\/\d+(\/(crosstable|schedule|live|tv|show))$/) || ['', ''])[1]}`),
  }, list.map((x) => el('option', { value: x.id, selected: x.id === tid, text: `${x.game} #${x.id}` }))) : null;
  const info = list.find((x) => x.id === tid);
  fill(top,
    el('a', { class: 'brand', href: '/' }, el('span', { class: 'logo', 'aria-hidden': 'true' }), t('app')),
    select || (info ? el('span', { class: 'tname', text: info.game }) : null),
    el('nav', {}, nav.map(([k, href]) => el('a', { href, class: k === active ? 'active' : null, text: t('nav.' + k) }))),
    el('div', { id: 'progress-text', class: 'ptext' }),
    el('button', { type: 'button', class: 'theme', 'aria-pressed': String(theme() === 'light'), onclick: toggleTheme, text: t(theme() === 'light' ? 'theme.dark' : 'theme.light') }),
    el('button', { type: 'button', class: 'lang', onclick: () => setLanguage(lang === 'fr' ? 'en' : 'fr'), text: t('lang.switch') }),
  );
  if (info) progress(info.progress);
  else bar.hidden = true;
}

// The theme is <html data-theme>: light, or dark when unset. The header's
// button switches it and this browser remembers it.
const theme = () => document.documentElement.dataset.theme || 'dark';

function toggleTheme(e) {
  const next = theme() === 'light' ? 'dark' : 'light';
  document.documentElement.dataset.theme = next;
  try { localStorage.setItem('theme', next); } catch { /* private browsing: for this page only */ }
  e.target.textContent = t(next === 'light' ? 'theme.dark' : 'theme.light');
  e.target.setAttribute('aria-pressed', String(next === 'light'));
}

// progress shows how far the tournament is, in the header and the bar.
function progress(p) {
  const box = document.getElementById('progress-text');
  bar.hidden = !p.planned;
  document.getElementById('progress-bar').style.width = `${p.planned ? Math.min(100, (100 * p.done) / p.planned) : 0}%`;
  bar.classList.toggle('running', p.running);
  if (!box) return;
  // Each part keeps its words together: a long line wraps between parts,
  // inside the room the header leaves it, and never pushes its buttons.
  const parts = progressParts(p);
  fill(box, parts.map((s, i) => [i ? ' ' : null, el('span', { class: 'part', text: i < parts.length - 1 ? `${s} ·` : s })]));
  box.dataset.done = p.done;
  box.dataset.planned = p.planned;
  box.classList.toggle('running', p.running);
}

const progressText = (p) => progressParts(p).join(' · ');

// leftText says the time left as sure as the judge is of it: about, at
// least (a game runs longer than the others), up to (the rules bound it),
// or unknown before any game of the run finished.
function leftText(p) {
  switch (p.left_kind) {
    case 'unknown': return t('progress.unknown');
    case 'least':
      if (p.left_most_s && p.left_s >= 1) return t('progress.leastmost', { least: duration(p.left_s), most: duration(p.left_most_s) });
      if (p.left_most_s) return t('progress.upto', { time: duration(p.left_most_s) });
      return t('progress.least', { time: duration(p.left_s || 0) });
  }
  return p.left_s ? t('progress.left', { time: duration(p.left_s) }) : null;
}

function progressParts(p) {
  const parts = [t('progress.games', { done: p.done, planned: p.planned })];
  if (p.running) {
    if (p.playing) parts.push(t('progress.playing', { n: p.playing }));
    const left = leftText(p);
    if (left) parts.push(left);
  } else if (p.finished) parts.push(t('progress.finished'));
  else if (p.done < p.planned) parts.push(t('progress.stopped'));
  return parts;
}

// listen follows the tournament's events; a view's onState learns whether a
// game was stored since the last event (changed) to reload its data.
function listen(tid) {
  if (events?.tid === tid) return;
  events?.stop();
  events = null;
  lastState = null;
  if (!tid) return;
  events = { tid, stop: follow(`/api/t/${tid}/events`, (s) => {
    const changed = lastState !== null && (lastState.progress.last_game !== s.progress.last_game ||
      lastState.progress.finished !== s.progress.finished);
    lastState = s;
    progress(s.progress);
    current?.onState?.(s, changed);
  }) };
}

// ------------------------------------------------------------ tournaments

async function viewTournaments() {
  const list = await getJSON('/api/tournaments.json');
  if (list.length === 1) {
    return { node: el('div'), start: () => navigate(`/t/${list[0].id}`, true) };
  }
  const node = el('section', { class: 'tournaments' });
  if (!list.length) node.append(el('p', { class: 'message', text: t('empty.tournaments') }));
  // A tournament recorded while the page is open shows up by itself.
  const known = new Set(list.map((x) => x.id));
  const stop = follow('/api/events', (l) => { if (l.some((x) => !known.has(x.id)) && current?.node === node) route(); });
  for (const x of list) {
    node.append(el('a', { class: 'tcard', href: `/t/${x.id}` },
      el('h2', { text: `${x.game} #${x.id}` }),
      el('p', { text: [t('tournament.bots', { n: x.bots }), t('progress.games', { done: x.progress.done, planned: x.progress.planned }),
        x.progress.finished ? t('progress.finished') : '', t('tournament.seed', { seed: x.seed })].filter(Boolean).join(' · ') }),
      el('p', { class: 'dim', text: t('tournament.created', { date: new Date(x.created).toLocaleString(lang) }) })));
  }
  return { node, nav: 'tournaments', cleanup: stop };
}

// ------------------------------------------------------------ standings

// rem is the size in pixels of one design pixel (a tenth of style.css's
// root size, which follows the screen's size).
const rem = () => parseFloat(getComputedStyle(document.documentElement).fontSize) / 10;

// fitRows sizes a table's rows so that all of them fit the box: the
// projector must show 30 bots without scrolling, and a few bots in large
// type without cutting the last column. min and max are in design pixels;
// --rows lets the stylesheet scale type with the number of rows.
function fitRows(box, rows, { min = 20, max = 64, extra = 1.3 } = {}) {
  const r = rem(), lo = min * r;
  box.style.setProperty('--rows', rows);
  const set = (h) => { box.style.setProperty('--row', `${h}px`); return h; };
  // On a phone the page scrolls down: rows as tall as a window's share.
  const room = matchMedia('(max-width: 760px)').matches && !box.closest('.show-view') ? innerHeight * 0.9 : box.clientHeight;
  let h = set(Math.max(lo, Math.min(max * r, Math.floor(room / (rows + extra)))));
  const table = box.querySelector('table');
  if (!table) return;
  // What is not a body row (the header, borders) stays: the rows share the
  // rest.
  const n = table.tBodies[0]?.rows.length || rows;
  const fixed = table.offsetHeight - n * h;
  h = set(Math.max(lo, Math.min(max * r, Math.floor((room - fixed) / n))));
  // The header's rows and the cells' content make the table's height only
  // roughly rows × --row: measure, and shrink until it fits.
  for (let k = 0; k < 12 && h > lo; k++) {
    const over = Math.max(table.offsetHeight / Math.max(room, box.clientHeight), table.offsetWidth / box.clientWidth);
    if (over <= 1) break;
    h = set(Math.max(lo, Math.min(h - 1, Math.floor(h / over))));
  }
}

const tieTag = (s, next) => {
  if (!next) return null;
  // Bots that no rule separates share a rank, shown as = in the rank column.
  if (!s.tie_break || s.tie_break === 'points') return null;
  return el('span', { class: 'tie', dataset: { rule: s.tie_break }, title: t('standings.order'), text: t('tie.' + s.tie_break) });
};

function standingsTable(tid, st, swiss) {
  const lo = Math.min(...st.map((s) => s.rating_low)), hi = Math.max(...st.map((s) => s.rating_high));
  const pos = (x) => (hi > lo ? (100 * (x - lo)) / (hi - lo) : 50);
  const fault = (n) => el('td', { class: n ? 'num fault' : 'num zero', text: n ? n : '·' });
  const rows = st.map((s, i) => el('tr', { dataset: { bot: s.bot.id, rank: s.rank } },
    el('td', { class: 'rank', text: i > 0 && st[i - 1].rank === s.rank ? '=' : s.rank }),
    el('td', { class: 'name' }, el('a', { href: `/t/${tid}/bot/${s.bot.id}`, text: s.bot.name }),
      s.check && s.check.at && !s.check.ok ? el('span', { class: 'tag bad', text: t('standings.checkfailed') }) : null),
    el('td', { class: 'num pts' }, el('span', { class: 'v', text: points(s.points) }), tieTag(s, st[i + 1])),
    swiss ? el('td', { class: 'num bh', text: points(s.buchholz) }) : null,
    el('td', { class: 'num', text: s.games }),
    el('td', { class: 'num w', text: s.wins }),
    el('td', { class: 'num d', text: s.draws }),
    el('td', { class: 'num l', text: s.losses }),
    el('td', { class: 'num beaten', text: s.beaten }),
    fault(s.timeouts), fault(s.crashes), fault(s.illegal),
    el('td', { class: 'rating' }, el('span', { class: 'rbox' },
      el('span', { class: 'rv', text: Math.round(s.rating) }),
      el('span', { class: 'ci', text: `${Math.round(s.rating_low)}–${Math.round(s.rating_high)}` }),
      el('span', { class: 'cibar', 'aria-hidden': 'true' },
        el('i', { class: 'band', style: { left: `${pos(s.rating_low)}%`, width: `${pos(s.rating_high) - pos(s.rating_low)}%` } }),
        el('i', { class: 'dot', style: { left: `${pos(s.rating)}%` } }))))));
  // A phone shows a bot a block: each number says its column.
  const heads = [null, null, 'points', swiss && 'buchholz', 'games', 'w', 'd', 'l', 'beaten', 'timeouts', 'crashes', 'illegal', 'rating'].filter((h) => h !== false);
  for (const tr of rows) [...tr.children].forEach((td, i) => { if (heads[i]) td.dataset.h = t('col.' + heads[i]); });
  return el('table', { class: 'standings' },
    el('thead', {},
      el('tr', {}, el('th', { rowspan: 2, text: t('col.rank') }), el('th', { rowspan: 2, class: 'name', text: t('col.bot') }),
        el('th', { rowspan: 2, text: t('col.points') }), swiss ? el('th', { rowspan: 2, class: 'bh', text: t('col.buchholz') }) : null,
        el('th', { rowspan: 2, text: t('col.games') }),
        el('th', { rowspan: 2, class: 'w', text: t('col.w') }), el('th', { rowspan: 2, class: 'd', text: t('col.d') }),
        el('th', { rowspan: 2, class: 'l', text: t('col.l') }), el('th', { rowspan: 2, text: t('col.beaten') }),
        el('th', { colspan: 3, class: 'group', text: t('col.faults') }), el('th', { rowspan: 2, class: 'rating', text: t('col.rating') })),
      el('tr', { class: 'sub' }, el('th', { text: t('col.timeouts') }), el('th', { text: t('col.crashes') }), el('th', { text: t('col.illegal') }))),
    el('tbody', {}, rows));
}

async function viewStandings([tid], q) {
  const info = await getJSON(`/api/t/${tid}/info.json`);
  const swiss = info.format === 'swiss';
  const box = el('div', { class: 'fit' });
  const exports = el('span', { class: 'exports' }, t('export'), ' ',
    el('a', { href: `/api/t/${tid}/standings.csv`, download: '' , text: `${t('export.standings')} CSV` }), ' · ',
    el('a', { href: `/api/t/${tid}/standings.json`, target: '_blank', text: `${t('export.standings')} JSON` }), ' · ',
    el('a', { href: `/api/t/${tid}/games.csv`, download: '', text: `${t('export.games')} CSV` }), ' · ',
    el('a', { href: `/api/t/${tid}/games.json`, target: '_blank', text: `${t('export.games')} JSON` }));
  const node = el('section', { class: 'page standings-view' }, box,
    el('footer', { class: 'note' }, el('span', { text: t(swiss ? 'standings.order.swiss' : 'standings.order') }), ' ', exports));
  let n = 0;
  const load = async () => {
    const st = await getJSON(`/api/t/${tid}/standings.json${schemeQuery(q)}`);
    n = st.length;
    fill(box, st.length ? standingsTable(tid, st, swiss) : el('p', { class: 'message', text: t('empty.games') }));
    fitRows(box, n + 1);
  };
  await load();
  return { node, tid, nav: 'standings', fit: () => fitRows(box, n + 1), onState: (s, changed) => changed && load() };
}

// ------------------------------------------------------------ crosstable

function crossTable(tid, ct) {
  const n = ct.bots.length;
  const head = el('tr', {}, el('th', { class: 'rk' }), el('th', { class: 'nm' }),
    ct.bots.map((b, j) => el('th', { class: 'colh', title: b.name, text: j + 1 })),
    el('th', { class: 'total', text: t('col.total') }));
  const rows = ct.bots.map((b, i) => el('tr', { dataset: { bot: b.id } },
    el('th', { class: 'rk', text: b.rank }),
    el('th', { class: 'nm' }, el('a', { href: `/t/${tid}/bot/${b.id}`, text: b.name })),
    ct.bots.map((o, j) => {
      const c = ct.cells[i][j];
      if (i === j) return el('td', { class: 'self' });
      if (!c) return el('td', { class: 'none' });
      const res = c.points > c.against ? 'win' : c.points < c.against ? 'loss' : 'draw';
      return el('td', { class: `cell ${res}`, dataset: { row: b.id, col: o.id } },
        el('a', { href: `/t/${tid}/pair/${b.id}/${o.id}`, title: `${b.name} – ${o.name}: ${c.wins} ${t('col.w')} · ${c.draws} ${t('col.d')} · ${c.losses} ${t('col.l')}`,
          text: points(c.points) }),
        gameMarks(c.results));
    }),
    el('td', { class: 'total', text: points(b.points) })));
  // Past a dozen bots the cells are too small for a mark a game.
  const table = el('table', { class: n > 12 ? 'cross many' : 'cross' }, el('thead', {}, head), el('tbody', {}, rows));
  table.style.setProperty('--n', n);
  return table;
}

// swissCross is the crosstable of a swiss tournament: bots meet a few
// others, so a row lists its pairings only, a column a round (the
// opponent's number and the row bot's points), then its total.
function swissCross(tid, ct) {
  const rounds = ct.rounds[0]?.length || 0;
  const head = el('tr', {}, el('th', { class: 'rk' }), el('th', { class: 'nm' }),
    Array.from({ length: rounds }, (_, r) => el('th', { class: 'colh', text: t('cross.round', { n: r + 1 }) })),
    el('th', { class: 'total', text: t('col.total') }));
  const rows = ct.bots.map((b, i) => el('tr', { dataset: { bot: b.id } },
    el('th', { class: 'rk', text: i + 1 }),
    el('th', { class: 'nm' }, el('a', { href: `/t/${tid}/bot/${b.id}`, text: b.name })),
    ct.rounds[i].map((c) => {
      if (!c) return el('td', { class: 'none' });
      if (c.bye) return el('td', { class: 'cell bye win', text: `${t('cross.bye')} ${points(c.record.points)}` });
      const o = ct.bots[c.opp], rec = c.record;
      const res = rec.points > rec.against ? 'win' : rec.points < rec.against ? 'loss' : 'draw';
      return el('td', { class: `cell ${res}`, dataset: { row: b.id, col: o.id } },
        el('a', { href: `/t/${tid}/pair/${b.id}/${o.id}`, title: `${b.name} – ${o.name}: ${rec.wins} ${t('col.w')} · ${rec.draws} ${t('col.d')} · ${rec.losses} ${t('col.l')}`,
          text: `${c.opp + 1} · ${points(rec.points)}` }));
    }),
    el('td', { class: 'total', text: points(b.points) })));
  const table = el('table', { class: 'cross swiss' }, el('thead', {}, head), el('tbody', {}, rows));
  table.style.setProperty('--n', rounds);
  return table;
}

// gameMarks are a crosstable cell's games, TCEC-like: one mark a game, the
// row bot's points in the scheme (1, ½, 0 or 3, 1, 0), each opening its
// replay.
function gameMarks(gs) {
  if (!gs?.length) return null;
  return el('span', { class: 'gm' }, gs.map((g) => el('a', { class: `g${g.r}`, href: `/game/${g.id}`, dataset: { game: g.id }, title: t('game.title', { id: g.id }), text: points(g.p) })));
}

function fitCross(box, n) {
  const r = rem();
  box.style.setProperty('--nw', `${Math.min(320 * r, Math.max(120 * r, box.clientWidth * 0.16))}px`);
  const name = parseFloat(box.style.getPropertyValue('--nw'));
  const cw = Math.floor((box.clientWidth - name - 150 * r) / Math.max(n, 1));
  box.style.setProperty('--cw', `${Math.max(26 * r, Math.min(110 * r, cw))}px`);
  fitRows(box, n + 1, { min: 18, max: 60, extra: 1.2 });
}

async function viewCrosstable([tid], q) {
  const box = el('div', { class: 'fit' });
  const help = el('footer', { class: 'note', text: t('crosstable.help') });
  const node = el('section', { class: 'page cross-view' }, box, help);
  let n = 0;
  const load = async () => {
    const ct = await getJSON(`/api/t/${tid}/crosstable.json${schemeQuery(q)}`);
    n = ct.rounds ? ct.rounds[0]?.length || 0 : ct.bots.length;
    help.textContent = t(ct.rounds ? 'crosstable.help.swiss' : 'crosstable.help');
    fill(box, !ct.bots.length ? el('p', { class: 'message', text: t('empty.games') }) : ct.rounds ? swissCross(tid, ct) : crossTable(tid, ct));
    fitCross(box, n);
  };
  await load();
  return { node, tid, nav: 'crosstable', fit: () => fitCross(box, n), onState: (s, changed) => changed && load() };
}

// ------------------------------------------------------------ pairings

// vs puts "vs" between the players of a game, however many they are.
function vs(items) {
  return items.flatMap((x, i) => (i ? [el('span', { class: 'vs', text: ` ${t('game.vs')} ` }), x] : [x]));
}

// gameRow is a game in a list; result, when given, is how the game went for
// the bot the list is about (win, draw, loss), and pts what it was worth.
function gameRow(g, result, pts) {
  const names = g.players.map((p) => p.name);
  const faults = g.players.filter((p) => p.faults).map((p) => `${p.name}: ${tn('game.faults', p.faults)}`);
  const cls = ['game-row', result, many(g.players.length) && 'many'].filter(Boolean).join(' ');
  return el('a', { class: cls, href: `/game/${g.id}`, dataset: { game: g.id } },
    // The points share the number's column: the rows are a grid.
    el('span', { class: 'gno' }, `#${g.id}`, pts === undefined ? null : [' ', el('b', { class: 'gpts', text: points(pts) })]),
    el('span', { class: 'gmeta', text: t('game.round', { round: g.round }) }),
    el('span', { class: 'gplayers' }, vs(names.map((n) => el('span', { text: n })))),
    el('span', { class: 'gscore', text: g.players.map((p) => p.score).join(' – ') }),
    el('span', { class: 'gres', text: `${winText(names, g.players.map((p) => p.rank))} · ${g.reason}` }),
    el('span', { class: 'gfaults', text: faults.join(' · ') }),
    el('span', { class: 'go', text: '▶ ' + t('game.replay') }));
}

// schemeQuery passes the page's points=… option on to the API: a teacher
// may look at the results under the other scheme.
const schemeQuery = (q) => (q?.get('points') ? `?points=${encodeURIComponent(q.get('points'))}` : '');

async function viewPair([tid, a, b], q) {
  const p = await getJSON(`/api/t/${tid}/pair/${a}/${b}/info.json${schemeQuery(q)}`);
  // Each game's result and points are the pairing's own, as the standings
  // count them.
  const res = new Map((p.record.results || []).map((r) => [r.id, r]));
  const cls = { W: 'win', D: 'draw', L: 'loss' };
  const node = el('section', { class: 'page pair-view' },
    el('h1', {}, el('a', { href: `/t/${tid}/bot/${a}`, text: p.a.name }), ` ${points(p.record.points)} – ${points(p.record.against)} `,
      el('a', { href: `/t/${tid}/bot/${b}`, text: p.b.name })),
    el('p', { class: 'dim', text: t('pair.games', { n: p.games.length }) }),
    el('div', { class: 'games' }, p.games.length ? p.games.map((g) => gameRow(g, cls[res.get(g.id)?.r], res.get(g.id)?.p)) : el('p', { class: 'message', text: t('empty.games') })));
  return { node, tid, nav: 'crosstable' };
}

// ------------------------------------------------------------ replay

async function viewGame([id], q) {
  const rp = await getJSON(`/api/game/${id}/replay.json`);
  const game = await loadBoard(rp.kind);
  const g = rp.game;
  let start = +(q.get('frame') || 0);
  if (q.has('move')) {
    // The frame that played move n; past the last move, the end.
    const n = +q.get('move');
    start = Math.max(0, rp.frames.findLastIndex((f) => f.moves.some((m) => m.n <= n)));
  }
  const tid = g.tournament_id;
  const title = el('div', { class: 'gametitle' },
    el('h1', {}, t('game.title', { id: g.id }), ' · ', vs(g.players.map((p) => el('a', { href: `/t/${tid}/bot/${p.bot_id}`, text: p.name })))),
    el('span', { class: 'dim', text: `${t('game.round', { round: g.round })} · ${rp.kind}` }),
    g.players.length === 2 ? el('a', { class: 'dim', href: `/t/${tid}/pair/${g.players[0].bot_id}/${g.players[1].bot_id}`, text: t('pair.title', { a: g.players[0].name, b: g.players[1].name }) }) : null,
    el('a', { class: 'dim record', href: `/api/game/${g.id}/record.json`, download: `game-${g.id}.json`, text: t('game.record') }));
  const node = el('section', { class: 'page game-view' }, title);
  const player = new Player(node, rp, game, { start, ...replayOptions(q, () => player) });
  const onKey = (e) => { if (!e.ctrlKey && !e.metaKey && !e.altKey && player.key(e)) e.preventDefault(); };
  document.addEventListener('keydown', onKey);
  return { node, tid, nav: 'crosstable', fit: () => player.reveal(), cleanup: () => { document.removeEventListener('keydown', onKey); player.destroy(); } };
}

// replayOptions reads a replay's URL options, for a replay shown on a
// screen or embedded: autoplay (or play), speed=k, loop, theme=dark|light
// (the <html> data-theme the stylesheet follows), controls=0.
function replayOptions(q, player) {
  const speed = +q.get('speed');
  const theme = q.get('theme');
  if (theme === 'dark' || theme === 'light') document.documentElement.dataset.theme = theme;
  return {
    autoplay: q.has('autoplay') || q.has('play'),
    speed: speed > 0 ? speed : undefined,
    controls: q.get('controls') !== '0',
    // play() starts over from the end; the pause lets the result be read.
    onEnd: q.has('loop') ? () => setTimeout(() => player().root.isConnected && player().play(), 2000) : undefined,
  };
}

// ------------------------------------------------------------ live

// LiveCards keeps one card per game in progress, updated in place, drawn
// by the board module game.
class LiveCards {
  constructor(game) {
    this.game = game;
    this.node = el('div', { class: 'livecards' });
    this.cards = new Map();
  }

  update(live) {
    const keep = new Set(live.map((l) => l.key));
    for (const [key, c] of this.cards) if (!keep.has(key)) { c.node.remove(); this.cards.delete(key); }
    for (const l of live) {
      // A game is shown from its first position on.
      if (!l.view) continue;
      const names = l.players.map((p) => p.name);
      let c = this.cards.get(l.key);
      if (!c) {
        const marks = names.map((_, seat) => markOf(this.game, l.view, seat));
        const cls = ['livecard', labelled(this.game, names.length) && 'labelled', many(names.length) && 'many'].filter(Boolean).join(' ');
        c = { node: el('div', { class: cls, dataset: { key: l.key } }), marks };
        c.head = el('div', { class: 'lhead' });
        const boardBox = el('div', { class: 'lboard' });
        c.board = this.game.board(boardBox, { names, marks, mini: true });
        c.foot = el('div', { class: 'lfoot' });
        c.node.append(c.head, boardBox, c.foot);
        this.cards.set(l.key, c);
        this.node.append(c.node);
      }
      const frame = { view: l.view, moves: l.last || [], scores: l.scores || [] };
      fill(c.head, names.map((name, seat) => el('span', { class: `who mark-${c.marks[seat]}`, dataset: { seat } },
        el('i', { class: 'token' }), el('span', { class: 'n', text: name }), el('b', { class: 'lscore', text: frame.scores[seat] ?? '' }))));
      c.board.draw(frame, false);
      const d = words(this.game, [frame], 0, names, l.view);
      fill(c.foot, el('span', { class: 'lmoves', text: t('live.moves', { n: l.moves }) }), ' · ', d.text,
        d.fault ? [' ', verdict(d.fault.verdict)] : null);
      c.node.dataset.moves = l.moves;
    }
    // The cards keep the order of live.
    const order = live.map((l) => this.cards.get(l.key)?.node).filter(Boolean);
    if (order.some((n, i) => this.node.children[i] !== n)) this.node.append(...order);
  }
}

// fitCards shows as many of box's live cards as it holds, the first ones:
// the presentation never scrolls.
function fitCards(box) {
  const cards = [...box.querySelectorAll('.livecard')];
  for (const c of cards) c.hidden = false;
  for (let n = cards.length; n > 1 && box.scrollHeight > box.clientHeight + 1; n--) cards[n - 1].hidden = true;
}

async function viewLive([tid]) {
  const [snap, info] = await Promise.all([getJSON(`/api/t/${tid}/live.json`), getJSON(`/api/t/${tid}/info.json`)]);
  const cards = new LiveCards(await loadBoard(info.game));
  const none = el('p', { class: 'message', text: t('live.none') });
  const recent = el('div', { class: 'games recent' });
  const big = el('div', { class: 'bigprogress' }, el('div', { class: 'btext' }), el('div', { class: 'bbar' }, el('i')));
  const node = el('section', { class: 'page live-view' }, big, none, cards.node, el('h2', { text: t('live.recent') }), recent);
  const loadRecent = async () => {
    const gs = await getJSON(`/api/t/${tid}/games.json`);
    fill(recent, gs.slice(-4).reverse().map((g) => gameRow(g)));
  };
  const update = (s) => {
    cards.update(s.live);
    none.hidden = s.live.length > 0;
    big.firstChild.textContent = progressText(s.progress);
    big.lastChild.firstChild.style.width = `${s.progress.planned ? (100 * s.progress.done) / s.progress.planned : 0}%`;
  };
  update(snap);
  await loadRecent();
  return { node, tid, nav: 'live', onState: (s, changed) => { update(s); if (changed) loadRecent(); } };
}

// ------------------------------------------------------------ schedule

// liveRow is a game in progress in a list, in the columns of gameRow; it
// opens the big board on that game.
function liveRow(tid, l) {
  const names = l.players.map((p) => p.name);
  return el('a', { class: ['game-row', 'playing', many(names.length) && 'many'].filter(Boolean).join(' '), href: `/t/${tid}/tv?key=${encodeURIComponent(l.key)}`, dataset: { key: l.key } },
    el('span', { class: 'gno', text: '●' }),
    el('span', { class: 'gmeta', text: t('schedule.move', { n: l.moves }) }),
    el('span', { class: 'gplayers' }, vs(names.map((n) => el('span', { text: n })))),
    el('span', { class: 'gscore', text: (l.scores || []).join(' – ') }),
    el('span', { class: 'gres' }), el('span', { class: 'gfaults' }),
    el('span', { class: 'go', text: '▶ ' + t('nav.tv') }));
}

// viewSchedule lists the games in progress, the count of those to come (a
// game is recorded when it starts, so the rest of the plan is only a
// number), and the games played, newest first, each opening its replay.
async function viewSchedule([tid]) {
  const snap = await getJSON(`/api/t/${tid}/live.json`);
  const playing = el('div', { class: 'games playing' });
  const tocome = el('p', { class: 'tocome' });
  const rounds = el('p', { class: 'rounds' });
  const done = el('div', { class: 'games done' });
  const nPlaying = el('span', { class: 'count' });
  const nDone = el('span', { class: 'count' });
  const node = el('section', { class: 'page schedule-view' },
    el('h2', {}, t('schedule.playing'), ' ', nPlaying), playing,
    el('h2', {}, t('schedule.tocome')), rounds, tocome, el('p', { class: 'dim', text: t('schedule.tocome.note') }),
    el('h2', {}, t('schedule.done'), ' ', nDone), done);
  const update = (s) => {
    const live = s.live;
    nPlaying.textContent = `(${live.length})`;
    fill(playing, live.length ? live.map((l) => liveRow(tid, l)) : el('p', { class: 'message', text: t('schedule.noplaying') }));
    const left = Math.max(0, s.progress.planned - s.progress.done - live.length);
    tocome.dataset.n = left;
    tocome.textContent = left ? tn('schedule.tocome.n', left) : t('schedule.tocome.none');
  };
  const loadDone = async () => {
    const [gs, info] = await Promise.all([getJSON(`/api/t/${tid}/games.json`), getJSON(`/api/t/${tid}/info.json`)]);
    nDone.textContent = `(${gs.length})`;
    // Rounds planned and played: a round is played when all its games
    // are (a swiss round is planned from the ones before it).
    const per = info.rounds ? info.planned / info.rounds : 0, count = {};
    for (const g of gs) count[g.round] = (count[g.round] || 0) + 1;
    let played = 0;
    for (let r = 1; r <= info.rounds && per && count[r] >= per; r++) played = r;
    rounds.dataset.played = played;
    rounds.dataset.rounds = info.rounds;
    rounds.textContent = !info.rounds ? '' : played >= info.rounds ? t('schedule.rounds.done', { rounds: info.rounds })
      : t('schedule.rounds', { round: played + 1, rounds: info.rounds, played });
    fill(done, gs.length ? gs.slice().reverse().map((g) => gameRow(g)) : el('p', { class: 'message', text: t('empty.games') }));
  };
  update(snap);
  await loadDone();
  return { node, tid, nav: 'schedule', onState: (s, changed) => { update(s); if (changed) loadDone(); } };
}

// ------------------------------------------------------------ tv

// interest orders games in progress, most interesting first: the one
// between the best-ranked bots (the sum of its two best ranks in the
// standings), then the closest in score, then the longest played.
function interest(rank) {
  const key = (l) => {
    const rs = l.players.map((p) => rank.get(p.bot_id) ?? 1e6).sort((a, b) => a - b);
    const sc = l.scores?.length ? l.scores : [0];
    return [rs[0] + (rs[1] ?? 0), Math.max(...sc) - Math.min(...sc), -l.moves];
  };
  return (a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  };
}

// viewTv draws one game in progress large, with the game's own board: the
// most interesting one (see interest), or the one ?key= names while it is
// played. It stays on a game until that game ends, then takes the next.
async function viewTv([tid], q) {
  const [snap, info] = await Promise.all([getJSON(`/api/t/${tid}/live.json`), getJSON(`/api/t/${tid}/info.json`)]);
  const game = await loadBoard(info.game);
  let rank = new Map();
  const loadRanks = async () => {
    const st = await getJSON(`/api/t/${tid}/standings.json`);
    rank = new Map(st.map((s) => [s.bot.id, s.rank]));
  };
  await loadRanks();
  const head = el('div', { class: 'tvhead' });
  const stage = el('div', { class: 'stage' });
  const said = el('div', { class: 'said' });
  const none = el('p', { class: 'message', text: t('tv.none') });
  const node = el('section', { class: 'page tv-view' }, head, none, stage, said, el('footer', { class: 'note', text: t('tv.rule') }));
  const pinned = q.get('key');
  let key = null, board = null, names = [], marks = [];
  const update = (s) => {
    const live = s.live.filter((l) => l.view);
    node.dataset.playing = live.length;
    let l = live.find((x) => x.key === key);
    if (!l) {
      l = live.find((x) => x.key === pinned) || live.slice().sort(interest(rank))[0];
      key = l?.key ?? null;
      board = null;
      stage.replaceChildren();
    }
    node.dataset.key = key ?? '';
    none.hidden = !!l;
    if (!l) {
      head.replaceChildren();
      said.replaceChildren();
      delete node.dataset.moves;
      return;
    }
    if (!board) {
      names = l.players.map((p) => p.name);
      marks = names.map((_, seat) => markOf(game, l.view, seat));
      board = game.board(stage, { names, marks });
      // Many seats are listed beside the board, which keeps the height.
      node.classList.toggle('many', many(names.length));
      node.classList.toggle('labelled', labelled(game, names.length));
    }
    const frame = { view: l.view, moves: l.last || [], scores: l.scores || [] };
    fill(head, vs(names.map((name, seat) => el('span', { class: `who mark-${marks[seat]}`, dataset: { seat } },
      el('i', { class: 'token' }), el('span', { class: 'n', text: name }), el('b', { class: 'lscore', text: frame.scores[seat] ?? '' })))),
    el('span', { class: 'dim tvmoves', text: t('tv.moves', { n: l.moves }) }));
    board.draw(frame, false);
    const d = words(game, [frame], 0, names, l.view);
    fill(said, d.text, d.fault ? [' ', verdict(d.fault.verdict)] : null);
    node.dataset.moves = l.moves;
  };
  update(snap);
  return {
    node, tid, nav: 'tv',
    onState: async (s, changed) => {
      // Ranks a moment old pick as well as fresh ones.
      if (changed) await loadRanks().catch(() => {});
      update(lastState || s);
    },
  };
}

// ------------------------------------------------------------ bot page

async function viewBot([tid, bid]) {
  const b = await getJSON(`/api/t/${tid}/bot/${bid}/info.json`);
  const s = b.standing;
  const check = !b.check.at ? t('bot.check.none') : b.check.ok ? t('bot.check.ok') : t('bot.check.failed', { verdict: verdictText(b.check.verdict) });
  const facts = s ? [
    [t('col.rank'), s.rank], [t('col.points'), points(s.points)],
    [`${t('col.w')} / ${t('col.d')} / ${t('col.l')}`, `${s.wins} / ${s.draws} / ${s.losses}`],
    [t('col.beaten'), s.beaten], [t('col.faults'), `${s.timeouts} ${t('col.timeouts')} · ${s.crashes} ${t('col.crashes')} · ${s.illegal} ${t('col.illegal')}`],
    [t('col.rating'), `${Math.round(s.rating)} (${Math.round(s.rating_low)}–${Math.round(s.rating_high)})`],
  ] : [];
  const onlyFaults = el('input', { type: 'checkbox', onchange: (e) => list.classList.toggle('onlyfaults', e.target.checked) });
  // The first game with a fault shows its log open: that is where an
  // author starts reading.
  const first = b.games.find((g) => g.faults.length);
  const list = el('div', { class: 'botgames' }, b.games.map((g) => botGame(tid, bid, g, g === first)));
  const node = el('section', { class: 'page bot-view' },
    el('h1', {}, b.bot.name, el('span', { class: 'sha', text: b.bot.sha256.slice(0, 12) })),
    el('dl', { class: 'facts' }, facts.map(([k, v]) => [el('dt', { text: k }), el('dd', { text: v })]),
      el('dt', { text: t('bot.check') }), el('dd', { class: b.check.at && !b.check.ok ? 'bad' : '', text: check })),
    b.check.at && !b.check.ok ? el('pre', { class: 'log', text: [b.check.detail, b.check.log].filter(Boolean).join('\n\n') }) : null,
    el('h2', {}, t('bot.games'), ' ', el('label', { class: 'filter' }, onlyFaults, ' ', t('bot.onlyfaults'))),
    list);
  return { node, tid, nav: 'standings' };
}

function botGame(tid, bid, g, open) {
  const faults = g.faults.length
    ? el('ul', { class: 'faults' }, g.faults.map((f) => el('li', { dataset: { n: f.n } },
      el('a', { href: `/game/${g.id}?move=${f.n}`, text: t('bot.fault', { n: f.n + 1, own: f.own, verdict: verdictText(f.verdict) }) }),
      f.count > 1 ? el('b', { class: 'times', text: ' ' + t('bot.times', { n: f.count }) }) : null,
      el('span', { class: 'ms', title: timeTitle(f), text: ' · ' + timeText(f) }),
      f.reason && f.reason !== f.verdict && f.reason !== f.detail ? el('span', { class: 'reason', text: ' — ' + f.reason }) : null,
      f.detail ? el('pre', { class: 'detail', text: f.detail }) : null)))
    : el('p', { class: 'dim', text: t('bot.nofault') });
  const log = el('details', { class: 'logbox', open: open || null },
    el('summary', { text: t('bot.log') }),
    el('pre', { class: 'log', text: g.log || t('bot.nolog') }));
  return el('article', { class: `botgame ${g.result}${g.faults.length ? ' hasfaults' : ''}`, dataset: { game: g.id } },
    el('div', { class: 'bghead' },
      el('a', { class: 'gno', href: `/game/${g.id}`, text: `#${g.id}` }),
      el('span', { class: `res ${g.result}`, text: t('result.' + g.result) }),
      el('span', {}, `${t('game.vs')} `, g.opponents.map((p, i) => [i ? ', ' : '', el('a', { href: `/t/${tid}/pair/${bid}/${p.bot_id}`, text: p.name })])),
      el('span', { class: 'dim', text: `${t('bot.seat', { seat: g.seat })}${g.seat === 0 ? ' · ' + t('game.first') : ''}` }),
      el('span', { class: 'gscore', text: [g.score, ...g.opponents.map((p) => p.score)].join(' – ') }),
      el('span', { class: 'dim', text: g.reason }),
      el('span', { class: 'dim thinking', text: t('bot.thinking', { total: timeText(g.thinking.total), slowest: timeText(g.thinking.slowest) }) }),
      el('a', { class: 'go', href: `/game/${g.id}`, text: '▶ ' + t('game.replay') })),
    faults, log);
}

// ------------------------------------------------------------ presentation

// podium shows the first three bots on steps by rank, not by place: bots
// that share a rank share its step (two first places, two gold blocks).
function podium(st) {
  const places = st.slice(0, 3).map((s) => ({ s, step: Math.min(3, s.rank) }));
  // Silver on the left, gold in the middle, bronze on the right.
  const side = { 1: 1, 2: 0, 3: 2 };
  places.sort((a, b) => side[a.step] - side[b.step]);
  return el('div', { class: 'podium', style: `--places: ${places.length}` }, places.map(({ s, step }) =>
    el('div', { class: `place p${step}`, dataset: { bot: s.bot.id, rank: s.rank } },
      el('div', { class: 'pname', style: `--len: ${nameLength(s.bot.name)}`, text: s.bot.name }),
      el('div', { class: 'ppts', text: t('show.points', { n: points(s.points) }) }),
      el('div', { class: 'block' }, el('span', { text: s.rank })))));
}

// decisiveGame is the game that one of the first two bots won over the
// other by the smallest margin of score, else any game of the leader.
async function decisiveGame(tid, st) {
  if (st.length < 2) return null;
  const [a, b] = [st[0].bot.id, st[1].bot.id];
  let gs = await getJSON(`/api/t/${tid}/games.json?bot=${a}&opponent=${b}`);
  if (!gs.length) gs = await getJSON(`/api/t/${tid}/games.json?bot=${a}`);
  if (!gs.length) return null;
  const margin = (g) => {
    const pa = g.players.find((p) => p.bot_id === a);
    // Without the second bot, the leader's best-placed opponent.
    const pb = g.players.find((p) => p.bot_id === b) || g.players.filter((p) => p !== pa).sort((x, y) => x.rank - y.rank)[0];
    return (pa.rank === pb.rank ? 1000 : 0) + Math.abs(pa.score - pb.score);
  };
  return gs.slice().sort((x, y) => margin(x) - margin(y))[0];
}

async function viewShow([tid], q) {
  // A tournament not recorded yet is waited for, as the other pages do.
  const swiss = (await getJSON(`/api/t/${tid}/info.json`)).format === 'swiss';
  const dwell = (+q.get('dwell') || 15) * 1000;
  const replayMs = (+q.get('replay') || 40) * 1000;
  const stop = new AbortController();
  const caption = el('div', { class: 'caption' });
  const stage = el('div', { class: 'stage-box' });
  const hint = el('div', { class: 'hint', text: t('show.fullscreen') });
  const node = el('section', { class: 'show-view' }, caption, stage, hint);
  let player = null;
  let fit = null;
  const onKey = (e) => {
    if (e.key !== 'f' && e.key !== 'F') return;
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen?.().catch(() => {});
  };
  document.addEventListener('keydown', onKey);
  const put = (name, title, content, fitter) => {
    node.dataset.stage = name;
    caption.textContent = title;
    fill(stage, content);
    fit = fitter;
    fit?.();
  };
  const stages = {
    podium: async (st) => { put('podium', t('show.podium'), podium(st)); await sleep(dwell, stop.signal); },
    standings: async (st) => {
      const box = el('div', { class: 'fit' }, standingsTable(tid, st, swiss));
      put('standings', t('show.standings'), box, () => fitRows(box, st.length + 1, { max: 80 }));
      await sleep(dwell, stop.signal);
    },
    crosstable: async () => {
      const ct = await getJSON(`/api/t/${tid}/crosstable.json`);
      const box = el('div', { class: 'fit' }, ct.rounds ? swissCross(tid, ct) : crossTable(tid, ct));
      put('crosstable', t('show.crosstable'), box, () => fitCross(box, ct.rounds ? ct.rounds[0]?.length || 0 : ct.bots.length));
      await sleep(dwell, stop.signal);
    },
    live: async (st) => {
      // The events may not have come yet on the first round.
      if (!lastState?.live?.length) return;
      const cards = new LiveCards(await loadBoard(kinds[tid]));
      const box = el('div', { class: 'live-view' }, cards.node);
      // The most interesting games first, as many as the screen holds.
      const order = interest(new Map(st.map((s) => [s.bot.id, s.rank])));
      const show = () => { cards.update(lastState.live.slice().sort(order)); fitCards(box); };
      put('live', t('show.live'), box, () => fitCards(box));
      show();
      const follow = setInterval(show, 250);
      await sleep(dwell, stop.signal);
      clearInterval(follow);
    },
    decisive: async (st) => {
      const g = await decisiveGame(tid, st);
      if (!g) return;
      const rp = await getJSON(`/api/game/${g.id}/replay.json`);
      const game = await loadBoard(rp.kind);
      const box = el('div', { class: 'game-view' });
      put('decisive', t('show.decisive', { players: g.players.map((p) => p.name).join(` ${t('game.vs')} `) }), box);
      node.dataset.game = g.id;
      // A long game is shown faster, skipping frames if it must.
      const delay = Math.min(700, replayMs / Math.max(1, rp.frames.length));
      await new Promise((resolve) => {
        player = new Player(box, rp, game, { controls: false, autoplay: true, delay, onEnd: resolve });
        stop.signal.addEventListener('abort', resolve);
      });
      await sleep(dwell / 2, stop.signal);
      player.destroy();
      player = null;
    },
  };
  const loop = async () => {
    while (!stop.signal.aborted) {
      try {
        const [info, st] = await Promise.all([getJSON(`/api/t/${tid}/info.json`), getJSON(`/api/t/${tid}/standings.json`)]);
        const order = [];
        if (info.progress.finished && st.length) order.push('podium');
        order.push('standings', 'crosstable', 'live', 'decisive');
        // ?only=standings,crosstable keeps these stages (a screen that
        // shows one thing).
        const only = q.get('only')?.split(',');
        if (only) order.splice(0, order.length, ...order.filter((s) => only.includes(s)));
        for (const name of order) {
          if (stop.signal.aborted) return;
          await stages[name](st);
        }
      } catch (err) {
        if (stop.signal.aborted) return;
        put('error', '', el('p', { class: 'message error', text: t('error', { msg: err.message }) }));
        await sleep(dwell, stop.signal);
      }
    }
  };
  return {
    node, tid, bodyClass: 'show',
    start: loop,
    fit: () => fit?.(),
    cleanup: () => { stop.abort(); player?.destroy(); document.removeEventListener('keydown', onKey); },
  };
}

// ------------------------------------------------------------ start

try {
  const saved = localStorage.getItem('theme');
  if (saved === 'light' || saved === 'dark') document.documentElement.dataset.theme = saved;
} catch { /* no storage: the dark theme */ }
await loadStrings();
document.title = t('app');
route();
