// The page's side of the event streams: follow(url, fn) calls fn with each
// event's parsed data. All the tabs of a browser share one connection per
// stream through a SharedWorker (events-worker.js); where there is none
// (Chrome on Android), the page opens its own EventSource. Either way the
// page lets go of its streams on pagehide, so that a page kept in the
// back/forward cache holds none, and takes them again on pageshow.

const subs = new Map(); // url → Set of handlers
let port = null; // the worker's port while the page is shown
const own = new Map(); // url → EventSource, without a worker
const last = new Map(); // url → the latest event's data, for a second follower
let hidden = false;

const shared = typeof SharedWorker === 'function';

function deliver(url, data) {
  let v;
  try { v = JSON.parse(data); } catch { return; }
  last.set(url, v);
  for (const fn of [...(subs.get(url) || [])]) fn(v);
}

function connect() {
  if (!shared || port || hidden) return;
  try {
    port = new SharedWorker('/assets/events-worker.js', { name: 'botjudge-events' }).port;
  } catch {
    return; // a browser that refuses workers here: no live updates
  }
  port.onmessage = (e) => deliver(e.data.url, e.data.data);
  for (const url of subs.keys()) port.postMessage({ follow: url });
}

function openOwn(url) {
  if (own.has(url) || hidden) return;
  const source = new EventSource(url);
  const on = (e) => deliver(url, e.data);
  source.addEventListener('state', on);
  source.addEventListener('tournaments', on);
  own.set(url, source);
}

function start(url) {
  if (shared) {
    if (port) port.postMessage({ follow: url });
    else connect();
  } else openOwn(url);
}

function stop(url) {
  if (port) port.postMessage({ unfollow: url });
  own.get(url)?.close();
  own.delete(url);
}

// follow calls fn with every event of the stream at url (the latest one
// first, if the stream was already open); it returns the function that
// stops following.
export function follow(url, fn) {
  let set = subs.get(url);
  const first = !set;
  if (first) subs.set(url, (set = new Set()));
  set.add(fn);
  if (first) start(url);
  else if (last.has(url)) queueMicrotask(() => set.has(fn) && fn(last.get(url)));
  return () => {
    if (!set.delete(fn) || set.size || subs.get(url) !== set) return;
    subs.delete(url);
    last.delete(url);
    stop(url);
  };
}

window.addEventListener('pagehide', () => {
  hidden = true;
  if (port) {
    port.postMessage({ bye: true });
    port.close();
    port = null;
  }
  for (const source of own.values()) source.close();
  own.clear();
});

window.addEventListener('pageshow', (e) => {
  if (!hidden) return;
  hidden = false;
  if (shared) connect();
  else for (const url of subs.keys()) openOwn(url);
});
