// The crosstable: every pairing's points (a round robin), or each bot's
// pairings round by round (swiss).

import { el, fill, t, getJSON, points } from '../util.js';
import { rem, fitRows } from '../fit.js';
import { schemeQuery } from '../rows.js';

export function crossTable(tid, ct) {
  const n = ct.bots.length;
  const head = el('tr', {}, el('th', { class: 'rk' }), el('th', { class: 'nm' }),
    ct.bots.map((b, j) => el('th', { class: 'colh', title: b.name, text: j + 1 })),
    el('th', { class: 'total', text: t('col.total') }));
  const rows = ct.bots.map((b, i) => el('tr', { dataset: { bot: b.id } },
    rowHead(b, i),
    el('th', { class: 'nm' }, el('a', { href: `/t/${tid}/bot/${b.id}`, text: b.name })),
    ct.bots.map((o, j) => {
      const c = ct.cells[i][j];
      if (i === j) return el('td', { class: 'self' });
      if (!c) return el('td', { class: 'none', dataset: { row: b.id, col: o.id } });
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

// rowHead is a row's number, the one its column bears (ranks repeat on
// ties: 1, 1, 3 would name no column); the rank is its title.
const rowHead = (b, i) => el('th', { class: 'rk', title: `${t('col.rank')} ${b.rank}`, text: i + 1 });

// swissCross is the crosstable of a swiss tournament: bots meet a few
// others, so a row lists its pairings only, a column a round (the
// opponent's number and the row bot's points), then its total.
export function swissCross(tid, ct) {
  const rounds = ct.rounds[0]?.length || 0;
  const head = el('tr', {}, el('th', { class: 'rk' }), el('th', { class: 'nm' }),
    Array.from({ length: rounds }, (_, r) => el('th', { class: 'colh', text: t('cross.round', { n: r + 1 }) })),
    el('th', { class: 'total', text: t('col.total') }));
  const rows = ct.bots.map((b, i) => el('tr', { dataset: { bot: b.id } },
    rowHead(b, i),
    el('th', { class: 'nm' }, el('a', { href: `/t/${tid}/bot/${b.id}`, text: b.name })),
    ct.rounds[i].map((c) => {
      if (!c) return el('td', { class: 'none', dataset: { row: b.id } });
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

// fitCross sizes the crosstable to its box: the names' column as wide as
// their longest word needs (up to 40 % of the box, where a name may break
// at the smallest type), the cells share the rest, the rows the height.
export function fitCross(box, n) {
  const r = rem();
  const size = (name) => {
    box.style.setProperty('--nw', `${name}px`);
    const cw = Math.floor((box.clientWidth - name - 150 * r) / Math.max(n, 1));
    box.style.setProperty('--cw', `${Math.max(26 * r, Math.min(110 * r, cw))}px`);
    fitRows(box, n + 1, { min: 18, max: 60, extra: 1.2 });
  };
  box.style.removeProperty('--nmfs');
  const least = Math.min(320 * r, Math.max(120 * r, box.clientWidth * 0.16));
  size(least);
  const word = widestWord(box);
  if (word <= least) return;
  const most = Math.max(least, box.clientWidth * 0.4);
  size(Math.min(Math.ceil(word) + 2, most));
  // Wider than the column may be: smaller type, down to the smallest,
  // where a word still too long breaks.
  if (word + 2 > most) {
    const fs = parseFloat(getComputedStyle(box.querySelector('th.nm a')).fontSize);
    box.style.setProperty('--nmfs', `${Math.max(15 * r, Math.floor((fs * (most - 2)) / word))}px`);
  }
}

// widestWord is the width of the longest word of the names, in their type.
function widestWord(box) {
  const names = [...box.querySelectorAll('th.nm a')];
  if (!names.length) return 0;
  const ctx = document.createElement('canvas').getContext('2d');
  // Chromium's computed font shorthand is empty: the font from its parts.
  const s = getComputedStyle(names[0]);
  ctx.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
  return Math.max(...names.flatMap((a) => a.textContent.split(/\s+/).map((w) => ctx.measureText(w).width)));
}

// crossLegend says what a cell's colour, its small marks and its ring mean,
// on the crosstable page and in the presentation.
export function crossLegend(swiss, live) {
  const item = (cls, key) => el('span', {}, el('i', { class: `sw ${cls}`, 'aria-hidden': 'true' }), t(key));
  return el('span', { class: 'clegend' }, item('win', 'cross.legend.win'), item('draw', 'cross.legend.draw'), item('loss', 'cross.legend.loss'),
    swiss ? null : el('span', { text: t('cross.legend.marks') }), live ? item('playing', 'cross.legend.playing') : null);
}

// markPlaying rings the cells of the pairings being played in live games:
// every pair of a game's bots; in a swiss crosstable, the row's pairing
// with that opponent, or its round not played yet.
function markPlaying(table, live) {
  for (const td of table.querySelectorAll('td.playing')) td.classList.remove('playing');
  for (const l of live || []) {
    const ids = l.players.map((p) => p.bot_id);
    for (const a of ids) {
      for (const b of ids) {
        if (a === b) continue;
        const td = table.querySelector(`td[data-row="${a}"][data-col="${b}"]`) || (table.classList.contains('swiss') ? table.querySelector(`td.none[data-row="${a}"]`) : null);
        td?.classList.add('playing');
      }
    }
  }
}

export async function viewCrosstable([tid], q) {
  const box = el('div', { class: 'fit' });
  const help = el('footer', { class: 'note' });
  const node = el('section', { class: 'page cross-view' }, box, help);
  let n = 0, live = [];
  const mark = () => { const table = box.querySelector('table.cross'); if (table) markPlaying(table, live); };
  const load = async () => {
    const [ct, snap] = await Promise.all([getJSON(`/api/t/${tid}/crosstable.json${schemeQuery(q)}`), getJSON(`/api/t/${tid}/live.json`)]);
    n = ct.rounds ? ct.rounds[0]?.length || 0 : ct.bots.length;
    live = snap.live;
    fill(help, el('span', { text: t(ct.rounds ? 'crosstable.help.swiss' : 'crosstable.help') }), crossLegend(!!ct.rounds, snap.progress.running));
    fill(box, !ct.bots.length ? el('p', { class: 'message', text: t('empty.games') }) : ct.rounds ? swissCross(tid, ct) : crossTable(tid, ct));
    mark();
    fitCross(box, n);
  };
  await load();
  return {
    node, tid, nav: 'crosstable', fit: () => fitCross(box, n),
    onState: (s, changed) => {
      live = s.live;
      if (changed) load(); else mark();
    },
  };
}
