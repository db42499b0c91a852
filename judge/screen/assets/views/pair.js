// A pairing: two bots' games against each other.

import { el, t, getJSON, points } from '../util.js';
import { gameRow, schemeQuery } from '../rows.js';

export async function viewPair([tid, a, b], q) {
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
  return { node, tid, nav: 'crosstable', title: t('pair.title', { a: p.a.name, b: p.b.name }) };
}
