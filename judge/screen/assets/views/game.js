// A game's replay.

import { breakable, el, t, getJSON } from '../util.js';
import { Player, loadBoard } from '../replay.js';
import { vs } from '../rows.js';

export async function viewGame([id], q) {
  const rp = await getJSON(`/api/game/${id}/replay.json`);
  const game = await loadBoard(rp.kind);
  const g = rp.game;
  let start = +(q.get('frame') || 0);
  // ?move=k opens step k: the move list's row k, "Step k", a bot page's
  // "move k" (a turn, which the seats of simultaneous moves share); past
  // the last, the end.
  if (q.has('move')) start = Math.max(0, +q.get('move') || 0);
  // A hand-in's sparring game belongs to no tournament on the screen: its
  // bots and pairing have no pages, and its student goes back to the hand-in.
  const tid = rp.private ? null : g.tournament_id;
  const name = (p) => (tid ? el('a', { href: `/t/${tid}/bot/${p.bot_id}` }, breakable(p.name)) : el('span', {}, breakable(p.name)));
  const title = el('div', { class: 'gametitle' },
    el('h1', {}, t('game.title', { id: g.id }), ' · ', vs(g.players.map(name))),
    el('span', { class: 'dim', text: `${t('game.round', { round: g.round })} · ${rp.kind}` }),
    tid && g.players.length === 2 ? el('a', { class: 'dim', href: `/t/${tid}/pair/${g.players[0].bot_id}/${g.players[1].bot_id}`, text: t('pair.title', { a: g.players[0].name, b: g.players[1].name }) }) : null,
    tid ? null : el('a', { class: 'dim handin', href: '/hand-in/', text: t('game.handin') }),
    el('a', { class: 'dim record', href: `/api/game/${g.id}/record.json`, download: `game-${g.id}.json`, text: t('game.record') }));
  const node = el('section', { class: 'page game-view' }, title);
  const player = new Player(node, rp, game, { start, ...replayOptions(q, () => player) });
  const onKey = (e) => { if (!e.ctrlKey && !e.metaKey && !e.altKey && player.key(e)) e.preventDefault(); };
  document.addEventListener('keydown', onKey);
  // The logo of a sparring game leads back to the hand-in, not to the
  // tournaments, where it is not.
  return { node, tid, home: tid ? '/' : '/hand-in/', nav: 'crosstable', title: `${t('game.title', { id: g.id })} · ${g.players.map((p) => p.name).join(` ${t('game.vs')} `)}`, fit: () => player.reveal(), cleanup: () => { document.removeEventListener('keydown', onKey); player.destroy(); } };
}

// replayOptions reads a replay's URL options, for a replay shown on a
// screen or embedded: autoplay (or play), speed=k, loop, theme=dark|light
// (the <html> data-theme the stylesheet follows), controls=0.
function replayOptions(q, player) {
  const speed = +q.get('speed');
  const theme = q.get('theme');
  if (theme === 'dark' || theme === 'light') document.documentElement.dataset.theme = theme;
  return {
    autoplay: q.has('autoplay') || q.has('play'),
    speed: speed > 0 ? speed : undefined,
    controls: q.get('controls') !== '0',
    // play() starts over from the end; the pause lets the result be read.
    onEnd: q.has('loop') ? () => setTimeout(() => player().root.isConnected && player().play(), 2000) : undefined,
  };
}
