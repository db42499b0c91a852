// Shared helpers of the screen: the dictionary, the words of faults,
// building DOM nodes, fetching JSON, and number formats.

export const lang = document.documentElement.lang === 'fr' ? 'fr' : 'en';

let dict = {};
let fallback = {};
let faults = new Map(); // kind → {kind, class, en, fr}
let phrases = []; // the judge's recorded sentences, as patterns: see say

// loadStrings fetches the one dictionary of the shared pages, the judge's
// one list of faults, which games and pages share, and its sentences.
export async function loadStrings() {
  const [all, list, said] = await Promise.all([getJSON('/assets/strings.json'), getJSON('/api/faults.json'), getJSON('/api/phrases.json')]);
  fallback = all.en;
  dict = all[lang] || all.en;
  faults = new Map(list.map((f) => [f.kind, f]));
  phrases = said.map(pattern);
}

// pattern makes a regular expression of a sentence's English, {1}, {2}…
// capturing what was filled in.
function pattern(p) {
  const order = [];
  const src = p.en.split(/(\{\d+\})/).map((part) => {
    const slot = /^\{(\d+)\}$/.exec(part);
    if (!slot) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    order.push(slot[1]);
    return '([\\s\\S]+?)';
  }).join('');
  return { re: new RegExp(`^${src}$`), order, fr: p.fr, frOne: p.fr_one };
}

// say is a sentence the judge recorded in English (how a game ended, why
// a move was refused), in the page's language: what fills it is said too,
// for a sentence may hold another. One it does not know stays as it is.
export function say(text) {
  if (lang === 'en' || !text) return text;
  for (const p of phrases) {
    const m = p.re.exec(text);
    if (!m) continue;
    const args = {};
    p.order.forEach((k, i) => { args[k] = say(m[i + 1]); });
    const fr = p.frOne && Number(args[1]) < 2 ? p.frOne : p.fr;
    return fr.replace(/\{(\d+)\}/g, (_, k) => args[k] ?? '');
  }
  // "timeout: …": a fault's name before its detail.
  const [, kind, rest] = /^([a-z]+): ([\s\S]+)$/.exec(text) || [];
  return faults.has(kind) ? `${verdictText(kind)} : ${say(rest)}` : text;
}

// reasonBeside is what a fault's reason (m: a move, a bot page's fault, a check)
// adds to its verdict and detail, which the page shows beside it, in the
// page's language: '' when nothing. The rules put the fault's name before
// their reason ("timeout: …", games/fault's Beside): beside the verdict it
// would be said twice.
export function reasonBeside(m) {
  const name = [m.verdict, faults.get(m.verdict)?.en].find((n) => n && m.reason?.startsWith(`${n}: `));
  const reason = name ? m.reason.slice(name.length + 2) : m.reason;
  return reason && reason !== m.verdict && reason !== m.detail ? say(reason) : '';
}

// format fills the {name} placeholders of s from params.
function format(s, params) {
  return s.replace(/\{(\w+)\}/g, (_, k) => (params[k] ?? ''));
}

// t translates key, filling {name} placeholders from params.
export function t(key, params = {}) {
  return format(dict[key] ?? fallback[key] ?? key, params);
}

// translator is t over a board module's own strings ({en: {...}, fr:
// {...}}): a game's words stay in its module, under short keys.
export function translator(strings) {
  const own = strings[lang] || {};
  return (key, params = {}) => format(own[key] ?? strings.en[key] ?? key, params);
}

// tn is t for a count: key.one when n is 1, if the dictionary has it.
// French says 0 in the singular too.
export function tn(key, n, params = {}) {
  const one = `${key}.one`, single = lang === 'fr' ? n < 2 : n === 1;
  return t(single && (one in dict || one in fallback) ? one : key, { n, ...params });
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

// getJSON fetches url's JSON; a failed request throws an Error with the
// HTTP status, and the message of the judge's JSON error when it sent one.
export async function getJSON(url) {
  const r = await fetch(url);
  if (!r.ok) {
    let msg = (await r.text()).trim();
    try { msg = JSON.parse(msg).error || msg; } catch { /* not JSON: the text itself */ }
    const err = new Error(`${r.status} ${msg}`);
    err.status = r.status;
    throw err;
  }
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

// winText says who won a game of names ranked ranks (1 is best): one
// name, a draw between all, or the names that share the first place.
export function winText(names, ranks) {
  const best = Math.min(...ranks);
  const first = names.filter((_, i) => ranks[i] === best);
  if (first.length === 1) return t('game.wins', { name: first[0] });
  if (first.length === names.length) return t('game.draw');
  return t('game.shared', { names: first.join(', ') });
}

// nameLength is the length a name's type is sized by (--len): its longest
// word, or half the name when it wraps at its spaces (or after its
// underscores, see breakable) onto two lines. A name gets smaller rather
// than broken inside a word.
export function nameLength(name) {
  const chars = [...name];
  return Math.max(...name.split(/\s+|(?<=_)/).map((w) => [...w].length), Math.ceil(chars.length / 2));
}

// breakable is text as nodes for el, where a line may also break after an
// underscore: bots are named like identifiers (mallory_the_magnificent_cycler),
// which would otherwise break inside a word, or not at all.
export function breakable(text) {
  return String(text).split(/(?<=_)/).flatMap((part, i) => (i ? [el('wbr'), part] : [part]));
}

// msText writes a time in milliseconds as a student reads it.
export function msText(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

// timeTitle and timeText say an answer's times ({charged_ms, cpu,
// elapsed_ms}, or a bot's total in a game): what it was charged, CPU when
// measured, beside its wall time.
export function timeTitle(tm) {
  const wall = msText(tm.elapsed_ms || 0);
  return tm.cpu ? t('time.cpu', { cpu: msText(tm.charged_ms), wall }) : t('time.wall', { wall });
}

export function timeText(tm) {
  const wall = msText(tm.elapsed_ms || 0);
  return tm.cpu ? t('time.short.cpu', { cpu: msText(tm.charged_ms), wall }) : t('time.short.wall', { wall });
}

export function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 90) return t('unit.s', { n: s });
  const m = Math.round(s / 60);
  if (m < 90) return t('unit.min', { n: m });
  return t('unit.h', { h: Math.floor(m / 60), m: String(m % 60).padStart(2, '0') });
}

// verdictText names a fault in the page's language; a kind the judge does
// not know is shown as it is.
export function verdictText(v) {
  return faults.get(v)?.[lang] ?? v ?? '';
}

// verdict is a fault's label, coloured by its class (timeout, crash,
// illegal) as the standings count it.
export function verdict(v) {
  return el('span', { class: `verdict c-${faults.get(v)?.class || 'other'}`, dataset: { kind: v }, text: verdictText(v) });
}

const markStyles = new Map();

// markStyle is seat mark k as style.css defines it, for boards that draw on
// a canvas: {colour, label, ink} (ink is the colour of text on it).
export function markStyle(k) {
  if (!markStyles.has(k)) {
    const probe = el('i', { class: `mark-${k}`, hidden: true });
    document.body.append(probe);
    const css = getComputedStyle(probe);
    const v = (name) => css.getPropertyValue(name).trim();
    markStyles.set(k, { colour: v('--mark'), label: v('--label').replace(/^"|"$/g, ''), ink: v('--ink') || '#000' });
    probe.remove();
  }
  return markStyles.get(k);
}

export function sleep(ms, signal) {
  return new Promise((resolve) => {
    const id = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(id); resolve(); });
  });
}
