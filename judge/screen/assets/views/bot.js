// A bot's page: its standing, its check, and its games with their faults
// and logs, for the bot's author.

import { el, reasonBeside, t, getJSON, points, say, timeText, timeTitle, verdictText } from '../util.js';

export async function viewBot([tid, bid]) {
  const b = await getJSON(`/api/t/${tid}/bot/${bid}/info.json`);
  const s = b.standing;
  const check = !b.check.at ? t('bot.check.none') : b.check.ok ? t('bot.check.ok') : t('bot.check.failed', { verdict: verdictText(b.check.verdict) });
  const facts = s ? [
    [t('col.rank'), s.rank], [t('col.points'), points(s.points)],
    [`${t('col.w')} / ${t('col.d')} / ${t('col.l')}`, `${s.wins} / ${s.draws} / ${s.losses}`],
    [t('col.beaten'), s.beaten], [t('col.faults'), `${s.timeouts} ${t('col.timeouts')} · ${s.crashes} ${t('col.crashes')} · ${s.illegal} ${t('col.illegal')}`],
    [t('col.rating'), `${Math.round(s.rating)} (${Math.round(s.rating_low)}–${Math.round(s.rating_high)})`],
  ] : [];
  const onlyFaults = el('input', { type: 'checkbox', onchange: (e) => list.classList.toggle('onlyfaults', e.target.checked) });
  // The first game with a fault shows its log open: that is where an
  // author starts reading.
  const first = b.games.find((g) => g.faults.length);
  const list = el('div', { class: 'botgames' }, b.games.map((g) => botGame(tid, bid, g, g === first)));
  const node = el('section', { class: 'page bot-view' },
    el('h1', {}, b.bot.name, el('span', { class: 'sha', text: b.bot.sha256.slice(0, 12) })),
    el('dl', { class: 'facts' }, facts.map(([k, v]) => [el('dt', { text: k }), el('dd', { text: v })]),
      el('dt', { text: t('bot.check') }), el('dd', { class: b.check.at && !b.check.ok ? 'bad' : '', text: check })),
    b.check.at && !b.check.ok ? el('pre', { class: 'log', text: [reasonBeside({ verdict: b.check.verdict, reason: b.check.detail }), b.check.log].filter(Boolean).join('\n\n') }) : null,
    el('h2', {}, t('bot.games'), ' ', el('label', { class: 'filter' }, onlyFaults, ' ', t('bot.onlyfaults'))),
    list);
  return { node, tid, nav: 'standings', title: b.bot.name };
}

function botGame(tid, bid, g, open) {
  const several = g.opponents.length > 1;
  const faults = g.faults.length
    ? el('ul', { class: 'faults' }, g.faults.map((f) => faultLine(g, f)))
    : el('p', { class: 'dim', text: t('bot.nofault') });
  const log = el('details', { class: 'logbox', open: open || null },
    el('summary', { text: t('bot.log') }),
    el('pre', { class: 'log', text: g.log || t('bot.nolog') }));
  return el('article', { class: `botgame ${g.result}${g.faults.length ? ' hasfaults' : ''}`, dataset: { game: g.id } },
    el('div', { class: 'bghead' },
      el('a', { class: 'gno', href: `/game/${g.id}`, text: `#${g.id}` }),
      el('span', { class: `res ${g.result}`, text: t('result.' + g.result) }),
      // Against several, each opponent's score follows its name, and the
      // bot's own stands alone: a row of numbers would say nothing of whose.
      el('span', {}, `${t('game.vs')} `, g.opponents.map((p, i) => [i ? ', ' : '', el('a', { href: `/t/${tid}/pair/${bid}/${p.bot_id}`, text: p.name }),
        several ? [' ', el('b', { class: 'pscore', text: p.score })] : null])),
      el('span', { class: 'dim', text: `${t('bot.seat', { seat: g.seat })}${g.seat === 0 ? ' · ' + t('game.first') : ''}` }),
      el('span', { class: 'gscore', text: several ? t('bot.score', { score: g.score }) : [g.score, ...g.opponents.map((p) => p.score)].join(' – ') }),
      el('span', { class: 'dim', text: say(g.reason) }),
      el('span', { class: 'dim thinking', text: t('bot.thinking', { total: timeText(g.thinking.total), slowest: timeText(g.thinking.slowest) }) }),
      el('a', { class: 'go', href: `/game/${g.id}`, text: '▶ ' + t('game.replay') })),
    faults, log);
}

// faultLine is a fault of the bot in game g, linking to its step.
function faultLine(g, f) {
  const why = reasonBeside(f);
  return el('li', { dataset: { n: f.n } },
    // The step is the replay's row, which the link opens.
    el('a', { href: `/game/${g.id}?move=${f.step}`, text: t('bot.fault', { n: f.step, own: f.own, verdict: verdictText(f.verdict) }) }),
    f.count > 1 ? el('b', { class: 'times', text: ' ' + t('bot.times', { n: f.count }) }) : null,
    // A bot that never answered (not ready, not started) took no time:
    // "0 ms" would read as an instant answer.
    f.elapsed_ms > 0 ? el('span', { class: 'ms', title: timeTitle(f), text: ' · ' + timeText(f) }) : null,
    why ? el('span', { class: 'reason', text: ' — ' + why }) : null,
    f.detail ? el('pre', { class: 'detail', text: say(f.detail) }) : null);
}
