#!/usr/bin/env node
// Tron bot: goes straight on until something is in the way, then turns to
// the free side with the most cells ahead of it. Reads botsArena's JSON from
// argv[2] (node's argv[1] is the script), or stdin for very large boards.
const fs = require('fs');

const moves = { 'x+': [1, 0], 'y+': [0, 1], 'x-': [-1, 0], 'y-': [0, -1] };
const text = process.argv[2] && process.argv[2].trim() ? process.argv[2] : fs.readFileSync(0, 'utf8');
const req = JSON.parse(text);
if (req.action === 'init') {
  console.log(JSON.stringify({ name: 'straight' }));
  process.exit(0);
}
const width = req.width || 100;
const height = req.height || 100;
const me = req['player-index'];
const taken = new Set();
for (const trail of req.board) for (const [x, y] of trail) taken.add(`${x},${y}`);
const [hx, hy] = req.board[me][0];
const free = (x, y) => x >= 0 && x < width && y >= 0 && y < height && !taken.has(`${x},${y}`);
// The way it came from its previous cell is "straight on".
let heading = 'x+';
if (req.board[me].length > 1) {
  const [px, py] = req.board[me][1];
  heading = Object.keys(moves).find((k) => moves[k][0] === hx - px && moves[k][1] === hy - py) || heading;
}
const run = (k) => {
  let n = 0;
  let [x, y] = [hx + moves[k][0], hy + moves[k][1]];
  while (free(x, y)) { n++; x += moves[k][0]; y += moves[k][1]; }
  return n;
};
let play = heading;
if (run(heading) === 0) {
  play = Object.keys(moves).reduce((best, k) => (run(k) > run(best) ? k : best), heading);
}
console.log(JSON.stringify({ play }));
