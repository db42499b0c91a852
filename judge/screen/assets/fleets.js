// What the boards of the games of fleets and shots share (two of them):
// both grids side by side, seat i's grid showing seat i's boats and the
// shots the other seat fired at it, the last shots ringed. Each board says
// its grids' size, how it names a cell, what a View's cells hold and where
// a move fired; the words are the board's own, under shared keys (grid,
// shotsby, ship, miss, hit, sunkship, lastshot).

import { el } from './util.js';

export function legend(t) {
  return [['m-ship', t('ship')], ['m-miss', t('miss')], ['m-hit', t('hit')], ['m-sunk', t('sunkship')], ['m-last', t('lastshot')]];
}

// grid builds one seat's grid of w × h cells; cells[at(x, y)] is the cell
// of column x, row y, whose dataset names it by coords ([column, row]).
function grid(f, seat, w, h) {
  const { names, marks, mini, t, prefix, coords, at } = f;
  const box = el('div', { class: prefix + 'grid' });
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
  const title = el('div', { class: prefix + 'title' },
    el('b', { text: t('grid', { name: names[seat] }) }),
    el('span', { text: ' · ' + t('shotsby', { name: names[1 - seat] }) }));
  return { node: el('div', { class: `${prefix}side mark-${marks[seat]}` }, title, box), cells };
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
  const root = el('div', { class: f.mini ? `${f.prefix}boards mini` : `${f.prefix}boards` });
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
