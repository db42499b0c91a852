// The board of botsArena's battleship: both grids side by side, of the
// size the game was played on. Seat i's grid shows seat i's boats and the
// shots the other seat fired at it; x runs across, y down, as the bots
// name cells "x,y".

import { el, translator } from '../util.js';

export const strings = {
  en: {
    fleets: 'Both fleets are placed',
    shot: '{name} fires at {cell}',
    miss: 'miss',
    hit: 'hit',
    sunk: 'hit and sunk, a boat of {n}!',
    repeat: 'already shot there: wasted',
    grid: "{name}'s fleet",
    shotsby: 'shots by {name}',
    unit: 'hits',
    boat: 'boat',
    sunkboat: 'sunk boat',
    lastshot: 'last shot',
  },
  fr: {
    fleets: 'Les deux flottes sont placées',
    shot: '{name} tire en {cell}',
    miss: "dans l'eau",
    hit: 'touché',
    sunk: 'touché-coulé, un bateau de {n} !',
    repeat: 'déjà visé : tir perdu',
    grid: 'flotte de {name}',
    shotsby: 'tirs de {name}',
    unit: 'touchés',
    boat: 'bateau',
    sunkboat: 'bateau coulé',
    lastshot: 'dernier tir',
  },
};

const t = translator(strings);

export const css = true;
export const delay = 500;

export function unit() {
  return t('unit');
}

export function legend() {
  return [['m-boat', t('boat')], ['m-miss', t('miss')], ['m-hit', t('hit')], ['m-sunk', t('sunkboat')], ['m-last', t('lastshot')]];
}

// states reads one grid of the View: "x,y" → boat, miss, hit or sunk.
function states(boats, shots) {
  const state = new Map();
  const shot = new Set(shots.map((s) => `${s.x},${s.y}`));
  for (const b of boats) {
    for (let x = b.x1; x <= b.x2; x++) {
      for (let y = b.y1; y <= b.y2; y++) {
        const k = `${x},${y}`;
        state.set(k, b.sunk ? 'sunk' : shot.has(k) ? 'hit' : 'boat');
      }
    }
  }
  for (const k of shot) if (!state.has(k)) state.set(k, 'miss');
  return state;
}

// board draws both grids once the first View gives their size; cells hold
// data-state (sea, boat, miss, hit or sunk) and data-x, data-y.
export function board(parent, { names, marks, mini = false }) {
  const root = el('div', { class: mini ? 'bboards mini' : 'bboards' });
  parent.append(root);
  let grids = null;
  const build = (w, h) => {
    root.style.setProperty('--bw', w);
    root.style.setProperty('--bh', h);
    grids = [0, 1].map((seat) => {
      const box = el('div', { class: 'bgrid' });
      const cells = new Map();
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const cell = el('div', { class: 'cell', dataset: { x, y, state: 'sea' } });
          cells.set(`${x},${y}`, cell);
          box.append(cell);
        }
      }
      const title = el('div', { class: 'btitle' },
        el('b', { text: t('grid', { name: names[seat] }) }),
        el('span', { text: ' · ' + t('shotsby', { name: names[1 - seat] }) }));
      root.append(el('div', { class: `bside mark-${marks[seat]}` }, title, box));
      return cells;
    });
  };
  return {
    draw({ view, moves }, animate) {
      if (!view) return;
      if (!grids) build(view.width, view.height);
      grids.forEach((cells, seat) => {
        const state = states(view.boats[seat] || [], view.shots[seat] || []);
        for (const [k, cell] of cells) {
          cell.dataset.state = state.get(k) || 'sea';
          cell.className = 'cell';
        }
      });
      for (const m of moves) {
        if (m.event?.x === undefined) continue;
        const cell = grids[1 - m.seat].get(`${m.event.x},${m.event.y}`);
        if (!cell) continue;
        cell.classList.add('last');
        if (animate) { void root.offsetWidth; cell.classList.add('anim'); }
      }
    },
  };
}

// describe says what a frame did: both fleets at once, then one shot a
// frame, the seats taking turns.
export function describe(frames, i, names) {
  const f = frames[i];
  const bad = f.moves.find((m) => m.verdict);
  if (f.moves.length > 1) return bad ? names[bad.seat] : t('fleets');
  const m = f.moves[0];
  const ev = m.event || {};
  if (ev.x === undefined) return names[m.seat];
  const text = t('shot', { name: names[m.seat], cell: `${ev.x},${ev.y}` });
  if (ev.result === 'sunk') return `${text} · ${t('sunk', { n: ev.boat ? Math.abs(ev.boat[2] - ev.boat[0]) + Math.abs(ev.boat[3] - ev.boat[1]) + 1 : '?' })}`;
  return `${text} · ${t(ev.result)}`;
}

export function short(frame) {
  if (frame.moves.length > 1) return '⚓';
  const ev = frame.moves[0].event || {};
  if (ev.x === undefined) return '';
  return `${ev.x},${ev.y} ${{ sunk: '✸', hit: '✕', repeat: '↺' }[ev.result] || '·'}`;
}
