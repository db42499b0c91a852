#!/usr/bin/env node
// Connect four bot: wins when it can, blocks when it must, never plays under
// a cell where the opponent would then win, and otherwise prefers the
// centre, picking at random among equals. Its randomness is drawn from the
// game-id and the board, so it answers the same request the same way.
// Reads botsArena's JSON from argv[2] (node's argv[1] is the script), or
// stdin; prints one JSON answer.
const fs = require('fs');

const text = process.argv[2] && process.argv[2].trim() ? process.argv[2] : fs.readFileSync(0, 'utf8');
const req = JSON.parse(text);
if (req.action === 'init') {
  console.log(JSON.stringify({ name: 'greedy' }));
  process.exit(0);
}

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

const ROWS = 6;
const COLS = 7;
const board = req.board; // board[row][col], row 0 at the bottom
const me = req.you;
const other = me === 'X' ? 'O' : 'X';
const rng = mulberry32(seed(req['game-id'] + JSON.stringify(board)));

const landing = (col) => board.findIndex((row) => row[col] === '');
const at = (r, c) => (r >= 0 && r < ROWS && c >= 0 && c < COLS ? board[r][c] : null);
// wins says that mark in (r, c) would make four in a row.
function wins(r, c, mark) {
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    let n = 1;
    for (const s of [1, -1]) {
      for (let k = 1; at(r + s * k * dr, c + s * k * dc) === mark; k++) n++;
    }
    if (n >= 4) return true;
  }
  return false;
}

const open = [...Array(COLS).keys()].filter((c) => landing(c) >= 0);
const winning = (mark) => open.filter((c) => wins(landing(c), c, mark));
// safe columns do not give the opponent the cell just above.
const safe = open.filter((c) => {
  const r = landing(c);
  return r + 1 >= ROWS || !wins(r + 1, c, other);
});
const pick = (list) => {
  const best = Math.min(...list.map((c) => Math.abs(c - 3)));
  const central = list.filter((c) => Math.abs(c - 3) === best);
  return central[Math.floor(rng() * central.length)];
};

let play;
for (const candidates of [winning(me), winning(other), safe, open]) {
  if (candidates.length > 0) {
    play = candidates === safe || candidates === open ? pick(candidates) : candidates[0];
    break;
  }
}
console.log(JSON.stringify({ play }));
