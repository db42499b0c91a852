// The big board: one game in progress, drawn large.

import { el, fill, t, getJSON } from '../util.js';
import { labelled, loadBoard, many, seatMarks } from '../replay.js';
import { page } from '../page.js';
import { interest, liveFrame, liveLegend, saying, seatTags, stepOf } from '../live-cards.js';
import { vs } from '../rows.js';

// follow shows on tv the game it follows in the state s of the
// tournament, or, when that one has ended, the most interesting one (or
// the pinned one) of those in progress.
function follow(tv, s) {
  const live = s.live.filter((l) => l.view);
  tv.node.dataset.playing = live.length;
  let l = live.find((x) => x.key === tv.key);
  if (!l) {
    l = live.find((x) => x.key === tv.pinned) || live.slice().sort(interest(tv.rank))[0];
    tv.key = l?.key ?? null;
    tv.board = null;
    tv.stage.replaceChildren();
  }
  tv.node.dataset.key = tv.key ?? '';
  tv.none.hidden = !!l;
  if (tv.legend) tv.legend.hidden = !l;
  if (!l) {
    // A finished tournament has no next game to wait for.
    fill(tv.none, s.progress.finished ? [t('tv.over'), ' ', el('a', { href: `/t/${tv.tid}`, text: t('tv.standings') })] : t('tv.none'));
    tv.none.dataset.over = s.progress.finished;
    tv.head.replaceChildren();
    tv.said.replaceChildren();
    delete tv.node.dataset.moves;
    return;
  }
  draw(tv, l);
}

// draw shows the live game l, making its board on its first frame.
function draw(tv, l) {
  const { game, node } = tv;
  if (!tv.board) {
    tv.names = l.players.map((p) => p.name);
    tv.marks = seatMarks(game, l.view, tv.names.length, l.entries);
    tv.board = game.board(tv.stage, { names: tv.names, marks: tv.marks });
    // Many seats are listed beside the board, which keeps the height.
    node.classList.toggle('many', many(tv.names.length));
    node.classList.toggle('labelled', labelled(game, tv.names.length));
  }
  const frame = liveFrame(l);
  fill(tv.head, vs(seatTags(tv.names, tv.marks, frame.scores, game, l.view)),
    el('span', { class: 'dim tvmoves', text: t('live.step', { n: stepOf(l) }) }));
  tv.board.draw(frame, false);
  fill(tv.said, saying(game, frame, tv.names, l.view));
  node.dataset.moves = l.moves;
}

export async function viewTv([tid], q) {
  const [snap, info] = await Promise.all([getJSON(`/api/t/${tid}/live.json`), getJSON(`/api/t/${tid}/info.json`)]);
  const game = await loadBoard(info.game);
  const tv = {
    tid, game, rank: new Map(), pinned: q.get('key'), key: null, board: null,
    head: el('div', { class: 'tvhead' }), stage: el('div', { class: 'stage' }), said: el('div', { class: 'said' }),
    none: el('p', { class: 'message', text: t('tv.none') }), legend: liveLegend(game),
  };
  tv.node = el('section', { class: 'page tv-view' }, tv.head, tv.none, tv.stage, tv.said, tv.legend, el('footer', { class: 'note', text: t('tv.rule') }));
  const loadRanks = async () => {
    const st = await getJSON(`/api/t/${tid}/standings.json`);
    tv.rank = new Map(st.map((s) => [s.bot.id, s.rank]));
  };
  await loadRanks();
  follow(tv, snap);
  return {
    node: tv.node, tid, nav: 'tv',
    onState: async (s, changed) => {
      // Ranks a moment old pick as well as fresh ones.
      if (changed) await loadRanks().catch(() => {});
      follow(tv, page.lastState || s);
    },
  };
}
