// The board of botsArena's marks in a row, shared by tic-tac-toe's and
// connect four's modules: the rules' View carries its own size, and
// gravity says that row 0 is the bottom, so one drawing serves both. A
// seat's pieces wear its seat mark; the bots' X and O are said in words.

import { el, translator } from './util.js';

export const strings = {
  en: {
    place: '{name} ({mark}) plays {cell}',
    drop: '{name} ({mark}) drops in column {col}',
    wins: 'a line of {k}!',
    unit: 'longest line',
    last: 'last move',
    line: 'winning line',
  },
  fr: {
    place: '{name} ({mark}) joue {cell}',
    drop: '{name} ({mark}) joue la colonne {col}',
    wins: 'une ligne de {k} !',
    unit: 'plus longue ligne',
    last: 'dernier coup',
    line: 'ligne gagnante',
  },
};

const t = translator(strings);

export const css = true;
export const delay = 700;

export function unit() {
  return t('unit');
}

// The pieces carry the bots' own letters (X moves first): a seat's shape
// alone would draw X as a circle and O as a square.
export function legend() {
  return [['token mark-1', 'X', 'X'], ['token mark-2', 'O', 'O'], ['m-last', t('last')], ['m-line', t('line')]];
}

// board builds its grid at the first frame, when the View tells its size;
// cells hold data-v (0 empty, else the seat plus one) for whoever reads the
// page, tests included.
export function board(parent, { marks = [1, 2], mini = false } = {}) {
  const root = el('div', { class: mini ? 'mboard mini' : 'mboard' });
  parent.append(root);
  let cells = null;
  let rows = 0;
  let cols = 0;
  // at is the cell of a View's [row, col]: with gravity, row 0 is drawn at
  // the bottom.
  const at = (gravity, [r, c]) => cells[(gravity ? rows - 1 - r : r) * cols + c];
  function build(view) {
    rows = view.rows;
    cols = view.cols;
    root.style.setProperty('--cols', cols);
    root.style.setProperty('--rows', rows);
    root.classList.toggle('gravity', !!view.gravity);
    cells = [];
    root.replaceChildren();
    for (let k = 0; k < rows * cols; k++) {
      const cell = el('div', { class: 'cell', dataset: { v: 0 } }, el('i'));
      cells.push(cell);
      root.append(cell);
    }
  }
  return {
    draw({ view }, animate) {
      if (!cells || view.rows !== rows || view.cols !== cols) build(view);
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          const seat = view.marks.indexOf(view.cells[r][c]);
          const cell = at(view.gravity, [r, c]);
          cell.dataset.v = seat + 1;
          cell.className = 'cell' + (seat >= 0 ? ` token mark-${marks[seat]}` : '');
          cell.firstChild.textContent = seat >= 0 ? view.marks[seat] : '';
        }
      }
      const g = !!view.gravity;
      for (const line of view.lines || []) for (const p of line) at(g, p).classList.add('line');
      const last = view.moves?.[view.moves.length - 1];
      if (last) {
        const cell = at(g, last);
        cell.classList.add('placed');
        if (animate) { void root.offsetWidth; cell.classList.add('anim'); }
      }
    },
  };
}

// cellName is a cell as the bots name it: "r-c", or a column when pieces
// fall.
const cellName = (ev, gravity) => (gravity ? `${ev.col}` : `${ev.row}-${ev.col}`);

// describe says what a frame's piece did; one seat moves at a time.
export function describe(frames, i, names, view) {
  const m = frames[i].moves[0];
  const name = names[m.seat];
  const ev = m.event;
  if (!ev) return name;
  const gravity = !!view?.gravity;
  let text = gravity ? t('drop', { name, mark: ev.mark, col: ev.col }) : t('place', { name, mark: ev.mark, cell: cellName(ev, false) });
  if (ev.lines?.length) text += ` · ${t('wins', { k: ev.lines[0].length })}`;
  return text;
}

export function short(frame) {
  const ev = frame.moves[0].event;
  if (!ev) return '–';
  return `${ev.mark} ${ev.row}-${ev.col}${ev.lines?.length ? ' ★' : ''}`;
}
