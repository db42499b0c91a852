// The board of botsArena's battleship: both grids side by side, each of the
// View's own size. Seat i's grid shows seat i's boats and the shots the
// other seat fired at it; x runs across, y down, as the bots name cells.

import { translator } from '../util.js';
import * as fleets from '../fleets.js';

export { unit } from '../fleets.js';

export const strings = {
  en: {
    ...fleets.words.en,
    sunk: 'hit and sunk, a boat of {size}!',
    repeat: 'already shot there',
    ship: 'boat',
    sunkship: 'sunk boat',
  },
  fr: {
    ...fleets.words.fr,
    sunk: 'touché-coulé, un bateau de {size} !',
    repeat: 'déjà tiré là',
    ship: 'bateau',
    sunkship: 'bateau coulé',
  },
};

const t = translator(strings);

export const css = true;
export const delay = 500;

export function legend() {
  return fleets.legend(t);
}

// states reads one grid of the View: cell index → sea, ship, miss, hit or
// sunk.
function states(view, seat, w) {
  const state = new Map();
  for (const b of view.boats[seat] || []) {
    for (let x = b.x1; x <= b.x2; x++) for (let y = b.y1; y <= b.y2; y++) state.set(y * w + x, { state: b.sunk ? 'sunk' : 'ship' });
  }
  for (const s of view.shots[seat] || []) {
    const k = s.y * w + s.x;
    if (state.get(k)?.state === 'ship') state.set(k, { state: 'hit' });
    else if (!state.has(k)) state.set(k, { state: 'miss' });
  }
  return state;
}

// board draws both grids, each of the View's own size; cells are indexed
// y * w + x.
export function board(parent, { names, marks, mini = false }) {
  return fleets.board(parent, {
    names, marks, mini, t, prefix: 'b', coords: ['x', 'y'],
    size: (view) => [view.width, view.height],
    at: (x, y, w) => y * w + x,
    states,
    shot: (ev) => (ev.x === undefined ? null : [ev.x, ev.y]),
  });
}

// describe says what a frame did: both fleets at once, then one shot a
// frame, in strict turns.
export function describe(frames, i, names) {
  const f = frames[i];
  const bad = f.moves.find((m) => m.verdict);
  if (f.moves.length > 1) return bad ? names[bad.seat] : t('fleets');
  const m = f.moves[0];
  const ev = m.event || {};
  if (ev.x === undefined) return names[m.seat];
  const text = `${t('shot', { name: names[m.seat], cell: `${ev.x},${ev.y}` })} · `;
  if (ev.result === 'sunk') {
    const [x1, y1, x2, y2] = ev.boat;
    return text + t('sunk', { size: Math.abs(x2 - x1) + Math.abs(y2 - y1) + 1 });
  }
  return text + t(ev.result);
}

export function short(frame) {
  if (frame.moves.length > 1) return '⚓';
  const ev = frame.moves[0].event || {};
  if (ev.x === undefined) return '–';
  return `${ev.x},${ev.y} ${{ sunk: '✸', hit: '✕', repeat: '↺' }[ev.result] || '·'}`;
}
