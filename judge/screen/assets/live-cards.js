// The cards of the games in progress, shared by the live view and the
// presentation, and the order of interest the big board and the
// presentation pick games by.

import { el, fill, t, verdict } from './util.js';
import { labelled, legend, many, seatMarks, words } from './replay.js';

// liveFrame is a live game's frame, as a board draws it.
export const liveFrame = (l) => ({ view: l.view, moves: l.last || [], scores: l.scores || [] });

// stepOf is a live game's step, as its replay will number it (a turn of
// simultaneous moves counts once, not once a seat): its last step's.
export const stepOf = (l) => (l.last?.length ? l.last[0].ply + 1 : 0);

// seatTags are a live game's players, each with its mark and score; a
// seat the game put out (game.out, in games of eliminations) is struck
// through, as the board crosses it. A name too long for its card is
// ellipsized: its title says it whole.
export function seatTags(names, marks, scores, game, view) {
  return names.map((name, seat) => el('span', { class: `who mark-${marks[seat]}${game?.out?.(view, seat) ? ' out' : ''}`, dataset: { seat } },
    el('i', { class: 'token' }), el('span', { class: 'n', title: name, text: name }), el('b', { class: 'lscore', text: scores[seat] ?? '' })));
}

// liveLegend explains a board that tells its seats by their letters
// (labels) where its games are shown in progress, once for all the cards:
// the board's marks, and the names struck through of the seats out. The
// seats of other boards are told by the names beside them: null.
export function liveLegend(game) {
  if (game.labels !== true) return null;
  const node = legend(game, game.out ? [['m-gone', t('live.legend.out'), 'abc']] : []);
  node.classList.add('inline');
  return node;
}

// saying is what a live frame's moves did, in words, with their fault.
export function saying(game, frame, names, view) {
  const d = words(game, [frame], 0, names, view);
  return [d.text, d.fault ? [' ', verdict(d.fault.verdict)] : null];
}

// LiveCards keeps one card per game in progress, updated in place, drawn
// by the board module game.
export class LiveCards {
  constructor(game) {
    this.game = game;
    this.node = el('div', { class: 'livecards' });
    this.cards = new Map();
  }

  // add makes the card of the live game l.
  add(l, names) {
    const marks = seatMarks(this.game, l.view, names.length, l.entries);
    const cls = ['livecard', labelled(this.game, names.length) && 'labelled', many(names.length) && 'many'].filter(Boolean).join(' ');
    const c = { node: el('div', { class: cls, dataset: { key: l.key } }), marks };
    c.head = el('div', { class: 'lhead' });
    const boardBox = el('div', { class: 'lboard' });
    c.board = this.game.board(boardBox, { names, marks, mini: true });
    c.foot = el('div', { class: 'lfoot' });
    c.node.append(c.head, boardBox, c.foot);
    this.cards.set(l.key, c);
    this.node.append(c.node);
    return c;
  }

  update(live) {
    const keep = new Set(live.map((l) => l.key));
    for (const [key, c] of this.cards) if (!keep.has(key)) { c.node.remove(); this.cards.delete(key); }
    for (const l of live) {
      // A game is shown from its first position on.
      if (!l.view) continue;
      const names = l.players.map((p) => p.name);
      const c = this.cards.get(l.key) || this.add(l, names);
      const frame = liveFrame(l);
      fill(c.head, seatTags(names, c.marks, frame.scores, this.game, l.view));
      c.board.draw(frame, false);
      fill(c.foot, el('span', { class: 'lmoves', text: t('live.step', { n: stepOf(l) }) }), ' · ', saying(this.game, frame, names, l.view));
      c.node.dataset.moves = l.moves;
    }
    // The cards keep the order of live.
    const order = live.map((l) => this.cards.get(l.key)?.node).filter(Boolean);
    if (order.some((n, i) => this.node.children[i] !== n)) this.node.append(...order);
  }
}

// fitCards shows as many of box's live cards as it holds, the first ones:
// the presentation never scrolls.
export function fitCards(box) {
  const cards = [...box.querySelectorAll('.livecard')];
  for (const c of cards) c.hidden = false;
  for (let n = cards.length; n > 1 && box.scrollHeight > box.clientHeight + 1; n--) cards[n - 1].hidden = true;
}


// interest orders games in progress, most interesting first: the one
// between the best-ranked bots (the sum of its two best ranks in the
// standings), then the closest in score, then the longest played.
export function interest(rank) {
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
