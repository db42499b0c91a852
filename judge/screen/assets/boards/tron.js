// The board of botsArena's Tron: every seat's trail on the grid in its
// seat's colour, heads outlined, a ✕ where a seat went out. A first drawing,
// enough to follow a game of any number of seats.

import { el, translator, verdictText } from '../util.js';

export const strings = {
  en: {
    start: 'Every bot gets the rules',
    turn: 'turn {n}',
    out: '{name} is out: {cause}',
    wall: 'left the grid',
    trail: 'hit a trail',
    headon: 'head-on collision',
    noroom: 'no room to start',
    unit: 'turns',
    head: 'head',
    died: 'out',
  },
  fr: {
    start: 'Chaque IA reçoit les règles',
    turn: 'tour {n}',
    out: '{name} est éliminée : {cause}',
    wall: 'sortie de la grille',
    trail: 'a percuté une trace',
    headon: 'collision de face',
    noroom: 'pas de place pour partir',
    unit: 'tours',
    head: 'tête',
    died: 'éliminée',
  },
};

const t = translator(strings);

export const css = true;
// A frame is one turn of every seat: turns go by fast.
export const delay = 150;

// CELL is a grid cell's size in canvas pixels; CSS scales the canvas.
const CELL = 8;

// The game's causes of death; any other is a fault's kind.
const CAUSES = { wall: 'wall', trail: 'trail', 'head-on': 'headon', 'no room': 'noroom' };

const causeText = (cause) => (CAUSES[cause] ? t(CAUSES[cause]) : verdictText(cause));

export function unit() {
  return t('unit');
}

export function legend() {
  return [['m-head', t('head')], ['m-out', t('died')]];
}

export function board(parent, { mini = false } = {}) {
  const canvas = el('canvas', { class: mini ? 'tboard mini' : 'tboard' });
  parent.append(canvas);
  return { draw: ({ view }) => paint(canvas, view) };
}

// paint draws view; a seat's colour is its mark's, read from the page's CSS
// where it is defined (the board may not be in the page yet).
function paint(canvas, view) {
  canvas.width = view.width * CELL;
  canvas.height = view.height * CELL;
  const ctx = canvas.getContext('2d');
  const css = getComputedStyle(document.documentElement);
  const colour = (seat) => css.getPropertyValue(`--seat-${(seat % 12) + 1}`);
  view.trails.forEach((trail, seat) => {
    ctx.fillStyle = colour(seat);
    for (const [x, y] of trail) ctx.fillRect(x * CELL, y * CELL, CELL, CELL);
    const head = trail[trail.length - 1];
    if (!head) return;
    ctx.strokeStyle = css.getPropertyValue('--fg');
    ctx.lineWidth = 2;
    ctx.strokeRect(head[0] * CELL + 1, head[1] * CELL + 1, CELL - 2, CELL - 2);
  });
  ctx.font = `bold ${CELL * 2.5}px sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  view.fates.forEach((f, seat) => {
    if (!f.at) return;
    ctx.fillStyle = colour(seat);
    ctx.fillText('✕', (f.at[0] + 0.5) * CELL, (f.at[1] + 0.5) * CELL);
  });
}

const outs = (frame) => frame.moves.filter((m) => m.event?.died);

export function describe(frames, i, names) {
  const f = frames[i];
  if (f.moves.every((m) => m.unjudged)) return t('start');
  const turn = t('turn', { n: f.view.turn });
  return [turn, ...outs(f).map((m) => t('out', { name: names[m.seat], cause: causeText(m.event.died) }))].join(' · ');
}

// short names the seats that went out on the turn; other turns need no words.
export function short(frame, names) {
  const out = outs(frame);
  return out.length ? '✕ ' + out.map((m) => names[m.seat]).join(', ') : '';
}
