// The arena (SPEC §7): the live ladder of the bots handed in, per game, and
// at /arena/ the games that have one. The ladder is read again every few
// seconds: its games are played beside any tournament, which the events of
// a tournament do not tell.

import { el, fill, t, getJSON } from '../util.js';
import { fitRows } from '../fit.js';

const every = 3000;

// live loads now and again every few seconds until the view is left.
function live(load) {
  const timer = setInterval(() => load().catch(() => { /* the next try says it */ }), every);
  return () => clearInterval(timer);
}

export async function viewArenas() {
  const node = el('section', { class: 'page arenas' });
  const load = async () => {
    const list = await getJSON('/api/arena.json');
    fill(node, el('h1', { text: t('arena.title') }),
      list.length ? null : el('p', { class: 'message', text: t('arena.list.empty') }),
      ...list.map((x) => el('a', { class: 'tcard', href: `/arena/${x.game}` },
        el('h2', { text: x.game }), el('p', { text: t('arena.list.line', { bots: x.bots, games: x.games }) }))));
  };
  await load();
  return { node, cleanup: live(load) };
}

function ladderTable(l) {
  const seed = l.seed_score ? t('arena.seed.' + l.seed_score) : null;
  // A student's own row (you: in their answer alone) is marked, as on
  // their hand-in page.
  const rows = l.rows.map((r, i) => el('tr', { class: r.you ? 'mine' : null, dataset: { bot: r.bot_id, rank: r.rank, example: r.examples } },
    el('td', { class: 'rank', text: i > 0 && l.rows[i - 1].rank === r.rank ? '=' : r.rank }),
    el('td', { class: 'name' }, el('span', { text: r.name }),
      r.examples ? el('span', { class: 'tag', text: t('arena.example') }) : null,
      r.you ? el('span', { class: 'tag you', text: t('arena.you') }) : null),
    el('td', { class: 'rating' }, el('span', { class: 'rv', text: Math.round(r.rating) }), ' ',
      el('span', { class: 'ci', text: `${Math.round(r.low)}–${Math.round(r.high)}` })),
    el('td', { class: 'num', text: r.games }),
    el('td', { class: 'num w', text: r.wins }),
    el('td', { class: 'num d', text: r.draws }),
    el('td', { class: 'num l', text: r.losses }),
    seed ? el('td', { class: 'num seed', text: r.seed_score === null ? '' : r.seed_score.toFixed(l.seed_score === 'elo' ? 0 : 2) }) : null));
  const heads = [null, null, 'rating', 'games', 'w', 'd', 'l'];
  for (const tr of rows) [...tr.children].forEach((td, i) => { if (heads[i]) td.dataset.h = t('col.' + heads[i]); else if (i === 7) td.dataset.h = seed; });
  return el('table', { class: 'standings arena' },
    el('thead', {}, el('tr', {}, el('th', { text: t('col.rank') }), el('th', { class: 'name', text: t('col.bot') }),
      el('th', { class: 'rating', text: t('col.rating') }), el('th', { text: t('col.games') }),
      el('th', { class: 'w', text: t('col.w') }), el('th', { class: 'd', text: t('col.d') }), el('th', { class: 'l', text: t('col.l') }),
      seed ? el('th', { class: 'seed', text: seed }) : null)),
    el('tbody', {}, rows));
}

export async function viewArena() {
  const game = decodeURIComponent(location.pathname.replace(/^\/arena\//, ''));
  const box = el('div', { class: 'fit' });
  const note = el('footer', { class: 'note' });
  const node = el('section', { class: 'page standings-view arena-view' }, el('h1', { text: t('arena.of', { game }) }), box, note);
  let n = 0;
  const load = async () => {
    const l = await getJSON(`/api/arena/${encodeURIComponent(game)}.json`);
    n = l.rows.length;
    fill(box, n ? ladderTable(l) : el('p', { class: 'message', text: t('arena.empty') }));
    fill(note, t('arena.note', { games: l.games }));
    fitRows(box, n + 1);
  };
  await load();
  return { node, fit: () => fitRows(box, n + 1), cleanup: live(load) };
}
