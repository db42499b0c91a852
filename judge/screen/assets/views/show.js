// The presentation: the stages of a tournament shown in turn on a
// projector (podium, standings, crosstable, live games, the decisive game).

import { el, fill, t, getJSON, points, nameLength, sleep } from '../util.js';
import { Player, loadBoard } from '../replay.js';
import { page } from '../page.js';
import { fitRows } from '../fit.js';
import { LiveCards, fitCards, interest, liveLegend } from '../live-cards.js';
import { standingsTable } from './standings.js';
import { crossLegend, crossTable, swissCross, fitCross } from './crosstable.js';

// podium shows the first three bots on steps by rank, not by place: bots
// that share a rank share its step (two first places, two gold blocks).
function podium(st) {
  const places = st.slice(0, 3).map((s) => ({ s, step: Math.min(3, s.rank) }));
  // Silver on the left, gold in the middle, bronze on the right.
  const side = { 1: 1, 2: 0, 3: 2 };
  places.sort((a, b) => side[a.step] - side[b.step]);
  return el('div', { class: 'podium', style: `--places: ${places.length}` }, places.map(({ s, step }) =>
    el('div', { class: `place p${step}`, dataset: { bot: s.bot.id, rank: s.rank } },
      el('div', { class: 'pname', style: `--len: ${nameLength(s.bot.name)}`, text: s.bot.name }),
      el('div', { class: 'ppts', text: t('show.points', { n: points(s.points) }) }),
      el('div', { class: 'block' }, el('span', { text: s.rank })))));
}

// decisiveGame is the game that one of the first two bots won over the
// other by the smallest margin of score, else any game of the leader.
async function decisiveGame(tid, st) {
  if (st.length < 2) return null;
  const [a, b] = [st[0].bot.id, st[1].bot.id];
  let gs = await getJSON(`/api/t/${tid}/games.json?bot=${a}&opponent=${b}`);
  if (!gs.length) gs = await getJSON(`/api/t/${tid}/games.json?bot=${a}`);
  if (!gs.length) return null;
  const margin = (g) => {
    const pa = g.players.find((p) => p.bot_id === a);
    // Without the second bot, the leader's best-placed opponent.
    const pb = g.players.find((p) => p.bot_id === b) || g.players.filter((p) => p !== pa).sort((x, y) => x.rank - y.rank)[0];
    return (pa.rank === pb.rank ? 1000 : 0) + Math.abs(pa.score - pb.score);
  };
  return gs.slice().sort((x, y) => margin(x) - margin(y))[0];
}

// stages are the presentation's stages, each showing its content with
// show.put and waiting on the stage as long as it lasts (or until
// show.stop aborts).
function stages(show) {
  const { tid, dwell, stop, put } = show;
  return {
    podium: async (st) => { put('podium', t('show.podium'), podium(st)); await sleep(dwell, stop.signal); },
    standings: async (st) => {
      const box = el('div', { class: 'fit' }, standingsTable(tid, st, show.swiss));
      put('standings', t('show.standings'), box, () => fitRows(box, st.length + 1, { max: 80 }));
      await sleep(dwell, stop.signal);
    },
    crosstable: async () => {
      const ct = await getJSON(`/api/t/${tid}/crosstable.json`);
      const box = el('div', { class: 'fit' }, ct.rounds ? swissCross(tid, ct) : crossTable(tid, ct));
      // Its cells' colours and marks are as new to the room as the page's:
      // the same legend (no ring: the presentation does not mark the
      // pairings being played).
      const legend = el('footer', { class: 'note' }, crossLegend(!!ct.rounds, false));
      put('crosstable', t('show.crosstable'), [box, legend], () => fitCross(box, ct.rounds ? ct.rounds[0]?.length || 0 : ct.bots.length));
      await sleep(dwell, stop.signal);
    },
    live: (st) => liveStage(show, st),
    decisive: (st) => decisiveStage(show, st),
  };
}

async function liveStage({ tid, dwell, stop, put }, st) {
  // The events may not have come yet on the first round.
  if (!page.lastState?.live?.length) return;
  const game = await loadBoard(page.kinds[tid]);
  const cards = new LiveCards(game);
  const box = el('div', { class: 'live-view' }, liveLegend(game), cards.node);
  // The most interesting games first, as many as the screen holds.
  const order = interest(new Map(st.map((s) => [s.bot.id, s.rank])));
  const show = () => { cards.update(page.lastState.live.slice().sort(order)); fitCards(box); };
  put('live', t('show.live'), box, () => fitCards(box));
  show();
  const follow = setInterval(show, 250);
  await sleep(dwell, stop.signal);
  clearInterval(follow);
}

async function decisiveStage(show, st) {
  const { tid, dwell, stop, put } = show;
  const g = await decisiveGame(tid, st);
  if (!g) return;
  const rp = await getJSON(`/api/game/${g.id}/replay.json`);
  const game = await loadBoard(rp.kind);
  const box = el('div', { class: 'game-view' });
  put('decisive', t('show.decisive', { players: g.players.map((p) => p.name).join(` ${t('game.vs')} `) }), box);
  show.node.dataset.game = g.id;
  // A long game is shown faster, skipping frames if it must.
  const delay = Math.min(700, show.replayMs / Math.max(1, rp.frames.length));
  await new Promise((resolve) => {
    show.player = new Player(box, rp, game, { controls: false, autoplay: true, delay, onEnd: resolve });
    stop.signal.addEventListener('abort', resolve);
  });
  await sleep(dwell / 2, stop.signal);
  show.player.destroy();
  show.player = null;
}

// present shows the stages in turn until show.stop aborts; the list of
// stages is read again each round, with the standings.
async function present(show, q) {
  const { tid, stop } = show;
  const all = stages(show);
  while (!stop.signal.aborted) {
    try {
      const [info, st] = await Promise.all([getJSON(`/api/t/${tid}/info.json`), getJSON(`/api/t/${tid}/standings.json`)]);
      const order = [];
      if (info.progress.finished && st.length) order.push('podium');
      order.push('standings', 'crosstable', 'live', 'decisive');
      // ?only=standings,crosstable keeps these stages (a screen that
      // shows one thing).
      const only = q.get('only')?.split(',');
      if (only) order.splice(0, order.length, ...order.filter((s) => only.includes(s)));
      for (const name of order) {
        if (stop.signal.aborted) return;
        await all[name](st);
      }
    } catch (err) {
      if (stop.signal.aborted) return;
      show.put('error', '', el('p', { class: 'message error', text: t('error', { msg: err.message }) }));
      await sleep(show.dwell, stop.signal);
    }
  }
}

// fullscreen is the presentation's F key.
function fullscreen(e) {
  if (e.key !== 'f' && e.key !== 'F') return;
  if (document.fullscreenElement) document.exitFullscreen();
  else document.documentElement.requestFullscreen?.().catch(() => {});
}

export async function viewShow([tid], q) {
  // A tournament not recorded yet is waited for, as the other pages do.
  const swiss = (await getJSON(`/api/t/${tid}/info.json`)).format === 'swiss';
  const caption = el('div', { class: 'caption' });
  const stage = el('div', { class: 'stage-box' });
  const hint = el('div', { class: 'hint', text: t('show.fullscreen') });
  const node = el('section', { class: 'show-view' }, caption, stage, hint);
  let fit = null;
  const show = {
    tid, swiss, node, player: null,
    dwell: (+q.get('dwell') || 15) * 1000,
    replayMs: (+q.get('replay') || 40) * 1000,
    stop: new AbortController(),
    put: (name, title, content, fitter) => {
      node.dataset.stage = name;
      caption.textContent = title;
      fill(stage, content);
      fit = fitter;
      fit?.();
    },
  };
  document.addEventListener('keydown', fullscreen);
  return {
    node, tid, bodyClass: 'show',
    start: () => present(show, q),
    fit: () => fit?.(),
    cleanup: () => { show.stop.abort(); show.player?.destroy(); document.removeEventListener('keydown', fullscreen); },
  };
}
