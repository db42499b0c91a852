// The games in progress, as cards, with the tournament's progress and the
// last games played.

import { el, fill, t, getJSON } from '../util.js';
import { loadBoard } from '../replay.js';
import { progressText } from '../header.js';
import { LiveCards, liveLegend } from '../live-cards.js';
import { gameRow } from '../rows.js';

export async function viewLive([tid]) {
  const [snap, info] = await Promise.all([getJSON(`/api/t/${tid}/live.json`), getJSON(`/api/t/${tid}/info.json`)]);
  const game = await loadBoard(info.game);
  const cards = new LiveCards(game);
  const none = el('p', { class: 'message', text: t('live.none') });
  const key = liveLegend(game);
  const recent = el('div', { class: 'games recent' });
  const big = el('div', { class: 'bigprogress' }, el('div', { class: 'btext' }), el('div', { class: 'bbar' }, el('i')));
  const node = el('section', { class: 'page live-view' }, big, none, key, cards.node, el('h2', { text: t('live.recent') }), recent);
  const loadRecent = async () => {
    const gs = await getJSON(`/api/t/${tid}/games.json`);
    fill(recent, gs.slice(-4).reverse().map((g) => gameRow(g)));
  };
  const update = (s) => {
    cards.update(s.live);
    none.hidden = s.live.length > 0;
    if (key) key.hidden = !s.live.length;
    big.firstChild.textContent = progressText(s.progress);
    big.lastChild.firstChild.style.width = `${s.progress.planned ? (100 * s.progress.done) / s.progress.planned : 0}%`;
  };
  update(snap);
  await loadRecent();
  return { node, tid, nav: 'live', onState: (s, changed) => { update(s); if (changed) loadRecent(); } };
}
