// The replay player, and what every game's pages share: loading a game's
// board module, the seats' marks, what a frame says. A board module
// (boards/<game>.js) draws the rules' own View and says its moves in words;
// this file draws the rest for any number of seats: the players with their
// scores, faults and turn, the moves, the faults' stories, the controls.
//
// A frame, as the server sends it (a replay's frames; a live game's is
// built alike from its live row, without to_move):
//   {view: the rules' View, moves: [{seat, verdict?, reason?, detail?,
//    event?, answer?, unjudged?, n, charged_ms, cpu, elapsed_ms}], scores: [per seat],
//    to_move: [seats]}
// For rules whose Views fold from events (games.Incremental), only a
// replay's first and last frames have a view: the page folds the others
// with the module's fold, and gives the module frames whose view is set.
// A board module exports:
//   board(parent, {names, marks, mini}) → {draw(frame, animate)}: builds
//     the board (mini on the live cards) in parent, seat i wearing mark
//     marks[i]; draw shows a frame, animating its moves when the replay
//     steps forward by one.
//   describe(frames, i, names, view) → string: what frame i's moves did (it
//     has some), for the said line and the live cards; view is frame i's
//     (frames[i].view may be unset), frames before i may be read, the fault
//     is added by the page.
//   short(frame, names) → string: frame's line in the move list, when no
//     move of it was a fault (the page shows the fault instead).
//   legend() → [[class, text, inside?], …]: the board's marks, drawn as
//     span.mark.<class> (holding inside, when given); 'token mark-k' draws
//     seat mark k.
//   unit() → string: what the scores count.
//   strings = {en: {…}, fr: {…}}: its words under short keys, read through
//     util.js's translator(strings).
// and may export:
//   css = true: boards/<game>.css is loaded before the board is drawn.
//   delay: ms a replay frame shows at 1× (600).
//   seatMark(view, seat) → 1..12: the mark a seat wears (seat + 1).
//   seatLabel(view, seat) → string: under a seat's name ("seat k").
//   labels = true: the board tells seats apart by their marks' letters,
//     which the cards then show too (they do past two seats anyway), and
//     the TV and the live cards show its legend.
//   botMarks = true: its seats are alike (no side, no first player): in a
//     game in progress and in its replay a bot wears the mark of its place
//     in the tournament, not of its seat (seatMarks).
//   fold(view, frame) → view: the View after frame's moves, given the one
//     before (which it may change): required when the rules' Views fold.
//   out(view, seat) → bool: the seat is out of the game (eliminated).
// Views, events and scores are the game's own JSON, already parsed; a live
// frame's moves are the stored ones (no unjudged, no n). Boards take what
// they share from util.js: el, translator, verdictText, and markStyle(k),
// mark k's colour, letter and ink for a canvas.

import { scoreChart } from './chart.js';
import { breakable, el, fill, msText, nameLength, reasonBeside, say, t, timeTitle, tn, verdict, winText } from './util.js';

const boards = new Map();

// loadBoard imports the board module of a game, with its stylesheet when it
// has one.
export function loadBoard(game) {
  if (!boards.has(game)) boards.set(game, importBoard(game));
  return boards.get(game);
}

async function importBoard(game) {
  const name = encodeURIComponent(game);
  const mod = await import(`./boards/${name}.js`);
  if (mod.css) {
    // The board's sizes come from its rules: draw it once they apply.
    await new Promise((resolve, reject) => document.head.append(el('link', {
      rel: 'stylesheet', href: `/assets/boards/${name}.css`, onload: resolve,
      onerror: () => reject(new Error(`${game}: no stylesheet`)),
    })));
  }
  return mod;
}

// markOf is the mark (1 to 12) a seat wears: by seat, unless the game
// colours seats otherwise.
function markOf(game, view, seat) {
  return game.seatMark?.(view, seat) ?? seat + 1;
}

// MARKS is how many seat marks style.css has.
const MARKS = 12;

// seatMarks are the marks of a game's seats, in progress or replayed:
// markOf's, unless the board's seats are alike (botMarks). Then a bot wears
// the mark of its place in the tournament's list of bots (entries, seat by
// seat, as the live rows and the replays give them), the same on every
// card, on the TV and in the replay, or the next one free when two places
// share a mark (past twelve bots).
export function seatMarks(game, view, seats, entries) {
  if (!game.botMarks || entries?.length !== seats) return Array.from({ length: seats }, (_, seat) => markOf(game, view, seat));
  const taken = new Set();
  return entries.map((place, seat) => {
    let k = (place >= 0 ? place : seat) % MARKS;
    for (let n = 0; n < MARKS && taken.has(k); n++) k = (k + 1) % MARKS;
    taken.add(k);
    return k + 1;
  });
}

// faultOf is the first move of a frame that was a fault: the one the page
// explains.
const faultOf = (frame) => frame.moves.find((m) => m.verdict);

// words is what frame i of frames says, view being its View: the game's
// words for its moves, and the fault among them.
export function words(game, frames, i, names, view) {
  const f = frames[i];
  if (!f.moves.length) return { text: t('replay.start.text') };
  return { text: game.describe(frames, i, names, view), fault: faultOf(f) };
}

// labelled says whether the seats' tokens show their letters: when the
// board reads by them, or when colours and shapes get many.
export function labelled(game, seats) {
  return game.labels === true || seats > 2;
}

// resultText is the final line: who won, the scores of a duel (the cards
// show more), why it ended. The winner's score comes first, after its
// name: "greedy wins 51 – 49", never 49 – 51.
function resultText(outcome, names) {
  const sc = outcome.score, won = outcome.rank[1] < outcome.rank[0];
  const score = sc && names.length === 2 ? ' ' + (won ? [sc[1], sc[0]] : sc).join(' – ') : '';
  return `${winText(names, outcome.rank)}${score} · ${say(outcome.reason)}`;
}

// legend explains the marks of a board to whoever sees it for the first time,
// and the page's own marks of extra, given alike; an entry's third item is
// what its mark carries (a bot's letter).
export function legend(game, extra = []) {
  return el('ul', { class: 'legend' }, [...game.legend(), ...extra].map(([cls, text, inside]) => el('li', {}, el('span', { class: `mark ${cls}` }, inside ? el('i', { text: inside }) : null), text)));
}

// faultCounts is, for every frame, each seat's faults up to it: the cards
// show them at every step of replays of thousands.
function faultCounts(frames, seats) {
  let now = Array(seats).fill(0);
  return frames.map((f) => {
    if (f.moves.some((m) => m.verdict)) {
      now = now.slice();
      for (const m of f.moves) if (m.verdict) now[m.seat]++;
    }
    return now;
  });
}

// ---------------------------------------------------------------- player

const icons = {
  start: 'M6 5h2v14H6zM20 5v14L9 12z',
  back: 'M18 5v14L7 12zM5 5h2v14H5z',
  play: 'M7 4v16l13-8z',
  pause: 'M6 4h4v16H6zM14 4h4v16h-4z',
  forward: 'M6 5v14l11-7zM17 5h2v14h-2z',
  end: 'M4 5v14l11-7zM16 5h2v14h-2z',
};

function icon(name) {
  return el('svg:svg', { viewBox: '0 0 24 24', 'aria-hidden': 'true' }, el('svg:path', { d: icons[name] }));
}

const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];

// A replay faster than a frame per TICK ms shows every few frames instead:
// timers and screens do not go faster.
const TICK = 30;

// many says whether a game has so many seats that the pages show each in
// one line (cards, live cards, game rows).
export const many = (seats) => seats > 4;

// thought is a move-list line's thinking time: the slowest answer of the
// frame, as the records time answers, so a bot's slow moves stand out. It
// is what the answer was charged (CPU time in a sandbox, SPEC §5); its
// title gives the wall time beside it.
function thought(f) {
  const m = f.moves.reduce((a, b) => ((b.charged_ms || 0) > (a.charged_ms || 0) ? b : a), {});
  const ms = m.charged_ms || 0;
  return el('span', { class: 'ms', title: timeTitle(m), dataset: { ms, wall: m.elapsed_ms || 0 }, text: msText(ms) });
}

// Player shows a replay of rp drawn by the board module game: board, the
// players, what happened, the moves, and the controls. opts: {start: frame,
// autoplay, delay: ms per frame at 1×, onEnd, controls: false for the
// presentation}.
export class Player {
  constructor(parent, rp, game, opts = {}) {
    this.rp = rp;
    this.game = game;
    this.frames = rp.frames;
    this.names = rp.game.players.map((p) => p.name);
    this.marks = seatMarks(game, this.frames[0].view, this.names.length, rp.entries);
    this.faults = faultCounts(this.frames, this.names.length);
    this.folded = null; // {at: frame, view}: the last View folded
    this.opts = opts;
    this.i = 0;
    this.speed = opts.speed || 1;
    this.delay = opts.delay || game.delay || 600;
    this.timer = null;

    this.root = el('div', { class: labelled(game, this.names.length) ? 'replay labelled' : 'replay' });
    this.cards = this.names.map((_, seat) => this.card(seat));
    const stage = el('div', { class: 'stage' });
    this.board = game.board(stage, { names: this.names, marks: this.marks });
    this.said = el('div', { class: 'said', 'aria-live': 'polite' });
    this.result = el('div', { class: 'result' });
    this.lines = this.frames.map((f, i) => (i ? this.line(f, i) : null));
    this.list = el('ol', { class: 'movelist' }, this.lines);
    // A fault's full story (reason, traceback) goes beside the board, which
    // must not move.
    this.why = el('div', { class: 'why' });
    const side = el('div', { class: many(this.names.length) ? 'side many' : 'side' }, this.cards, this.why, legend(game));
    this.chart = scoreChart(this.frames, this.marks, t('replay.chart'));
    const right = el('div', { class: 'moves' }, el('h3', { text: t('replay.moves') }), this.list, this.chart.node);
    const centre = el('div', { class: 'centre' }, stage, this.said, el('div', { class: 'resultbox' }, this.result));
    this.root.append(el('div', { class: 'replay-main' }, side, centre, right));
    if (opts.controls !== false) this.root.append(this.controls());
    if (rp.problem) this.root.prepend(el('div', { class: 'warning', text: t('replay.inconsistent', { msg: rp.problem }) }));
    parent.append(this.root);
    this.seek(Math.min(opts.start || 0, this.frames.length - 1));
    if (opts.autoplay) this.play();
  }

  // line is frame i in the move list, under the seat that moved or faulted
  // (none when all moved at once).
  line(f, i) {
    const bad = faultOf(f);
    const seat = bad ? bad.seat : f.moves.length === 1 ? f.moves[0].seat : null;
    const what = bad ? verdict(bad.verdict) : el('span', {}, breakable(this.game.short(f, this.names)));
    what.classList.add('what');
    return el('li', { class: `${seat === null ? 'all' : 'mark-' + this.marks[seat]}${bad ? ' fault' : ''}`, dataset: { i },
      onclick: () => { this.pause(); this.seek(i); } },
    el('span', { class: 'no', text: i }), el('span', { class: 'who' }, seat === null ? '' : breakable(this.names[seat])), what, thought(f));
  }

  card(seat) {
    const score = el('div', { class: 'score' });
    const faults = el('div', { class: 'cardfaults' });
    const label = this.game.seatLabel?.(this.frames[0].view, seat) ?? t('replay.seat', { seat });
    // What the score counts follows the seat's label: under the score it
    // would widen its column and leave the name less room.
    const c = el('div', { class: `card mark-${this.marks[seat]}`, dataset: { seat } },
      el('div', { class: 'piece token' }),
      el('div', { class: 'who' }, el('div', { class: 'name', style: `--len: ${nameLength(this.names[seat])}` }, breakable(this.names[seat])),
        el('div', { class: 'sub' }, label, el('span', { class: 'unit', text: ` · ${this.game.unit()}` }))),
      score, el('div', { class: 'turn', text: t('replay.tomove') }), faults);
    c.score = score;
    c.faults = faults;
    return c;
  }

  controls() {
    const btn = (name, label, fn) => el('button', { type: 'button', class: `ctl ${name}`, title: label, 'aria-label': label,
      onmousedown: (e) => e.preventDefault(), onclick: fn }, icon(name));
    this.playBtn = btn('play', t('replay.play'), () => this.toggle());
    this.slider = el('input', { type: 'range', min: 0, max: this.frames.length - 1, value: 0, class: 'slider',
      'aria-label': t('replay.slider'), oninput: (e) => { this.pause(); this.seek(+e.target.value); } });
    this.stepText = el('span', { class: 'stepno' });
    this.speedSel = el('select', { class: 'speed', title: t('replay.speed'), onchange: (e) => { this.speed = +e.target.value; e.target.blur(); } },
      SPEEDS.map((s) => el('option', { value: s, selected: s === this.speed, text: `${s}×` })));
    return el('div', { class: 'controls' },
      btn('start', t('replay.start'), () => { this.pause(); this.seek(0); }),
      btn('back', t('replay.back'), () => { this.pause(); this.seek(this.i - 1); }),
      this.playBtn,
      btn('forward', t('replay.forward'), () => { this.pause(); this.seek(this.i + 1); }),
      btn('end', t('replay.end'), () => { this.pause(); this.seek(this.frames.length - 1); }),
      this.slider, this.stepText,
      el('label', { class: 'speedlabel' }, t('replay.speed'), ' ', this.speedSel),
      el('span', { class: 'keys', text: t('replay.keys') }));
  }

  // key handles the keyboard; it returns true when it used the key.
  key(e) {
    const tag = e.target.tagName;
    if (tag === 'BUTTON' && (e.key === ' ' || e.key === 'Enter')) return false;
    if (tag === 'INPUT' && e.target.type === 'range' && e.key.startsWith('Arrow')) return false;
    if (tag === 'SELECT' || (tag === 'INPUT' && e.target.type !== 'range')) return false;
    switch (e.key) {
      case ' ': this.toggle(); return true;
      case 'ArrowRight': this.pause(); this.seek(this.i + 1); return true;
      case 'ArrowLeft': this.pause(); this.seek(this.i - 1); return true;
      case 'Home': this.pause(); this.seek(0); return true;
      case 'End': this.pause(); this.seek(this.frames.length - 1); return true;
      case '+': case '=': case 'ArrowUp': this.setSpeed(1); return true;
      case '-': case 'ArrowDown': this.setSpeed(-1); return true;
    }
    return false;
  }

  setSpeed(dir) {
    const k = Math.max(0, Math.min(SPEEDS.length - 1, SPEEDS.indexOf(this.speed) + dir));
    this.speed = SPEEDS[k];
    if (this.speedSel) this.speedSel.value = String(this.speed);
  }

  seek(i) {
    i = Math.max(0, Math.min(this.frames.length - 1, i));
    const forward = i === this.i + 1;
    this.i = i;
    this.view = this.viewAt(i);
    this.board.draw({ ...this.frames[i], view: this.view }, forward);
    this.show();
  }

  // viewAt is frame i's View: its own, else the last View before it folded
  // with the moves since, going on from the last one folded when it can
  // (stepping backwards folds again from the start).
  viewAt(i) {
    if (this.frames[i].view) return this.frames[i].view;
    let { at, view } = this.folded?.at <= i ? this.folded : {};
    if (view === undefined) {
      at = i;
      while (!this.frames[at].view) at--;
      // The frame keeps its own View: folding changes a copy.
      view = structuredClone(this.frames[at].view);
    }
    for (let j = at + 1; j <= i; j++) view = this.game.fold(view, this.frames[j]);
    this.folded = { at: i, view };
    return view;
  }

  show() {
    const i = this.i, f = this.frames[i];
    const last = i === this.frames.length - 1;
    const faults = this.faults[i];
    this.cards.forEach((c, seat) => {
      c.score.textContent = f.scores?.[seat] ?? '';
      c.score.style.setProperty('--len', c.score.textContent.length);
      c.classList.toggle('tomove', !!f.to_move?.includes(seat));
      c.faults.textContent = faults[seat] ? tn('game.faults', faults[seat]) : '';
    });
    const d = words(this.game, this.frames, i, this.names, this.view);
    const bad = d.fault, reason = bad ? reasonBeside(bad) : '';
    fill(this.said, el('span', { class: 'text', text: d.text }), bad ? verdict(bad.verdict) : null,
      reason ? el('span', { class: 'reason', text: reason }) : null);
    fill(this.why, ...(bad ? [
      el('div', { class: 'whyhead' }, verdict(bad.verdict), ' ', this.names[bad.seat]),
      reason ? el('p', { text: reason }) : null,
      bad.detail ? el('pre', { class: 'detail', text: say(bad.detail) }) : null] : []));
    this.why.hidden = !bad;
    this.said.className = bad ? 'said fault' : 'said';
    if (last && this.rp.outcome) {
      this.result.textContent = this.result.title = resultText(this.rp.outcome, this.names);
      this.result.style.setProperty('--len', this.result.textContent.length);
      this.result.dataset.rank = this.rp.outcome.rank.join(',');
      this.result.dataset.score = (this.rp.outcome.score || []).join(',');
      this.result.classList.add('shown');
    } else {
      // The line keeps its room so that the board does not move.
      this.result.classList.remove('shown');
      this.result.textContent = '\u00a0';
      this.result.removeAttribute('title');
      delete this.result.dataset.rank;
      delete this.result.dataset.score;
    }
    this.root.dataset.frame = i;
    if (this.slider) {
      this.slider.value = i;
      this.stepText.textContent = t('replay.step', { i, n: this.frames.length - 1 });
      // A screen reader says the step as the page writes it, not a bare number.
      this.slider.setAttribute('aria-valuetext', this.stepText.textContent);
    }
    this.current?.classList.remove('current');
    this.current = this.lines[i];
    this.current?.classList.add('current');
    this.chart.at(i);
    this.reveal();
  }

  // reveal scrolls the move list to the current line. A page that builds
  // the player before showing it calls it again once shown, when the lines
  // have their places.
  reveal() {
    const li = this.current;
    if (!li) {
      this.list.scrollTop = 0;
      return;
    }
    const top = li.offsetTop - this.list.offsetTop;
    if (top < this.list.scrollTop || top + li.offsetHeight > this.list.scrollTop + this.list.clientHeight) {
      this.list.scrollTop = top - this.list.clientHeight / 2;
    }
  }

  toggle() { this.timer ? this.pause() : this.play(); }

  play() {
    if (this.timer) return;
    if (this.i >= this.frames.length - 1) this.seek(0);
    this.root.classList.add('playing');
    if (this.playBtn) fill(this.playBtn, icon('pause'));
    this.playBtn?.setAttribute('aria-label', t('replay.pause'));
    const tick = () => {
      if (this.i >= this.frames.length - 1) {
        this.pause();
        this.opts.onEnd?.();
        return;
      }
      const ms = this.delay / this.speed;
      const step = Math.max(1, Math.round(TICK / ms));
      this.seek(this.i + step);
      this.timer = setTimeout(tick, ms * step);
    };
    this.timer = setTimeout(tick, this.delay / this.speed);
  }

  pause() {
    clearTimeout(this.timer);
    this.timer = null;
    this.root.classList.remove('playing');
    if (this.playBtn) fill(this.playBtn, icon('play'));
    this.playBtn?.setAttribute('aria-label', t('replay.play'));
  }

  destroy() { this.pause(); }
}
