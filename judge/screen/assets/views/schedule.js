// The schedule: the games in progress, the number to come, and those
// played.

import { el, fill, t, tn, getJSON } from '../util.js';
import { many } from '../replay.js';
import { gameRow, playersAndScores } from '../rows.js';
import { stepOf } from '../live-cards.js';

// roundOf is the round of a game in progress, from its key ("r2/…").
const roundOf = (l) => Number(/^r(\d+)\//.exec(l.key)?.[1] || 0);

// liveRow is a game in progress in a list, in the columns of gameRow; it
// opens the big board on that game.
function liveRow(tid, l) {
  const names = l.players.map((p) => p.name);
  return el('a', { class: ['game-row', 'playing', many(names.length) && 'many'].filter(Boolean).join(' '), href: `/t/${tid}/tv?key=${encodeURIComponent(l.key)}`, dataset: { key: l.key } },
    el('span', { class: 'gno', text: '●' }),
    el('span', { class: 'gmeta', text: t('live.step', { n: stepOf(l) }) }),
    playersAndScores(names, l.scores || []),
    el('span', { class: 'gres' }), el('span', { class: 'gfaults' }),
    el('span', { class: 'go', text: '▶ ' + t('nav.tv') }));
}

// roundsText says where the rounds stand: r.played of r.rounds are played
// (all their games stored), last is the last one begun, and running says
// whether a run plays them now. No count is said of rounds played before
// any is: "Round 1 of 1 · being played.", not "· 0 rounds played.".
function roundsText(r, last, running) {
  if (!r.rounds) return '';
  if (r.played >= r.rounds) return tn('schedule.rounds.done', r.rounds);
  const n = { round: r.played + 1, last: Math.min(last, r.rounds), rounds: r.rounds };
  return [t(n.last > n.round ? 'schedule.round.many' : 'schedule.round', n), running && t('schedule.round.playing'),
    r.played > 0 && tn('schedule.rounds.played', r.played)].filter(Boolean).join(' · ') + '.';
}

// viewSchedule lists the games in progress, the count of those to come (a
// game is recorded when it starts, so the rest of the plan is only a
// number), and the games played, newest first, each opening its replay.
export async function viewSchedule([tid]) {
  const snap = await getJSON(`/api/t/${tid}/live.json`);
  const playing = el('div', { class: 'games playing' });
  const tocome = el('p', { class: 'tocome' });
  const rounds = el('p', { class: 'rounds' });
  const done = el('div', { class: 'games done' });
  const nPlaying = el('span', { class: 'count' });
  const nDone = el('span', { class: 'count' });
  const node = el('section', { class: 'page schedule-view' },
    el('h2', {}, t('schedule.playing'), ' ', nPlaying), playing,
    el('h2', {}, t('schedule.tocome')), rounds, tocome, el('p', { class: 'dim', text: t('schedule.tocome.note') }),
    el('h2', {}, t('schedule.done'), ' ', nDone), done);
  // The rounds line follows both the games stored and the live state:
  // what is played, what is begun, whether a run still plays.
  let state = snap;
  const r = { rounds: 0, played: 0, begun: 0 }; // begun: the last round with a game stored
  const sayRounds = () => {
    // The last round begun: a round robin plays several at once.
    const last = Math.max(r.played + 1, r.begun, ...state.live.map(roundOf));
    rounds.dataset.played = r.played;
    rounds.dataset.rounds = r.rounds;
    rounds.textContent = roundsText(r, last, state.progress.running);
  };
  const update = (s) => {
    const live = s.live;
    state = s;
    nPlaying.textContent = `(${live.length})`;
    fill(playing, live.length ? live.map((l) => liveRow(tid, l)) : el('p', { class: 'message', text: t('schedule.noplaying') }));
    const left = Math.max(0, s.progress.planned - s.progress.done - live.length);
    tocome.dataset.n = left;
    tocome.textContent = left ? tn('schedule.tocome.n', left) : t('schedule.tocome.none');
    sayRounds();
  };
  const loadDone = async () => {
    const [gs, info] = await Promise.all([getJSON(`/api/t/${tid}/games.json`), getJSON(`/api/t/${tid}/info.json`)]);
    nDone.textContent = `(${gs.length})`;
    // Rounds planned and played: a round is played when all its games
    // are (a swiss round is planned from the ones before it).
    const per = info.rounds ? info.planned / info.rounds : 0, count = {};
    for (const g of gs) count[g.round] = (count[g.round] || 0) + 1;
    r.rounds = info.rounds;
    r.played = 0;
    for (let k = 1; k <= info.rounds && per && count[k] >= per; k++) r.played = k;
    r.begun = Math.max(0, ...gs.map((g) => g.round));
    sayRounds();
    fill(done, gs.length ? gs.slice().reverse().map((g) => gameRow(g)) : el('p', { class: 'message', text: t('empty.games') }));
  };
  update(snap);
  await loadDone();
  return { node, tid, nav: 'schedule', onState: (s, changed) => { update(s); if (changed) loadDone(); } };
}
