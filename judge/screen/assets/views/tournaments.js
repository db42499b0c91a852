// The list of tournaments, the page of a database with several.

import { el, t, getJSON, lang } from '../util.js';
import { follow } from '../events.js';
import { page, navigate, reroute } from '../page.js';

export async function viewTournaments() {
  const list = await getJSON('/api/tournaments.json');
  if (list.length === 1) {
    return { node: el('div'), start: () => navigate(`/t/${list[0].id}`, true) };
  }
  const node = el('section', { class: 'tournaments' });
  if (!list.length) {
    node.append(el('p', { class: 'message', text: t('empty.tournaments') }));
  }
  // A tournament recorded while the page is open shows up by itself.
  const known = new Set(list.map((x) => x.id));
  const stop = follow('/api/events', (l) => { if (l.some((x) => !known.has(x.id)) && page.current?.node === node) reroute(); });
  for (const x of list) {
    node.append(el('a', { class: 'tcard', href: `/t/${x.id}` },
      el('h2', { text: `${x.game} #${x.id}` }),
      el('p', { text: [t('tournament.bots', { n: x.bots }), x.format ? t(`format.${x.format}`) : '', t('progress.games', { done: x.progress.done, planned: x.progress.planned }),
        x.progress.finished ? t('progress.finished') : '', t('tournament.seed', { seed: x.seed })].filter(Boolean).join(' · ') }),
      el('p', { class: 'dim', text: t('tournament.created', { date: new Date(x.created).toLocaleString(lang) }) })));
  }
  return { node, nav: 'tournaments', title: t('nav.tournaments'), cleanup: stop };
}
