// The board of botsArena's marks-in-a-row games (the games/mnk engine's View,
// shared by tic-tac-toe and connect four): a grid of X and O, each in its
// seat's mark, the last piece ringed, the winning lines struck through.
// With gravity, row 0 is drawn at the bottom and a piece drops into place.

import { el, translator } from '../util.js';

export const strings = {
  en: {
    start: 'Both bots get the rules',
    place: '{name} ({mark}) plays row {r}, column {c}',
    drop: '{name} ({mark}) drops in column {c}',
    line: '{n} in a row!',
    unit: 'longest line',
    last: 'last piece',
    winline: 'winning line',
  },
  fr: {
    start: 'Les deux IA reçoivent les règles',
    place: '{name} ({mark}) joue ligne {r}, colonne {c}',
    drop: '{name} ({mark}) lâche un pion en colonne {c}',
    line: '{n} alignés !',
    unit: 'plus longue ligne',
    last: 'dernier pion',
    winline: 'ligne gagnante',
  },
};

const t = translator(strings);

export const css = true;
export const delay = 700;

export function unit() {
  return t('unit');
}

export function legend() {
  return [['token mark-1', 'X'], ['token mark-2', 'O'], ['m-last', t('last')], ['m-line', t('winline')]];
}

// board builds the grid at the first frame, when the View gives its size;
// cells hold data-v ("", "X" or "O") for whoever reads the page, tests
// included.
export function board(parent, { mini = false } = {}) {
  const root = el('div', { class: mini ? 'mboard mini' : 'mboard' });
  parent.append(root);
  let cells = null;
  let size = '';
  const build = (view) => {
    root.replaceChildren();
    root.style.setProperty('--rows', view.rows);
    root.style.setProperty('--cols', view.cols);
    root.classList.toggle('gravity', !!view.gravity);
    cells = [];
    // Drawn top row first: with gravity that is the last row.
    for (let i = 0; i < view.rows; i++) {
      const r = view.gravity ? view.rows - 1 - i : i;
      for (let c = 0; c < view.cols; c++) {
        const cell = el('div', { class: 'cell', dataset: { r, c, v: '' } }, el('i'));
        cells[r * view.cols + c] = cell;
        root.append(cell);
      }
    }
    size = `${view.rows}x${view.cols}`;
  };
  return {
    draw({ view }, animate) {
      if (!view) return;
      if (size !== `${view.rows}x${view.cols}`) build(view);
      view.cells.forEach((row, r) => row.forEach((v, c) => {
        const cell = cells[r * view.cols + c];
        cell.dataset.v = v;
        cell.className = 'cell' + (v ? ` mark-${view.marks.indexOf(v) + 1}` : '');
      }));
      for (const line of view.lines || []) {
        for (const [r, c] of line) cells[r * view.cols + c].classList.add('line');
      }
      const last = view.moves?.[view.moves.length - 1];
      if (last) {
        const cell = cells[last[0] * view.cols + last[1]];
        cell.classList.add('last');
        if (animate) {
          void root.offsetWidth; // restarts the CSS animation
          cell.classList.add('anim');
        }
      }
    },
  };
}

// describe says what a frame's move did; one seat moves at a time.
export function describe(frames, i, names, view) {
  const m = frames[i].moves[0];
  const ev = m.event;
  if (!ev || ev.row === undefined) return t('start');
  const name = names[m.seat];
  let text = view?.gravity
    ? t('drop', { name, mark: ev.mark, c: ev.col })
    : t('place', { name, mark: ev.mark, r: ev.row, c: ev.col });
  if (ev.lines?.length) text += ' · ' + t('line', { n: Math.max(...ev.lines.map((l) => l.length)) });
  return text;
}

// short is the move list's line: the cell as the bots name it.
export function short(frame) {
  const ev = frame.moves[0].event;
  if (!ev || ev.row === undefined) return 'init';
  return frame.view?.gravity ? `${ev.mark} ↓${ev.col}` : `${ev.mark} ${ev.row}-${ev.col}`;
}
