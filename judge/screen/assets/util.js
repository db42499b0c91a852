// Shared helpers of the screen: the dictionary, building DOM nodes, fetching
// JSON, and number formats.

export const lang = document.documentElement.lang === 'fr' ? 'fr' : 'en';

let dict = {};
let fallback = {};

// loadStrings fetches the one dictionary of every string on the pages.
export async function loadStrings() {
  const all = await getJSON('/assets/strings.json');
  fallback = all.en;
  dict = all[lang] || all.en;
}

// t translates key, filling {name} placeholders from params.
export function t(key, params = {}) {
  const s = dict[key] ?? fallback[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => (params[k] ?? ''));
}

// tn is t for a count: key.one when n is 1, if the dictionary has it.
export function tn(key, n, params = {}) {
  const one = `${key}.one`;
  return t(n === 1 && (one in dict || one in fallback) ? one : key, { n, ...params });
}

// setLanguage remembers the choice in a cookie, which the server reads
// before Accept-Language, and reloads the page in that language.
export function setLanguage(l) {
  document.cookie = `lang=${l}; path=/; max-age=31536000; SameSite=Lax`;
  location.reload();
}

// el builds an element: attrs may hold class, text, dataset, style, on*
// listeners and any attribute; children are nodes, strings or arrays.
export function el(tag, attrs = {}, ...children) {
  const svg = tag.startsWith('svg:');
  const e = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.setAttribute('class', v);
    else if (k === 'text') e.textContent = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k === 'style' && typeof v === 'object') Object.assign(e.style, v);
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  append(e, children);
  return e;
}

// fill replaces the children of e, skipping empty ones as el does.
export function fill(e, ...children) {
  e.replaceChildren();
  append(e, children);
  return e;
}

function append(e, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(e, c);
    else e.append(c instanceof Node ? c : String(c));
  }
}

export async function getJSON(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${r.status} ${(await r.text()).trim()}`);
  return r.json();
}

// points writes 14.5 as 14½, as a crosstable does.
export function points(x) {
  const whole = Math.floor(x);
  const frac = x - whole;
  if (Math.abs(frac - 0.5) < 1e-9) return whole === 0 ? '½' : `${whole}½`;
  if (frac < 1e-9) return String(whole);
  return x.toFixed(2);
}

export function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 90) return t('unit.s', { n: s });
  const m = Math.round(s / 60);
  if (m < 90) return t('unit.min', { n: m });
  return t('unit.h', { h: Math.floor(m / 60), m: String(m % 60).padStart(2, '0') });
}

// verdictText names a fault in the page's language.
export function verdictText(v) {
  return v ? t('verdict.' + v) : '';
}

export function sleep(ms, signal) {
  return new Promise((resolve) => {
    const id = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(id); resolve(); });
  });
}
