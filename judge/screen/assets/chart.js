// The score-over-time chart of a replay: an inline SVG line a seat, in its
// mark's colour, from the frames' scores, with a cursor on the frame shown.
// It reads only the frames' scores, so it serves every game.

const NS = 'http://www.w3.org/2000/svg';
const W = 300;
const H = 100;

function svg(name, attrs) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// scoreChart draws frames' scores, seat i in mark marks[i]; at(i) moves
// its cursor to frame i.
export function scoreChart(frames, marks, title) {
  const n = Math.max(frames.length - 1, 1);
  const top = Math.max(1, ...frames.flatMap((f) => f.scores || []));
  const low = Math.min(0, ...frames.flatMap((f) => f.scores || []));
  const x = (i) => (i / n) * W;
  const y = (s) => H - ((s - low) / (top - low)) * H;
  const lines = svg('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': title });
  lines.append(svg('title', {}));
  lines.firstChild.textContent = title;
  marks.forEach((m, seat) => {
    const pts = frames.map((f, i) => `${x(i).toFixed(1)},${y(f.scores?.[seat] ?? 0).toFixed(1)}`).join(' ');
    lines.append(svg('polyline', { class: `mark-${m}`, points: pts, 'data-seat': seat }));
  });
  // The cursor is not in the SVG and moves by a transform: moving it in
  // the SVG, or by its left, repaints thousands of points a frame, which
  // slowed a long replay at 16× (TestLongReplay).
  const cursor = document.createElement('div');
  cursor.className = 'cursor';
  const root = document.createElement('div');
  root.className = 'scorechart';
  root.append(lines, cursor);
  return {
    node: root,
    at(i) {
      cursor.style.transform = `translateX(${(i / n) * 100}%)`;
    },
  };
}
