// Sizing a table to its box: the projector shows every row without
// scrolling.

// rem is the size in pixels of one design pixel (a tenth of style.css's
// root size, which follows the screen's size).
export const rem = () => parseFloat(getComputedStyle(document.documentElement).fontSize) / 10;

// fitRows sizes a table's rows so that all of them fit the box: the
// projector must show 30 bots without scrolling, and a few bots in large
// type without cutting the last column. min and max are in design pixels;
// --rows lets the stylesheet scale type with the number of rows.
export function fitRows(box, rows, { min = 20, max = 64, extra = 1.3 } = {}) {
  const r = rem(), lo = min * r;
  box.style.setProperty('--rows', rows);
  const set = (h) => { box.style.setProperty('--row', `${h}px`); return h; };
  // On a phone the page scrolls down: rows as tall as a window's share.
  const room = matchMedia('(max-width: 760px)').matches && !box.closest('.show-view') ? innerHeight * 0.9 : box.clientHeight;
  let h = set(Math.max(lo, Math.min(max * r, Math.floor(room / (rows + extra)))));
  const table = box.querySelector('table');
  if (!table) return;
  // What is not a body row (the header, borders) stays: the rows share the
  // rest.
  const n = table.tBodies[0]?.rows.length || rows;
  const fixed = table.offsetHeight - n * h;
  h = set(Math.max(lo, Math.min(max * r, Math.floor((room - fixed) / n))));
  // The header's rows and the cells' content make the table's height only
  // roughly rows × --row: measure, and shrink until it fits.
  for (let k = 0; k < 12 && h > lo; k++) {
    const over = Math.max(table.offsetHeight / Math.max(room, box.clientHeight), table.offsetWidth / box.clientWidth);
    if (over <= 1) break;
    h = set(Math.max(lo, Math.min(h - 1, Math.floor(h / over))));
  }
}
