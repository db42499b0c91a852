// The board of BrainJar battleships: both 8×8 grids side by side. Seat i's
// grid shows seat i's fleet and the shots the other seat fired at it.

import { translator } from '../util.js';
import * as fleets from '../fleets.js';

export { unit } from '../fleets.js';

export const strings = {
  en: {
    ...fleets.words.en,
    sunk: 'sunk the {size}!',
    again: 'shoots again',
    streak: 'shot {n} in a row',
    ship: 'ship',
    sunkship: 'sunk ship',
  },
  fr: {
    ...fleets.words.fr,
    sunk: 'coulé, le {size} !',
    again: 'rejoue',
    streak: "{n}e tir d'affilée",
    ship: 'navire',
    sunkship: 'navire coulé',
  },
};

const t = translator(strings);

export const css = true;
export const delay = 600;

const SIZE = 8;

export function legend() {
  return fleets.legend(t);
}

// key is a cell's index, and for a cell off the grid a key of no cell.
const key = (c, r) => (c >= 0 && c < SIZE && r >= 0 && r < SIZE ? c * SIZE + r : `${c},${r}`);

// states reads one grid of the View: cell index → sea, ship, miss, hit or
// sunk, and the ship's part for the cells a ship covers.
function states(view, seat) {
  const state = new Map();
  const shot = new Set((view.shots[seat] || []).map((s) => key(s.c, s.r)));
  for (const [c, r, size, o] of view.ships[seat] || []) {
    const own = [...Array(size).keys()].map((i) => (o === 'v' ? key(c, r + i) : key(c + i, r)));
    const sunk = own.every((k) => shot.has(k));
    // Ends of a ship are rounded so that ships read as ships.
    own.forEach((k, i) => state.set(k, { state: sunk ? 'sunk' : shot.has(k) ? 'hit' : 'ship', part: `${o} ${i === 0 ? 'start' : i === size - 1 ? 'end' : 'mid'}` }));
  }
  for (const k of shot) if (!state.has(k)) state.set(k, { state: 'miss' });
  return state;
}

// board draws both 8×8 grids; cells are indexed by column then row, as the
// game names cells ("CR").
export function board(parent, { names, marks, mini = false }) {
  return fleets.board(parent, {
    names, marks, mini, t, prefix: 's', coords: ['c', 'r'],
    size: () => [SIZE, SIZE],
    at: (c, r) => c * SIZE + r,
    states,
    shot: (ev) => (ev.shot ? [+ev.shot[0], +ev.shot[1]] : null),
  });
}

// describe says what a frame did: both fleets at once, then one shot a
// frame; a hit lets the shooter shoot again.
export function describe(frames, i, names) {
  const f = frames[i];
  const bad = f.moves.find((m) => m.verdict);
  if (f.moves.length > 1) return bad ? names[bad.seat] : t('fleets');
  const m = f.moves[0];
  const ev = m.event || {};
  if (!ev.shot) return names[m.seat];
  let text = `${t('shot', { name: names[m.seat], cell: ev.shot })} · `;
  text += ev.result === 'sunk' ? t('sunk', { size: ev.size }) : t(ev.result);
  if (ev.again) {
    let streak = 1;
    for (let j = i - 1; j >= 0 && frames[j].moves.length === 1 && frames[j].moves[0].seat === m.seat; j--) streak++;
    text += ` · ${t('again')}`;
    if (streak > 1) text += ` (${t('streak', { n: streak })})`;
  }
  return text;
}

export function short(frame) {
  if (frame.moves.length > 1) return '⚓';
  const ev = frame.moves[0].event || {};
  return `${ev.shot} ${ev.result === 'sunk' ? '✸' + ev.size : ev.result === 'hit' ? '✕' : '·'}`;
}
