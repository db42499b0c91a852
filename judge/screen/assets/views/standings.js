// The standings: a table of every bot, fitted to the screen.

import { el, fill, t, getJSON, points } from '../util.js';
import { fitRows } from '../fit.js';
import { schemeQuery } from '../rows.js';

const tieTag = (s, next) => {
  if (!next) return null;
  // Bots that no rule separates share a rank, shown as = in the rank column.
  if (!s.tie_break || s.tie_break === 'points') return null;
  return el('span', { class: 'tie', dataset: { rule: s.tie_break }, title: t('standings.order'), text: t('tie.' + s.tie_break) });
};

export function standingsTable(tid, st, swiss) {
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

export async function viewStandings([tid], q) {
  const info = await getJSON(`/api/t/${tid}/info.json`);
  const swiss = info.format === 'swiss';
  const box = el('div', { class: 'fit' });
  const exports = el('span', { class: 'exports' }, t('export'), ' ',
    el('a', { href: `/api/t/${tid}/standings.csv`, download: '' , text: `${t('export.standings')} CSV` }), ' · ',
    el('a', { href: `/api/t/${tid}/standings.json`, target: '_blank', text: `${t('export.standings')} JSON` }), ' · ',
    el('a', { href: `/api/t/${tid}/games.csv`, download: '', text: `${t('export.games')} CSV` }), ' · ',
    el('a', { href: `/api/t/${tid}/games.json`, target: '_blank', text: `${t('export.games')} JSON` }));
  const pairwise = el('span', { class: 'pairwise' });
  const node = el('section', { class: 'page standings-view' }, box,
    el('footer', { class: 'note' }, el('span', { text: t(swiss ? 'standings.order.swiss' : 'standings.order') }), pairwise, ' ', exports));
  let n = 0;
  const load = async () => {
    const st = await getJSON(`/api/t/${tid}/standings.json${schemeQuery(q)}`);
    n = st.length;
    fill(box, st.length ? standingsTable(tid, st, swiss) : el('p', { class: 'message', text: t('empty.games') }));
    // In games of several bots, W, D and L count opponents, not games.
    pairwise.textContent = st.some((s) => s.wins + s.draws + s.losses > s.games) ? ' ' + t('standings.pairwise') : '';
    fitRows(box, n + 1);
  };
  await load();
  return { node, tid, nav: 'standings', fit: () => fitRows(box, n + 1), onState: (s, changed) => changed && load() };
}
