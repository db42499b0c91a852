// The board of virus (HX2): the 10×10 grid of the two sides. A seat is
// coloured by the side it plays (player_1 circles, player_2 squares), which
// the game's seed draws, not by its seat.

import { el, translator } from '../util.js';

export const strings = {
  en: {
    place: '{name} plays [{r}, {c}]',
    flips: 'flips {n}',
    noflip: 'flips nothing',
    pass: '{name} passes',
    passed: 'pass',
    passreason: 'returned False',
    nomove: 'has no legal move',
    unit: 'pieces',
    last: 'last move',
    flipped: 'converted by it',
  },
  fr: {
    place: '{name} joue [{r}, {c}]',
    flips: 'convertit {n}',
    noflip: 'ne convertit rien',
    pass: '{name} passe',
    passed: 'passe',
    passreason: 'a renvoyé False',
    nomove: "n'a aucun coup légal",
    unit: 'pions',
    last: 'dernier coup',
    flipped: 'converti par ce coup',
  },
};

const t = translator(strings);

export const css = true;
export const delay = 700;

const SIZE = 10;
const SIDES = ['player_1', 'player_2'];

// The grid holds sides as values: 0 empty, 1 player_1, 2 player_2; a side's
// value is its seat mark.
export function seatMark(view, seat) {
  return SIDES.indexOf(view.sides[seat]) + 1;
}

export function seatLabel(view, seat) {
  return view.sides[seat];
}

export function unit() {
  return t('unit');
}

export function legend() {
  return [['token mark-1', SIDES[0]], ['token mark-2', SIDES[1]], ['m-last', t('last')], ['m-flip', t('flipped')]];
}

// board is the grid; cells hold data-v (0 empty, 1 player_1, 2 player_2)
// for whoever reads the page, tests included.
export function board(parent, { mini = false } = {}) {
  const root = el('div', { class: mini ? 'vboard mini' : 'vboard' });
  const cells = [];
  if (!mini) root.append(el('span', { class: 'coord corner' }), ...[...Array(SIZE).keys()].map((c) => el('span', { class: 'coord col', text: c })));
  for (let r = 0; r < SIZE; r++) {
    if (!mini) root.append(el('span', { class: 'coord row', text: r }));
    for (let c = 0; c < SIZE; c++) {
      const cell = el('div', { class: 'cell', dataset: { r, c, v: 0 } }, el('i'));
      cells.push(cell);
      root.append(cell);
    }
  }
  parent.append(root);
  const at = ([r, c]) => cells[r * SIZE + c];
  return {
    draw({ view, moves }, animate) {
      view.grid.flat().forEach((v, k) => {
        cells[k].dataset.v = v;
        cells[k].className = 'cell' + (v ? ` mark-${v}` : '');
      });
      for (const m of moves) {
        if (!m.event?.cell) continue;
        const changed = [at(m.event.cell), ...m.event.flipped.map(at)];
        changed[0].classList.add('placed');
        for (const cell of changed.slice(1)) cell.classList.add('flipped');
        if (animate) {
          void root.offsetWidth; // restarts the CSS animations
          for (const cell of changed) cell.classList.add('anim');
        }
      }
    },
  };
}

// describe says what a frame's move did; one seat moves at a time.
export function describe(frames, i, names) {
  const m = frames[i].moves[0];
  const name = names[m.seat];
  if (m.event?.cell) {
    const n = m.event.flipped.length;
    return `${t('place', { name, r: m.event.cell[0], c: m.event.cell[1] })} · ${n ? t('flips', { n }) : t('noflip')}`;
  }
  if (m.verdict) return t('pass', { name });
  return `${t('pass', { name })} · ${m.reason === 'pass' ? t('passreason') : t('nomove')}`;
}

// short is the move list's line: the cell and how many it converted, as
// the bots write cells, or a pass in words (the bot's False means nothing
// to whoever reads the list).
export function short(frame) {
  const ev = frame.moves[0].event;
  if (!ev?.cell) return t('passed');
  return `[${ev.cell[0]}, ${ev.cell[1]}]${ev.flipped.length ? ' +' + ev.flipped.length : ''}`;
}
