// The screen's single page. Its modules: router.js (which view a URL shows,
// the events that keep it live), header.js (the tournament's views and
// progress), views/*.js (one view each: standings, crosstable, pairings,
// replays, live games, schedule, big board, bot pages, presentation),
// live-cards.js and rows.js (what several views draw), replay.js and
// boards/*.js (a game's board), page.js (what the modules share).

import { t, loadStrings } from './util.js';
import { start } from './router.js';

try {
  const saved = localStorage.getItem('theme');
  if (saved === 'light' || saved === 'dark') document.documentElement.dataset.theme = saved;
} catch { /* no storage: the dark theme */ }
await loadStrings();
document.title = t('app');
start();
