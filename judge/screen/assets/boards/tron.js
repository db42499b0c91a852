// The board of botsArena's Tron: every seat's trail on a canvas, in its
// seat's colour, its head a disc bearing its seat's letter, and an ✕ with
// the letter where a seat went out, larger on the turn it did. The rules'
// View is a grid's worth of cells, so a replay sends the first one only and
// this board folds the moves' events into it, as the rules apply them.

import { el, markStyle, translator, verdictText } from '../util.js';

export const strings = {
  en: {
    start: 'Every bot gets the rules',
    turn: 'turn {n}',
    out: '{name} is out: {cause}',
    wall: 'left the grid',
    trail: "hit {name}'s trail",
    own: 'hit its own trail',
    headon: 'head-on with {names}',
    noroom: 'no room to start',
    unit: 'turns',
    head: 'head, with its letter',
    died: 'out, where it was',
  },
  fr: {
    start: 'Chaque IA reçoit les règles',
    turn: 'tour {n}',
    out: '{name} est éliminée : {cause}',
    wall: 'sortie de la grille',
    trail: 'a percuté la trace de {name}',
    own: 'a percuté sa propre trace',
    headon: 'collision de face avec {names}',
    noroom: 'pas de place pour partir',
    unit: 'tours',
    head: 'tête, avec sa lettre',
    died: 'éliminée, à cet endroit',
  },
};

const t = translator(strings);

export const css = true;
// A frame is one turn of every seat: turns go by fast.
export const delay = 150;
// Trails are thin: a seat is known by the letter on its head.
export const labels = true;
// No seat is a side or plays first: a bot keeps its letter and colour from
// one card of the tournament to the next.
export const botMarks = true;

// CELL is a grid cell's size in canvas pixels; CSS scales the canvas.
const CELL = 10;
// FADE is how long an erased trail takes to vanish, in ms.
const FADE = 600;

export function unit() {
  return t('unit');
}

export function legend() {
  return [['m-head', t('head')], ['m-out', t('died')]];
}

// out says whether a seat is out of the game, for the lists of seats.
export function out(view, seat) {
  return view?.fates?.[seat]?.turn > 0;
}

// fold is the View after frame's moves: a trail grows by the cell of its
// move; a death erases the trail and records the seat's fate. A turn is a
// step whose moves have events (the init's have none).
export function fold(view, { moves }) {
  if (moves.some((m) => m.event)) view.turn++;
  for (const { seat, event } of moves) {
    if (event?.to) view.trails[seat].push(event.to);
    else if (event?.died) {
      view.trails[seat] = [];
      view.fates[seat] = { turn: view.turn, cause: event.died, ...(event.by && { by: event.by }), at: event.at };
    }
  }
  return view;
}

// board is the canvas. A seat that goes out when the replay steps forward
// leaves its trail fading for a moment where the rules erased it.
export function board(parent, { marks, mini = false }) {
  const canvas = el('canvas', { class: mini ? 'tboard mini' : 'tboard' });
  parent.append(canvas);
  const styles = marks.map(markStyle);
  // Heads and crosses must stay readable on a live card's small canvas.
  const size = mini ? 2 : 1;
  let ghosts = []; // {seat, trail, until}
  let shown = null; // the trails last drawn, by seat
  let pending = 0;
  return {
    draw({ view }, animate) {
      cancelAnimationFrame(pending);
      const now = performance.now();
      ghosts = animate ? ghosts.filter((g) => g.until > now) : [];
      if (animate && shown) {
        view.fates.forEach((f, seat) => {
          if (f.turn === view.turn && shown[seat]?.length) ghosts.push({ seat, trail: shown[seat], until: now + FADE });
        });
      }
      // Folding replaces a dead trail and grows the others: a copy of the
      // list keeps the trails as they are now.
      shown = view.trails.slice();
      const frame = () => {
        const at = performance.now();
        ghosts = ghosts.filter((g) => g.until > at);
        paint(canvas, view, styles, size, ghosts, at);
        if (ghosts.length) pending = requestAnimationFrame(frame);
      };
      frame();
    },
  };
}

const centre = ([x, y]) => [(x + 0.5) * CELL, (y + 0.5) * CELL];

function paint(canvas, view, styles, size, ghosts, now) {
  const w = view.width * CELL, h = view.height * CELL;
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, w, h);
  gridLines(ctx, view.width, view.height);
  ctx.lineCap = ctx.lineJoin = 'round';
  for (const g of ghosts) {
    ctx.globalAlpha = 0.8 * (g.until - now) / FADE;
    trail(ctx, g.trail, styles[g.seat].colour);
  }
  ctx.globalAlpha = 1;
  view.trails.forEach((cells, seat) => trail(ctx, cells, styles[seat].colour));
  view.fates.forEach((f, seat) => {
    if (f.at) cross(ctx, f.at, styles[seat], size * (f.turn === view.turn ? 1.5 : 1));
  });
  view.trails.forEach((cells, seat) => {
    if (cells.length) badge(ctx, centre(cells[cells.length - 1]), styles[seat], CELL * 1.7 * size, true);
  });
}

// gridLines mark every tenth cell, for the eye to place the heads.
function gridLines(ctx, width, height) {
  ctx.strokeStyle = 'rgba(255, 255, 255, .07)';
  ctx.lineWidth = 2;
  ctx.beginPath();
  for (let x = 10; x < width; x += 10) {
    ctx.moveTo(x * CELL, 0);
    ctx.lineTo(x * CELL, height * CELL);
  }
  for (let y = 10; y < height; y += 10) {
    ctx.moveTo(0, y * CELL);
    ctx.lineTo(width * CELL, y * CELL);
  }
  ctx.stroke();
}

// trail is a line through its cells' centres, thinner than a cell so that
// trails side by side stay apart.
function trail(ctx, cells, colour) {
  if (!cells.length) return;
  ctx.strokeStyle = colour;
  ctx.lineWidth = CELL * 0.6;
  ctx.beginPath();
  ctx.moveTo(...centre(cells[0]));
  for (const c of cells) ctx.lineTo(...centre(c));
  ctx.stroke();
}

// badge is a disc of a seat's colour bearing its letter, kept inside the
// canvas; a head's is ringed in white, to stand out of the trails.
function badge(ctx, [cx, cy], style, r, ring) {
  const x = Math.min(Math.max(cx, r), ctx.canvas.width - r), y = Math.min(Math.max(cy, r), ctx.canvas.height - r);
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fillStyle = style.colour;
  ctx.fill();
  ctx.lineWidth = r * 0.2;
  ctx.strokeStyle = ring ? '#fff' : '#000';
  ctx.stroke();
  ctx.fillStyle = style.ink;
  ctx.font = `bold ${Math.round(r * 1.25)}px "DejaVu Sans", sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(style.label, x, y + r * 0.08);
}

// cross is an ✕ of the seat's colour, outlined in black, on the cell where
// it went out, with its letter beside it.
function cross(ctx, cell, style, size) {
  const [x, y] = centre(cell);
  const r = CELL * 1.5 * size;
  for (const [width, colour] of [[r * 0.6, '#000'], [r * 0.34, style.colour]]) {
    ctx.lineWidth = width;
    ctx.strokeStyle = colour;
    ctx.beginPath();
    ctx.moveTo(x - r, y - r);
    ctx.lineTo(x + r, y + r);
    ctx.moveTo(x + r, y - r);
    ctx.lineTo(x - r, y + r);
    ctx.stroke();
  }
  const b = CELL * 1.3 * size;
  badge(ctx, [x + r + b, y - r - b * 0.5], style, b, false);
}

const outs = (frame) => frame.moves.filter((m) => m.event?.died);

// causeText says why seat went out, naming whom it hit.
function causeText({ seat, event: { died, by = [] } }, names) {
  switch (died) {
    case 'wall': return t('wall');
    case 'trail': return by[0] === seat ? t('own') : t('trail', { name: names[by[0]] });
    case 'head-on': return t('headon', { names: by.map((s) => names[s]).join(', ') });
    case 'no room': return t('noroom');
  }
  return verdictText(died);
}

export function describe(frames, i, names, view) {
  if (!view.turn) return t('start');
  return [t('turn', { n: view.turn }), ...outs(frames[i]).map((m) => t('out', { name: names[m.seat], cause: causeText(m, names) }))].join(' · ');
}

// short names the seats that went out on the turn; other turns need no words.
export function short(frame, names) {
  const out = outs(frame);
  return out.length ? '✕ ' + out.map((m) => names[m.seat]).join(', ') : '';
}
