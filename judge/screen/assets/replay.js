// The boards of each game and the replay player. Boards draw the rules' own
// View (sent by the server, frame by frame) and the events of the moves that
// led to it; they never apply rules themselves.

import { el, fill, t, tn, verdictText } from './util.js';

const parse = (raw) => (typeof raw === 'string' ? JSON.parse(raw) : raw);

// ---------------------------------------------------------------- virus

const SIDE_CLASS = { player_1: 's1', player_2: 's2' };

// VirusBoard is the 10×10 grid. Cells hold data-v (0 empty, 1 player_1,
// 2 player_2) for whoever reads the page, tests included.
class VirusBoard {
  constructor(parent, { mini = false } = {}) {
    this.size = 10;
    this.root = el('div', { class: mini ? 'vboard mini' : 'vboard' });
    this.cells = [];
    if (!mini) this.root.append(el('span', { class: 'coord corner' }));
    if (!mini) for (let c = 0; c < this.size; c++) this.root.append(el('span', { class: 'coord col', text: c }));
    for (let r = 0; r < this.size; r++) {
      if (!mini) this.root.append(el('span', { class: 'coord row', text: r }));
      for (let c = 0; c < this.size; c++) {
        const cell = el('div', { class: 'cell', dataset: { r, c, v: 0 } }, el('i'));
        this.cells.push(cell);
        this.root.append(cell);
      }
    }
    parent.append(this.root);
  }

  draw(view, moves = [], animate = false) {
    view = parse(view);
    for (let r = 0; r < this.size; r++) {
      for (let c = 0; c < this.size; c++) {
        const cell = this.cells[r * this.size + c];
        const v = view.grid[r][c];
        cell.dataset.v = v;
        cell.className = 'cell' + (v ? ' ' + SIDE_CLASS[v === 1 ? 'player_1' : 'player_2'] : '');
      }
    }
    for (const m of moves) {
      const ev = m.event ? parse(m.event) : null;
      if (!ev || !ev.cell) continue;
      const placed = this.cells[ev.cell[0] * this.size + ev.cell[1]];
      placed.classList.add('placed');
      for (const [r, c] of ev.flipped || []) this.cells[r * this.size + c].classList.add('flipped');
      if (animate) {
        void this.root.offsetWidth; // restarts the CSS animations
        placed.classList.add('anim');
        for (const [r, c] of ev.flipped || []) this.cells[r * this.size + c].classList.add('anim');
      }
    }
  }
}

// virusSeatClass is the class of the side a seat plays, read from a View.
function virusSeatClass(view, seat) {
  return SIDE_CLASS[parse(view).sides[seat]];
}

// ---------------------------------------------------------------- battleships

// ShipsBoard is both 8×8 grids: seat i's grid shows seat i's fleet and the
// shots the other seat fired at it. Cells hold data-state: sea, ship, miss,
// hit or sunk.
class ShipsBoard {
  constructor(parent, names, { mini = false } = {}) {
    this.size = 8;
    this.root = el('div', { class: mini ? 'sboards mini' : 'sboards' });
    this.grids = [];
    this.titles = [];
    for (let seat = 0; seat < 2; seat++) {
      const grid = el('div', { class: 'sgrid' });
      const cells = [];
      if (!mini) {
        grid.append(el('span', { class: 'coord corner' }));
        for (let c = 0; c < this.size; c++) grid.append(el('span', { class: 'coord col', text: c }));
      }
      for (let r = 0; r < this.size; r++) {
        if (!mini) grid.append(el('span', { class: 'coord row', text: r }));
        for (let c = 0; c < this.size; c++) {
          const cell = el('div', { class: 'cell', dataset: { c, r, state: 'sea' } }, el('i'));
          cells[c * this.size + r] = cell;
          grid.append(cell);
        }
      }
      const title = el('div', { class: `stitle seat${seat}` });
      this.titles.push(title);
      this.root.append(el('div', { class: `sside seat${seat}` }, title, grid));
      this.grids.push(cells);
    }
    this.setNames(names);
    parent.append(this.root);
  }

  setNames(names) {
    for (let seat = 0; seat < 2; seat++) {
      fill(this.titles[seat],
        el('b', { text: t('ships.grid', { name: names[seat] }) }),
        el('span', { text: ' · ' + t('ships.shotsby', { name: names[1 - seat] }) }));
    }
  }

  draw(view, moves = [], animate = false) {
    view = parse(view);
    for (let seat = 0; seat < 2; seat++) {
      const cells = this.grids[seat];
      const state = new Map();
      const shot = new Map();
      for (const s of view.shots[seat] || []) shot.set(`${s.c}${s.r}`, s.result);
      for (const [c, r, size, o] of view.ships[seat] || []) {
        const own = [];
        for (let i = 0; i < size; i++) own.push(o === 'v' ? `${c}${r + i}` : `${c + i}${r}`);
        const sunk = own.every((k) => shot.has(k));
        own.forEach((k, i) => {
          state.set(k, sunk ? 'sunk' : shot.has(k) ? 'hit' : 'ship');
          // Ends of a ship are rounded so that ships read as ships.
          const part = i === 0 ? 'start' : i === size - 1 ? 'end' : 'mid';
          state.set(k + 'part', `${o} ${part}`);
        });
      }
      for (const k of shot.keys()) if (!state.has(k)) state.set(k, 'miss');
      for (let c = 0; c < this.size; c++) {
        for (let r = 0; r < this.size; r++) {
          const k = `${c}${r}`;
          const cell = cells[c * this.size + r];
          cell.dataset.state = state.get(k) || 'sea';
          cell.className = 'cell ' + (state.get(k + 'part') || '');
        }
      }
    }
    for (const m of moves) {
      const ev = m.event ? parse(m.event) : null;
      if (!ev || !ev.shot) continue;
      const c = +ev.shot[0], r = +ev.shot[1];
      const cell = this.grids[1 - m.seat][c * this.size + r];
      cell.classList.add('last');
      if (animate) { void this.root.offsetWidth; cell.classList.add('anim'); }
    }
    this.root.dataset.turn = view.turn;
  }
}

// ---------------------------------------------------------------- texts

// describe says in words what a frame's moves did: {text, fault, detail}.
export function describe(kind, frames, i, names) {
  const f = frames[i];
  if (i === 0 || !f.moves.length) return { text: t('replay.start.text') };
  if (kind === 'virus') {
    const m = f.moves[0];
    const ev = m.event ? parse(m.event) : {};
    const name = names[m.seat];
    if (ev.cell) {
      const n = ev.flipped.length;
      return { seat: m.seat, text: `${t('virus.place', { name, r: ev.cell[0], c: ev.cell[1] })} · ${n ? t('virus.flips', { n }) : t('virus.noflip')}` };
    }
    if (!m.verdict) return { seat: m.seat, text: `${t('virus.pass', { name })} · ${t('virus.passreason')}` };
    return { seat: m.seat, text: t('virus.pass', { name }), fault: m.verdict, reason: m.reason, detail: m.detail };
  }
  // battleships
  if (f.moves.length === 2) {
    const bad = f.moves.filter((m) => m.verdict);
    if (!bad.length) return { text: t('ships.fleets') };
    const m = bad[0];
    return { seat: m.seat, text: names[m.seat], fault: m.verdict, reason: m.reason, detail: m.detail };
  }
  const m = f.moves[0];
  const ev = m.event ? parse(m.event) : {};
  const name = names[m.seat];
  if (ev.shot) {
    let text = `${t('ships.shot', { name, cell: ev.shot })} · `;
    text += ev.result === 'sunk' ? t('ships.sunk', { size: ev.size }) : t('ships.' + ev.result);
    if (ev.again) {
      let streak = 1;
      for (let j = i - 1; j > 0 && frames[j].moves.length === 1 && frames[j].moves[0].seat === m.seat; j--) streak++;
      text += ` · ${t('ships.again')}`;
      if (streak > 1) text += ` (${t('ships.streak', { n: streak })})`;
    }
    return { seat: m.seat, text };
  }
  return { seat: m.seat, text: name, fault: m.verdict, reason: m.reason, detail: m.detail };
}

// shortMove is a move list's line.
function shortMove(kind, frame) {
  if (kind === 'virus') {
    const m = frame.moves[0];
    const ev = m.event ? parse(m.event) : {};
    if (ev.cell) return `[${ev.cell[0]}, ${ev.cell[1]}]${ev.flipped.length ? ' +' + ev.flipped.length : ''}`;
    return m.verdict ? verdictText(m.verdict) : 'False';
  }
  if (frame.moves.length === 2) {
    const bad = frame.moves.filter((m) => m.verdict);
    return bad.length ? verdictText(bad[0].verdict) : '⚓';
  }
  const m = frame.moves[0];
  const ev = m.event ? parse(m.event) : {};
  if (ev.shot) return `${ev.shot} ${ev.result === 'sunk' ? '✸' + ev.size : ev.result === 'hit' ? '✕' : '·'}`;
  return verdictText(m.verdict);
}

// resultText is the final line: who won, the score, why it ended.
function resultText(outcome, names) {
  if (!outcome) return '';
  const best = Math.min(...outcome.rank);
  const winners = names.filter((_, i) => outcome.rank[i] === best);
  const head = winners.length === 1 ? t('game.wins', { name: winners[0] }) : t('game.draw');
  const score = outcome.score ? ' ' + outcome.score.join(' – ') : '';
  return `${head}${score} · ${outcome.reason}`;
}

// legend explains the marks of a board to whoever sees it for the first time.
function legend(kind) {
  const item = (cls, text) => el('li', {}, el('span', { class: `mark ${cls}` }), text);
  const items = kind === 'virus'
    ? [item('m-s1', 'player_1'), item('m-s2', 'player_2'), item('m-last', t('legend.last')), item('m-flip', t('legend.flipped'))]
    : [item('m-ship', t('legend.ship')), item('m-miss', t('ships.miss')), item('m-hit', t('ships.hit')), item('m-sunk', t('legend.sunk')), item('m-last', t('legend.lastshot'))];
  return el('ul', { class: 'legend' }, items);
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

// Player shows a replay: board, the players, what happened, the moves, and
// the controls. opts: {start: frame, autoplay, delay: ms per frame at 1×,
// onEnd, controls: false for the presentation}.
export class Player {
  constructor(parent, rp, opts = {}) {
    this.rp = rp;
    this.kind = rp.kind;
    this.frames = rp.frames;
    this.names = rp.game.players.map((p) => p.name);
    this.opts = opts;
    this.i = 0;
    this.speed = opts.speed || 1;
    this.delay = opts.delay || (this.kind === 'virus' ? 700 : 600);
    this.timer = null;

    this.root = el('div', { class: `replay ${this.kind}` });
    this.cards = [0, 1].map((seat) => this.card(seat));
    const stage = el('div', { class: 'stage' });
    this.board = this.kind === 'virus' ? new VirusBoard(stage) : new ShipsBoard(stage, this.names);
    this.said = el('div', { class: 'said', 'aria-live': 'polite' });
    this.result = el('div', { class: 'result' });
    this.list = el('ol', { class: 'movelist' });
    this.frames.forEach((f, i) => {
      if (i === 0) return;
      const m = f.moves[0];
      const fault = f.moves.some((x) => x.verdict);
      const li = el('li', { class: `${f.moves.length === 1 ? this.seatClass(m.seat) : 'both'}${fault ? ' fault' : ''}`, dataset: { i },
        onclick: () => { this.pause(); this.seek(i); } },
      el('span', { class: 'no', text: i }), el('span', { class: 'who', text: f.moves.length === 1 ? this.names[m.seat] : '' }),
      el('span', { class: fault ? `what verdict v-${f.moves.find((x) => x.verdict).verdict}` : 'what', text: shortMove(this.kind, f) }));
      this.list.append(li);
    });
    // A fault's full story (reason, traceback) goes beside the board, which
    // must not move.
    this.why = el('div', { class: 'why' });
    const side = el('div', { class: 'side' }, this.cards, this.why, legend(this.kind));
    const right = el('div', { class: 'moves' }, el('h3', { text: t('replay.moves') }), this.list);
    const centre = el('div', { class: 'centre' }, stage, this.said, this.result);
    this.root.append(el('div', { class: 'replay-main' }, side, centre, right));
    if (opts.controls !== false) this.root.append(this.controls());
    if (rp.problem) this.root.prepend(el('div', { class: 'warning', text: t('replay.inconsistent', { msg: rp.problem }) }));
    parent.append(this.root);
    this.seek(Math.min(opts.start || 0, this.frames.length - 1));
    if (opts.autoplay) this.play();
  }

  // seatClass colours a seat: by its side in virus (s1 blue, s2 orange),
  // by seat in battleships (seat 0 blue, seat 1 orange).
  seatClass(seat) {
    return this.kind === 'virus' ? virusSeatClass(this.frames[0].view, seat) : `s${seat + 1}`;
  }

  card(seat) {
    const p = this.rp.game.players[seat];
    const cls = this.seatClass(seat);
    const score = el('div', { class: 'score', text: '0' });
    const unit = el('div', { class: 'unit', text: t(this.kind === 'virus' ? 'virus.pieces' : 'ships.hits') });
    const faults = el('div', { class: 'cardfaults' });
    const turn = el('div', { class: 'turn', text: t('replay.tomove') });
    const c = el('div', { class: `card ${cls}`, dataset: { seat } },
      el('div', { class: 'piece' }),
      el('div', { class: 'who' }, el('div', { class: 'name', text: p.name }),
        el('div', { class: 'sub', text: this.kind === 'virus' ? parse(this.frames[0].view).sides[seat] : t('replay.seat', { seat }) })),
      score, unit, turn, faults);
    c.score = score;
    c.turnEl = turn;
    c.faults = faults;
    return c;
  }

  controls() {
    const btn = (name, label, fn) => el('button', { type: 'button', class: `ctl ${name}`, title: label, 'aria-label': label,
      onmousedown: (e) => e.preventDefault(), onclick: fn }, icon(name));
    this.playBtn = btn('play', t('replay.play'), () => this.toggle());
    this.slider = el('input', { type: 'range', min: 0, max: this.frames.length - 1, value: 0, class: 'slider',
      'aria-label': t('replay.step', { i: '', n: '' }), oninput: (e) => { this.pause(); this.seek(+e.target.value); } });
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
    const f = this.frames[i];
    this.board.draw(f.view, f.moves, forward);
    this.show();
  }

  show() {
    const i = this.i, f = this.frames[i], view = parse(f.view);
    const last = i === this.frames.length - 1;
    // Scores: virus counts pieces (in the View), battleships hits.
    const scores = this.kind === 'virus' ? view.score
      : [0, 1].map((seat) => (view.shots[1 - seat] || []).filter((s) => s.result !== 'miss').length);
    const faults = [0, 0];
    for (let j = 1; j <= i; j++) for (const m of this.frames[j].moves) if (m.verdict) faults[m.seat]++;
    this.cards.forEach((c, seat) => {
      c.score.textContent = scores[seat];
      c.classList.toggle('tomove', view.turn === seat);
      c.faults.textContent = faults[seat] ? tn('game.faults', faults[seat]) : '';
    });
    const d = describe(this.kind, this.frames, i, this.names);
    const parts = [el('span', { class: 'text', text: d.text })];
    const reason = d.reason && d.reason !== d.fault && d.reason !== d.detail ? d.reason : '';
    if (d.fault) {
      parts.push(el('span', { class: `verdict v-${d.fault}`, text: verdictText(d.fault) }));
      if (reason) parts.push(el('span', { class: 'reason', text: reason }));
    }
    fill(this.said, parts);
    fill(this.why, ...(d.fault ? [
      el('div', { class: 'whyhead' }, el('span', { class: `verdict v-${d.fault}`, text: verdictText(d.fault) }), ' ', this.names[d.seat] ?? ''),
      reason ? el('p', { text: reason }) : null,
      d.detail ? el('pre', { class: 'detail', text: d.detail }) : null] : []));
    this.why.hidden = !d.fault;
    this.said.className = 'said' + (d.seat !== undefined ? ` seat${d.seat}` : '') + (d.fault ? ' fault' : '');
    if (last && this.rp.outcome) {
      this.result.textContent = resultText(this.rp.outcome, this.names);
      this.result.dataset.rank = this.rp.outcome.rank.join(',');
      this.result.dataset.score = (this.rp.outcome.score || []).join(',');
      this.result.classList.add('shown');
    } else {
      // The line keeps its room so that the board does not move.
      this.result.classList.remove('shown');
      this.result.textContent = '\u00a0';
      delete this.result.dataset.rank;
      delete this.result.dataset.score;
    }
    this.root.dataset.frame = i;
    if (this.slider) {
      this.slider.value = i;
      this.stepText.textContent = t('replay.step', { i, n: this.frames.length - 1 });
    }
    const cur = this.list.querySelector('.current');
    cur?.classList.remove('current');
    const li = this.list.querySelector(`li[data-i="${i}"]`);
    if (li) {
      li.classList.add('current');
      const top = li.offsetTop - this.list.offsetTop;
      if (top < this.list.scrollTop || top + li.offsetHeight > this.list.scrollTop + this.list.clientHeight) {
        this.list.scrollTop = top - this.list.clientHeight / 2;
      }
    } else {
      this.list.scrollTop = 0;
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
      this.seek(this.i + 1);
      this.timer = setTimeout(tick, this.delay / this.speed);
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

// miniBoard draws a live game's View in a small board, for the live page.
export function miniBoard(kind, parent, names) {
  return kind === 'virus' ? new VirusBoard(parent, { mini: true }) : new ShipsBoard(parent, names, { mini: true });
}

