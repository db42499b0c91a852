// The board of BrainJar battleships: both 8×8 grids side by side. Seat i's
// grid shows seat i's fleet and the shots the other seat fired at it.

import { el, translator } from '../util.js';

export const strings = {
  en: {
    fleets: 'Both fleets are placed',
    shot: '{name} fires at {cell}',
    miss: 'miss',
    hit: 'hit',
    sunk: 'sunk the {size}!',
    again: 'shoots again',
    streak: 'shot {n} in a row',
    grid: "{name}'s fleet",
    shotsby: 'shots by {name}',
    unit: 'hits',
    ship: 'ship',
    sunkship: 'sunk ship',
    lastshot: 'last shot',
  },
  fr: {
    fleets: 'Les deux flottes sont placées',
    shot: '{name} tire en {cell}',
    miss: "dans l'eau",
    hit: 'touché',
    sunk: 'coulé, le {size} !',
    again: 'rejoue',
    streak: "{n}e tir d'affilée",
    grid: 'flotte de {name}',
    shotsby: 'tirs de {name}',
    unit: 'touchés',
    ship: 'navire',
    sunkship: 'navire coulé',
    lastshot: 'dernier tir',
  },
};

const t = translator(strings);

export const css = true;
export const delay = 600;

const SIZE = 8;

export function unit() {
  return t('unit');
}

export function legend() {
  return [['m-ship', t('ship')], ['m-miss', t('miss')], ['m-hit', t('hit')], ['m-sunk', t('sunkship')], ['m-last', t('lastshot')]];
}

// grid builds one seat's grid; cells are indexed by column then row, as
// the game names cells ("CR").
function grid(seat, names, marks, mini) {
  const box = el('div', { class: 'sgrid' });
  const cells = [];
  if (!mini) box.append(el('span', { class: 'coord corner' }), ...[...Array(SIZE).keys()].map((c) => el('span', { class: 'coord col', text: c })));
  for (let r = 0; r < SIZE; r++) {
    if (!mini) box.append(el('span', { class: 'coord row', text: r }));
    for (let c = 0; c < SIZE; c++) {
      const cell = el('div', { class: 'cell', dataset: { c, r, state: 'sea' } }, el('i'));
      cells[c * SIZE + r] = cell;
      box.append(cell);
    }
  }
  const title = el('div', { class: 'stitle' },
    el('b', { text: t('grid', { name: names[seat] }) }),
    el('span', { text: ' · ' + t('shotsby', { name: names[1 - seat] }) }));
  return { node: el('div', { class: `sside mark-${marks[seat]}` }, title, box), cells };
}

// states reads one grid of the View: cell "CR" → sea, ship, miss, hit or
// sunk, and the ship's part for the cells a ship covers.
function states(ships, shots) {
  const state = new Map();
  const shot = new Set(shots.map((s) => `${s.c}${s.r}`));
  for (const [c, r, size, o] of ships) {
    const own = [...Array(size).keys()].map((i) => (o === 'v' ? `${c}${r + i}` : `${c + i}${r}`));
    const sunk = own.every((k) => shot.has(k));
    // Ends of a ship are rounded so that ships read as ships.
    own.forEach((k, i) => state.set(k, { state: sunk ? 'sunk' : shot.has(k) ? 'hit' : 'ship', part: `${o} ${i === 0 ? 'start' : i === size - 1 ? 'end' : 'mid'}` }));
  }
  for (const k of shot) if (!state.has(k)) state.set(k, { state: 'miss', part: '' });
  return state;
}

// board draws both grids; cells hold data-state (sea, ship, miss, hit or
// sunk).
export function board(parent, { names, marks, mini = false }) {
  const root = el('div', { class: mini ? 'sboards mini' : 'sboards' });
  const grids = [0, 1].map((seat) => grid(seat, names, marks, mini));
  root.append(...grids.map((g) => g.node));
  parent.append(root);
  return {
    draw({ view, moves }, animate) {
      grids.forEach(({ cells }, seat) => {
        const state = states(view.ships[seat] || [], view.shots[seat] || []);
        cells.forEach((cell, k) => {
          const s = state.get(`${Math.floor(k / SIZE)}${k % SIZE}`);
          cell.dataset.state = s?.state || 'sea';
          cell.className = 'cell ' + (s?.part || '');
        });
      });
      for (const m of moves) {
        if (!m.event?.shot) continue;
        const cell = grids[1 - m.seat].cells[+m.event.shot[0] * SIZE + +m.event.shot[1]];
        cell.classList.add('last');
        if (animate) { void root.offsetWidth; cell.classList.add('anim'); }
      }
      root.dataset.turn = view.turn;
    },
  };
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
