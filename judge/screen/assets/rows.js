// A game as a row of a list, shared by the pairing, live and schedule
// views.

import { el, say, t, tn, points, winText } from './util.js';
import { many } from './replay.js';

// vs puts "vs" between the players of a game, however many they are.
export function vs(items) {
  return items.flatMap((x, i) => (i ? [el('span', { class: 'vs', text: ` ${t('game.vs')} ` }), x] : [x]));
}

// playersAndScores are the players' and the scores' columns of a game's
// row, finished or in progress. Past a duel, each score goes with its bot's
// name, on the same line: twelve numbers in a row say nothing of whose
// they are.
export function playersAndScores(names, scores) {
  const each = many(names.length);
  return [
    el('span', { class: 'gplayers' }, vs(names.map((n, i) => el('span', {}, n, each && scores[i] !== undefined ? ['\u00a0', el('b', { class: 'pscore', text: scores[i] })] : null)))),
    el('span', { class: 'gscore', text: each ? '' : scores.join(' – ') }),
  ];
}

// gameRow is a game in a list; result, when given, is how the game went for
// the bot the list is about (win, draw, loss), and pts what it was worth.
export function gameRow(g, result, pts) {
  const names = g.players.map((p) => p.name);
  const faults = g.players.filter((p) => p.faults).map((p) => `${p.name}: ${tn('game.faults', p.faults)}`);
  const cls = ['game-row', result, many(g.players.length) && 'many'].filter(Boolean).join(' ');
  return el('a', { class: cls, href: `/game/${g.id}`, dataset: { game: g.id } },
    // The points share the number's column: the rows are a grid.
    el('span', { class: 'gno' }, `#${g.id}`, pts === undefined ? null : [' ', el('b', { class: 'gpts', text: points(pts) })]),
    el('span', { class: 'gmeta', text: t('game.round', { round: g.round }) }),
    playersAndScores(names, g.players.map((p) => p.score)),
    el('span', { class: 'gres', text: `${winText(names, g.players.map((p) => p.rank))} · ${say(g.reason)}` }),
    el('span', { class: 'gfaults', text: faults.join(' · ') }),
    el('span', { class: 'go', text: '▶ ' + t('game.replay') }));
}

// schemeQuery passes the page's points=… option on to the API: a teacher
// may look at the results under the other scheme.
export const schemeQuery = (q) => (q?.get('points') ? `?points=${encodeURIComponent(q.get('points'))}` : '');
