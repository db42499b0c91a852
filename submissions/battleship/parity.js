#!/usr/bin/env node
// Battleship bot (botsArena's rules): hunts on a checkerboard (every boat
// of two cells or more covers a black cell), and once it hits a boat it
// shoots around the hit, along the line when two hits are in a row, until
// the boat sinks. Its boats are placed at random. Its randomness is drawn
// from the game-id, its index and its strikes, so it answers the same
// request the same way. Reads botsArena's JSON from argv[2] (node's argv[1]
// is the script), or stdin; prints one JSON answer.
const fs = require('fs');

const text = process.argv[2] && process.argv[2].trim() ? process.argv[2] : fs.readFileSync(0, 'utf8');
const req = JSON.parse(text);
const board = req.board;
const w = Number(board.width);
const h = Number(board.height);
const strikes = board.your_strikes || [];

function seed(str) {
  let h1 = 0xdeadbeef ^ 0;
  let h2 = 0x41c6ce57 ^ 0;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  return h1 >>> 0;
}
function mulberry32(a) {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rng = mulberry32(seed(`${req['game-id']} ${req['player-index']} ${strikes.length}`));
const pick = (list) => list[Math.floor(rng() * list.length)];
const key = (x, y) => `${x},${y}`;
const inside = (x, y) => x >= 0 && x < w && y >= 0 && y < h;

const lengths = [];
for (let n = 6; n >= 1; n--) for (let i = 0; i < Number(board[`ship${n}`] || 0); i++) lengths.push(n);

// place puts the boats at random, longest first, trying again on a dead end.
function place() {
  for (let attempt = 0; attempt < 50; attempt++) {
    const taken = new Set();
    const boats = [];
    for (const n of lengths) {
      let run = null;
      for (let tries = 0; tries < 500 && !run; tries++) {
        const vertical = n > 1 && rng() < 0.5;
        const xs = w - (vertical ? 0 : n - 1);
        const ys = h - (vertical ? n - 1 : 0);
        if (xs <= 0 || ys <= 0) continue;
        const x = Math.floor(rng() * xs);
        const y = Math.floor(rng() * ys);
        const cells = [...Array(n).keys()].map((i) => (vertical ? [x, y + i] : [x + i, y]));
        if (cells.every(([cx, cy]) => !taken.has(key(cx, cy)))) run = cells;
      }
      if (!run) break;
      run.forEach(([cx, cy]) => taken.add(key(cx, cy)));
      boats.push(`${run[0][0]},${run[0][1]}-${run[n - 1][0]},${run[n - 1][1]}`);
    }
    if (boats.length === lengths.length) return boats;
  }
  return [];
}

if (req.action === 'init') {
  console.log(JSON.stringify({ name: 'parity', boats: place() }));
  process.exit(0);
}

const shot = new Map(); // cell -> its first result
for (const s of strikes) if (!shot.has(s.target)) shot.set(s.target, s.result);
const hit = (x, y) => inside(x, y) && (shot.get(key(x, y)) || '') !== '';
const unknown = (x, y) => inside(x, y) && !shot.has(key(x, y));

// A sunk boat's hits are the run through the sinking shot: they need no
// more shots around them.
const done = new Set();
for (const [target, result] of shot) {
  if (result !== 'hit and sunk') continue;
  const [sx, sy] = target.split(',').map(Number);
  let best = [[sx, sy]];
  for (const [dx, dy] of [[1, 0], [0, 1]]) {
    const run = [[sx, sy]];
    for (const s of [1, -1]) {
      for (let k = 1; hit(sx + s * k * dx, sy + s * k * dy) && !done.has(key(sx + s * k * dx, sy + s * k * dy)); k++) {
        run.push([sx + s * k * dx, sy + s * k * dy]);
      }
    }
    if (run.length > best.length) best = run;
  }
  best.forEach(([x, y]) => done.add(key(x, y)));
}
const open = [];
for (const [target] of shot) {
  const [x, y] = target.split(',').map(Number);
  if (hit(x, y) && !done.has(target)) open.push([x, y]);
}

let candidates = [];
// Along a line of two open hits first, then around any open hit.
for (const [x, y] of open) {
  for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
    if (!hit(x - dx, y - dy) || done.has(key(x - dx, y - dy))) continue;
    let k = 1;
    while (hit(x + k * dx, y + k * dy)) k++;
    if (unknown(x + k * dx, y + k * dy)) candidates.push([x + k * dx, y + k * dy]);
  }
}
if (candidates.length === 0) {
  for (const [x, y] of open) {
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      if (unknown(x + dx, y + dy)) candidates.push([x + dx, y + dy]);
    }
  }
}
if (candidates.length === 0) {
  const all = [];
  for (let x = 0; x < w; x++) for (let y = 0; y < h; y++) if (unknown(x, y)) all.push([x, y]);
  const black = all.filter(([x, y]) => (x + y) % 2 === 0);
  candidates = Math.min(...lengths) > 1 && black.length > 0 ? black : all;
}
const [x, y] = candidates.length > 0 ? pick(candidates) : [0, 0];
console.log(JSON.stringify({ play: key(x, y) }));
