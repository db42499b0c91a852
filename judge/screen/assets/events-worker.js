// The one connection of a browser to the screen's event streams, shared by
// all its tabs: a browser opens at most six connections to a host, and a
// stream held by every page would leave the seventh page unloaded. Each
// stream (a URL) is opened once, while at least one tab follows it; its
// latest event is kept and given at once to a tab that comes to follow it,
// since the server only sends changes.
//
// A tab's port says {follow: url}, {unfollow: url} and {bye: true} (on
// pagehide: a page in the back/forward cache must not hold a stream); the
// worker answers {url, event, data}.

const streams = new Map(); // url → {source, ports: Set, last: {event, data}, retry}

function open(url, s) {
  s.source = new EventSource(url);
  for (const event of ['state', 'tournaments']) {
    s.source.addEventListener(event, (e) => {
      s.last = { url, event, data: e.data };
      for (const port of s.ports) port.postMessage(s.last);
    });
  }
  s.source.onerror = () => {
    // EventSource retries a dropped connection by itself, but gives up on
    // an error answer (a tournament not there yet, a judge restarting).
    if (s.source.readyState !== EventSource.CLOSED || s.retry) return;
    s.retry = setTimeout(() => {
      s.retry = null;
      if (streams.get(url) === s) open(url, s);
    }, 3000);
  };
}

function follow(port, url) {
  let s = streams.get(url);
  if (!s) {
    s = { ports: new Set(), last: null, retry: null };
    streams.set(url, s);
    open(url, s);
  }
  s.ports.add(port);
  if (s.last) port.postMessage(s.last);
}

function unfollow(port, url) {
  const s = streams.get(url);
  if (!s) return;
  s.ports.delete(port);
  if (s.ports.size) return;
  s.source.close();
  clearTimeout(s.retry);
  streams.delete(url);
}

function leave(port) {
  for (const url of [...streams.keys()]) unfollow(port, url);
  port.close();
}

onconnect = (e) => {
  const port = e.ports[0];
  port.onmessage = (m) => {
    const d = m.data || {};
    if (d.follow) follow(port, d.follow);
    else if (d.unfollow) unfollow(port, d.unfollow);
    else if (d.bye) leave(port);
  };
  // A tab that closes or crashes says no bye; newer browsers tell by this
  // event.
  port.addEventListener('close', () => leave(port));
  port.start();
};
