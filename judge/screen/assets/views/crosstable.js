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
export function swissCross(tid, ct) {
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

export function fitCross(box, n) {
  const r = rem();
  box.style.setProperty('--nw', `${Math.min(320 * r, Math.max(120 * r, box.clientWidth * 0.16))}px`);
  const name = parseFloat(box.style.getPropertyValue('--nw'));
  const cw = Math.floor((box.clientWidth - name - 150 * r) / Math.max(n, 1));
  box.style.setProperty('--cw', `${Math.max(26 * r, Math.min(110 * r, cw))}px`);
  fitRows(box, n + 1, { min: 18, max: 60, extra: 1.2 });
}

export async function viewCrosstable([tid], q) {
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
