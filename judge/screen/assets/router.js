// The router: which view a URL shows, mounting it under the header, what a
// URL that shows nothing says, and the tournament's events that keep the
// mounted view live.

import { el, fill, t, getJSON } from './util.js';
import { follow } from './events.js';
import { page, navigate } from './page.js';
import { header, progress } from './header.js';
import { viewTournaments } from './views/tournaments.js';
import { viewStandings } from './views/standings.js';
import { viewCrosstable } from './views/crosstable.js';
import { viewPair } from './views/pair.js';
import { viewBot } from './views/bot.js';
import { viewLive } from './views/live.js';
import { viewSchedule } from './views/schedule.js';
import { viewTv } from './views/tv.js';
import { viewShow } from './views/show.js';
import { viewGame } from './views/game.js';
import { viewArenas, viewArena } from './views/arena.js';

const main = document.getElementById('view');

let routeSeq = 0;
let events = null; // {tid, stop}

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
  [/^\/arena\/?$/, viewArenas],
  [/^\/arena\/[\w-]+$/, viewArena],
];

// start draws the page's view and follows the reader: links within the
// page, the history's buttons, and every change of the view's room.
export function start() {
  document.addEventListener('click', (e) => {
    const a = e.target.closest('a');
    if (!a || a.target || a.hasAttribute('download') || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    const u = new URL(a.href, location.href);
    // Only the screen's own views are drawn here: the API, the assets and
    // the hand-in pages served beside the screen are the server's.
    if (u.origin !== location.origin || !routes.some(([re]) => re.test(u.pathname))) return;
    e.preventDefault();
    navigate(u.pathname + u.search);
  });
  window.addEventListener('popstate', route);
  window.addEventListener('route', route); // page.js's navigate and reroute
  // A view fits itself to its room whenever that changes: a window resized,
  // a phone turned, the header wrapping onto two lines.
  // Some resizes (a browser's device emulation, a phone turned) tell before
  // the layout has its new size: fit again on the next frame.
  const refit = () => { page.current?.fit?.(); requestAnimationFrame(() => page.current?.fit?.()); };
  new ResizeObserver(refit).observe(main);
  window.addEventListener('resize', refit);
  // and a frame's check of the window's size, which no event can miss.
  let seen = '';
  (function watch() {
    const size = `${innerWidth}x${innerHeight}`;
    if (size !== seen) { seen = size; refit(); }
    requestAnimationFrame(watch);
  })();
  route();
}

async function route() {
  const seq = ++routeSeq;
  page.current?.cleanup?.();
  page.current = null;
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
    page.current = v;
    const name = view.name.replace(/^view/, '').toLowerCase();
    document.body.classList.add('view-' + name);
    if (v.bodyClass) document.body.classList.add(v.bodyClass);
    await header(v.tid, v.nav, v.home);
    if (seq !== routeSeq) return;
    document.title = titleOf(v.title || t('nav.' + name), v.tid);
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
  document.title = titleOf(t(missing ? 'notfound.title' : 'error.title'), there ? tid : null);
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
  page.current = { cleanup: follow('/api/events', (l) => { if (ready(l) && seq === routeSeq) route(); }) };
}

// titleOf is a page's title: what it shows, of which tournament, so that a
// tab, a bookmark and a screen reader say which page it is.
function titleOf(what, tid) {
  return [what, tid && page.kinds[tid] ? `${page.kinds[tid]} #${tid}` : null, t('app')].filter(Boolean).join(' · ');
}

// listen follows the tournament's events; a view's onState learns whether a
// game was stored since the last event (changed) to reload its data.
function listen(tid) {
  if (events?.tid === tid) return;
  events?.stop();
  events = null;
  page.lastState = null;
  if (!tid) return;
  events = { tid, stop: follow(`/api/t/${tid}/events`, (s) => {
    const changed = page.lastState !== null && (page.lastState.progress.last_game !== s.progress.last_game ||
      page.lastState.progress.finished !== s.progress.finished);
    page.lastState = s;
    progress(s.progress);
    page.current?.onState?.(s, changed);
  }) };
}
