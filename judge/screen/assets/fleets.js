// What the boards of the games of fleets and shots share (two of them):
// both grids side by side, seat i's grid showing seat i's boats and the
// shots the other seat fired at it, the last shots ringed. Each board says
// its grids' size, how it names a cell, what a View's cells hold and where
// a move fired; the words are the board's own, under shared keys (grid,
// shotsby, ship, miss, hit, sunkship, lastshot).

import { el, translator } from './util.js';

// words are what both boards say alike; each adds its own (ship, sunkship,
// sunk and the like).
export const words = {
  en: {
    fleets: 'Both fleets are placed',
    shot: '{name} fires at {cell}',
    miss: 'miss',
    hit: 'hit',
    grid: "{name}'s fleet",
    shotsby: 'shots by {name}',
    unit: 'hits',
    lastshot: 'last shot',
  },
  fr: {
    fleets: 'Les deux flottes sont placées',
    shot: '{name} tire en {cell}',
    miss: "dans l'eau",
    hit: 'touché',
    grid: 'flotte de {name}',
    shotsby: 'tirs de {name}',
    unit: 'touchés',
    lastshot: 'dernier tir',
  },
};

// unit is what both boards' scores count.
export const unit = () => translator(words)('unit');

export function legend(t) {
  return [['m-ship', t('ship')], ['m-miss', t('miss')], ['m-hit', t('hit')], ['m-sunk', t('sunkship')], ['m-last', t('lastshot')]];
}

// grid builds one seat's grid of w × h cells; cells[at(x, y)] is the cell
// of column x, row y, whose dataset names it by coords ([column, row]).
function grid(f, seat, w, h) {
  const { names, marks, mini, t, prefix, coords, at } = f;
  const box = el('div', { class: `fgrid ${prefix}grid` });
  box.style.setProperty('--w', w);
  box.style.setProperty('--h', h);
  const cells = [];
  if (!mini) box.append(el('span', { class: 'coord corner' }), ...[...Array(w).keys()].map((x) => el('span', { class: 'coord col', text: x })));
  for (let y = 0; y < h; y++) {
    if (!mini) box.append(el('span', { class: 'coord row', text: y }));
    for (let x = 0; x < w; x++) {
      const cell = el('div', { class: 'cell', dataset: { [coords[0]]: x, [coords[1]]: y, state: 'sea' } }, el('i'));
      cells[at(x, y, w)] = cell;
      box.append(cell);
    }
  }
  const title = el('div', { class: `ftitle ${prefix}title` },
    el('b', { text: t('grid', { name: names[seat] }) }),
    el('span', { text: ' · ' + t('shotsby', { name: names[1 - seat] }) }));
  return { node: el('div', { class: `fside ${prefix}side mark-${marks[seat]}` }, title, box), cells };
}

// board draws both grids, made once the first View tells their size;
// cells hold data-state (sea, ship, miss, hit or sunk). f is the board's
// own part: {names, marks, mini} as a board gets them, and
//   t: the board's translator; prefix: its classes' first letter;
//   coords: the dataset names of a cell's column and row;
//   size(view) → [w, h]; at(x, y, w) → the index of a cell;
//   states(view, seat, w) → Map index → {state, part?} (part: more
//     classes of the cell), sea where unset;
//   shot(event) → [x, y] of a move's shot, or null.
export function board(parent, f) {
  // The shared classes (fleets.css) and the board's own, its prefix's.
  const root = el('div', { class: `fleets ${f.prefix}boards${f.mini ? ' mini' : ''}` });
  parent.append(root);
  let grids = null;
  let w = 0;
  return {
    draw({ view, moves }, animate) {
      const [width, height] = f.size(view);
      if (!grids || width !== w) {
        w = width;
        grids = [0, 1].map((seat) => grid(f, seat, width, height));
        root.replaceChildren(...grids.map((g) => g.node));
      }
      grids.forEach(({ cells }, seat) => {
        const state = f.states(view, seat, w);
        cells.forEach((cell, k) => {
          const s = state.get(k);
          cell.dataset.state = s?.state || 'sea';
          cell.className = s?.part ? `cell ${s.part}` : 'cell';
        });
      });
      for (const m of moves) {
        const at = m.event && f.shot(m.event);
        const cell = at && grids[1 - m.seat].cells[f.at(at[0], at[1], w)];
        if (!cell) continue;
        cell.classList.add('last');
        if (animate) { void root.offsetWidth; cell.classList.add('anim'); }
      }
      root.dataset.turn = view.turn;
    },
  };
}
