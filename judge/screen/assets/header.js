// The header: the tournament's name (or a choice of tournaments), its views,
// its progress in words and as a bar, and the theme and language buttons.

import { el, fill, t, getJSON, duration, lang, setLanguage } from './util.js';
import { page, navigate } from './page.js';

const top = document.getElementById('top');
const bar = document.getElementById('progress');

export async function header(tid, active, home = '/') {
  const list = await getJSON('/api/tournaments.json');
  for (const x of list) page.kinds[x.id] = x.game;
  const nav = tid ? [['standings', `/t/${tid}`], ['crosstable', `/t/${tid}/crosstable`], ['schedule', `/t/${tid}/schedule`], ['live', `/t/${tid}/live`], ['tv', `/t/${tid}/tv`], ['show', `/t/${tid}/show`]] : [];
  const select = tid && list.length > 1 ? el('select', {
    class: 'tpick', 'aria-label': t('nav.tournaments'),
    // The same view of the other tournament; pairings, bots and games
    // belong to one tournament, so they lead to its standings.
    onchange: (e) => navigate(`/t/${e.target.value}${(location.pathname.match(/^\/t\/\d+(\/(crosstable|schedule|live|tv|show))$/) || ['', ''])[1]}`),
  }, list.map((x) => el('option', { value: x.id, selected: x.id === tid, text: `${x.game} #${x.id}` }))) : null;
  const info = list.find((x) => x.id === tid);
  fill(top,
    el('a', { class: 'brand', href: home }, el('span', { class: 'logo', 'aria-hidden': 'true' }), t('app')),
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
export function progress(p) {
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

export const progressText = (p) => progressParts(p).join(' · ');

// leftText says the time left as sure as the judge is of it: about, at
// least (a game runs longer than the others), up to (the rules bound it),
// or unknown before any game of the run finished.
function leftText(p) {
  switch (p.left_kind) {
    case 'unknown': return t('progress.unknown');
    case 'least':
      if (p.left_most_s && p.left_s >= 1) {
        const least = duration(p.left_s), most = duration(p.left_most_s);
        // A range whose ends round alike is said as one time.
        return least === most ? t('progress.left', { time: least }) : t('progress.leastmost', { least, most });
      }
      if (p.left_most_s) return t('progress.upto', { time: duration(p.left_most_s) });
      // "At least 0s" would say nothing: a game runs past the others, unbounded.
      if (!(p.left_s >= 1)) return t('progress.unknown');
      return t('progress.least', { time: duration(p.left_s) });
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
