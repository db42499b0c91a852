// What the page's modules share: the view on screen, the tournament's last
// state from its events, the game each tournament plays, and going to a
// URL. The router draws a URL's view on the window's 'route' event, so that
// views and the header ask for one without importing the router, which
// imports them.

export const page = {
  current: null, // the mounted view: {node, cleanup, onState, fit}
  lastState: null, // the tournament's last state, from its events
  kinds: {}, // tournament id → game name
};

// reroute draws the view of the page's URL again.
export function reroute() {
  dispatchEvent(new Event('route'));
}

export function navigate(url, replace = false) {
  history[replace ? 'replaceState' : 'pushState'](null, '', url);
  reroute();
}
