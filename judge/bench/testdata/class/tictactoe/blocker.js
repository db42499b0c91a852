#!/usr/bin/env node
// Tic-tac-toe bot: wins when it can, blocks the opponent's line when it
// must, else takes the centre, a corner, then any cell, picked at random
// among equals. Its randomness is drawn from the game-id and the board, so
// it answers the same request the same way. Reads botsArena's JSON from
// argv[2] (node's argv[1] is the script), or stdin; prints one JSON answer.
const fs = require('fs');

const text = process.argv[2] && process.argv[2].trim() ? process.argv[2] : fs.readFileSync(0, 'utf8');
const req = JSON.parse(text);
if (req.action === 'init') {
  console.log(JSON.stringify({ name: 'blocker' }));
  process.exit(0);
}

// A small seeded generator: a hash of the request's string (cyrb53) fed to
// mulberry32.
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

const me = req.you;
const other = me === 'X' ? 'O' : 'X';
const key = (i) => `${Math.floor(i / 3)}-${i % 3}`;
const cells = [...Array(9).keys()].map((i) => req.board[key(i)]);
const lines = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
const free = [...Array(9).keys()].filter((i) => cells[i] === '');

// completing is a free cell that would give mark a line.
const completing = (mark) => free.filter((i) => lines.some((l) => l.includes(i) && l.every((j) => j === i || cells[j] === mark)));
const rng = mulberry32(seed(req['game-id'] + JSON.stringify(cells)));
const pick = (list) => list[Math.floor(rng() * list.length)];

let choice;
for (const candidates of [completing(me), completing(other), free.filter((i) => i === 4), free.filter((i) => [0, 2, 6, 8].includes(i)), free]) {
  if (candidates.length > 0) {
    choice = pick(candidates);
    break;
  }
}
console.log(JSON.stringify({ play: key(choice) }));
