// The board of botsArena's battleship: both grids side by side, each of the
// View's own size. Seat i's grid shows seat i's boats and the shots the
// other seat fired at it; x runs across, y down, as the bots name cells.

import { el, translator } from '../util.js';

export const strings = {
  en: {
    fleets: 'Both fleets are placed',
    shot: '{name} fires at {cell}',
    miss: 'miss',
    hit: 'hit',
    sunk: 'hit and sunk, a boat of {size}!',
    repeat: 'already shot there',
    grid: "{name}'s fleet",
    shotsby: 'shots by {name}',
    unit: 'hits',
    ship: 'boat',
    sunkship: 'sunk boat',
    lastshot: 'last shot',
  },
  fr: {
    fleets: 'Les deux flottes sont placées',
    shot: '{name} tire en {cell}',
    miss: "dans l'eau",
    hit: 'touché',
    sunk: 'touché-coulé, un bateau de {size} !',
    repeat: 'déjà tiré là',
    grid: 'flotte de {name}',
    shotsby: 'tirs de {name}',
    unit: 'touchés',
    ship: 'bateau',
    sunkship: 'bateau coulé',
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
  return [['m-ship', t('ship')], ['m-miss', t('miss')], ['m-hit', t('hit')], ['m-sunk', t('sunkship')], ['m-last', t('lastshot')]];
}

// grid builds one seat's grid of w × h cells, indexed y * w + x.
function grid(seat, names, marks, mini, w, h) {
  const box = el('div', { class: 'bgrid' });
  box.style.setProperty('--w', w);
  box.style.setProperty('--h', h);
  const cells = [];
  if (!mini) box.append(el('span', { class: 'coord corner' }), ...[...Array(w).keys()].map((x) => el('span', { class: 'coord col', text: x })));
  for (let y = 0; y < h; y++) {
    if (!mini) box.append(el('span', { class: 'coord row', text: y }));
    for (let x = 0; x < w; x++) {
      const cell = el('div', { class: 'cell', dataset: { x, y, state: 'sea' } }, el('i'));
      cells.push(cell);
      box.append(cell);
    }
  }
  const title = el('div', { class: 'btitle' },
    el('b', { text: t('grid', { name: names[seat] }) }),
    el('span', { text: ' · ' + t('shotsby', { name: names[1 - seat] }) }));
  return { node: el('div', { class: `bside mark-${marks[seat]}` }, title, box), cells };
}

// states reads one grid of the View: cell index → sea, ship, miss, hit or
// sunk.
function states(w, boats, shots) {
  const state = new Map();
  for (const b of boats) {
    for (let x = b.x1; x <= b.x2; x++) for (let y = b.y1; y <= b.y2; y++) state.set(y * w + x, b.sunk ? 'sunk' : 'ship');
  }
  for (const s of shots) {
    const k = s.y * w + s.x;
    if (state.get(k) === 'ship') state.set(k, 'hit');
    else if (!state.has(k)) state.set(k, 'miss');
  }
  return state;
}

// board draws both grids once the first View tells their size; cells hold
// data-state (sea, ship, miss, hit or sunk).
export function board(parent, { names, marks, mini = false }) {
  const root = el('div', { class: mini ? 'bboards mini' : 'bboards' });
  parent.append(root);
  let grids = null;
  let w = 0;
  return {
    draw({ view, moves }, animate) {
      if (!grids || view.width !== w) {
        w = view.width;
        grids = [0, 1].map((seat) => grid(seat, names, marks, mini, view.width, view.height));
        root.replaceChildren(...grids.map((g) => g.node));
      }
      grids.forEach(({ cells }, seat) => {
        const state = states(w, view.boats[seat] || [], view.shots[seat] || []);
        cells.forEach((cell, k) => {
          cell.dataset.state = state.get(k) || 'sea';
          cell.className = 'cell';
        });
      });
      for (const m of moves) {
        if (m.event?.x === undefined) continue;
        const cell = grids[1 - m.seat].cells[m.event.y * w + m.event.x];
        if (!cell) continue;
        cell.classList.add('last');
        if (animate) { void root.offsetWidth; cell.classList.add('anim'); }
      }
      root.dataset.turn = view.turn;
    },
  };
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
