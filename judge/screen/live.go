package screen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sync"
	"time"

	"botjudge/results"
)

// Snapshot is what the pages follow while a tournament runs: its progress
// and its games in progress.
type Snapshot struct {
	Progress Progress   `json:"progress"`
	Live     []LiveGame `json:"live"`
}

// LiveGame is a game in progress: its position and the moves of its last
// step.
type LiveGame struct {
	Key     string           `json:"key"`
	Players []results.Player `json:"players"`
	Moves   int              `json:"moves"`
	Last    []results.Move   `json:"last"`
	View    json.RawMessage  `json:"view,omitempty"`
	Scores  []int            `json:"scores,omitempty"`
	Updated time.Time        `json:"updated"`
	// Entries are the places of the seats' bots in the tournament's list
	// of bots (by name, as results.Entries lists them; -1 for a bot not
	// entered): a board whose seats are alike marks a bot by its place,
	// the same on every card.
	Entries []int `json:"entries"`
}

func (s *Server) snapshot(ctx context.Context, tid int64) (Snapshot, error) {
	t, err := s.db.Tournament(ctx, tid)
	if err != nil {
		return Snapshot{}, err
	}
	progress, live, err := s.progress(ctx, t, true)
	if err != nil {
		return Snapshot{}, err
	}
	snap := Snapshot{Progress: progress, Live: []LiveGame{}}
	// The estimate moves every poll; rounded, it only changes the message
	// (and wakes the pages) every few seconds.
	snap.Progress.Left = math.Round(snap.Progress.Left/5) * 5
	snap.Progress.LeftMost = math.Round(snap.Progress.LeftMost/5) * 5
	if len(live) == 0 {
		return snap, nil
	}
	ids, err := s.db.EntryIDs(ctx, tid)
	if err != nil {
		return Snapshot{}, err
	}
	for _, l := range live {
		// A game in progress has no reasons yet: its last moves are where
		// the rules quote a fault's detail.
		if s.hideLogs(t) {
			hideMoves(l.Last)
		}
		snap.Live = append(snap.Live, LiveGame{Key: l.Key, Players: l.Players, Moves: l.Moves, Last: l.Last, View: l.View, Scores: l.Scores, Updated: l.Updated,
			Entries: places(l.Players, ids)})
	}
	return snap, nil
}

// places are the places of the players' bots in ids, -1 for one not there.
func places(players []results.Player, ids []int64) []int {
	out := make([]int, len(players))
	for i, p := range players {
		out[i] = slices.Index(ids, p.BotID)
	}
	return out
}

// listSnapshot is the tournaments, as the events of /api/events carry them:
// what a page opened before its tournament existed waits for.
func (s *Server) listSnapshot(ctx context.Context) ([]Info, error) {
	ts, err := s.db.Tournaments(ctx)
	if err != nil {
		return nil, err
	}
	list := []Info{}
	for _, t := range ts {
		// The estimate would wake every page at every poll.
		in, err := s.info(ctx, t, false)
		if err != nil {
			return nil, err
		}
		list = append(list, in)
	}
	return list, nil
}

// state is what the stream of key sends: the tournaments (key 0) or one
// tournament's snapshot.
func (s *Server) state(ctx context.Context, key int64) (any, error) {
	if key == listKey {
		return s.listSnapshot(ctx)
	}
	return s.snapshot(ctx, key)
}

// listKey is the hub's key of the tournaments list: no tournament has id 0.
const listKey = 0

func (s *Server) liveJSON(r *http.Request) (any, error) {
	t, err := s.tournament(r.Context(), r)
	if err != nil {
		return nil, err
	}
	return s.snapshot(r.Context(), t.ID)
}

// serveEvents streams the tournament's snapshot as server-sent events, one
// "state" event whenever it changes; /api/events streams the list of
// tournaments the same way, as "tournaments" events.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	var tid int64 = listKey
	event := "tournaments"
	if r.PathValue("tid") != "" {
		t, err := s.tournament(r.Context(), r)
		if err != nil {
			s.fail(w, err)
			return
		}
		tid, event = t.ID, "state"
	}
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	updates, cancel := s.hub.subscribe(tid)
	defer cancel()
	fmt.Fprint(w, "retry: 2000\n\n")
	if err := rc.Flush(); err != nil {
		return
	}
	ping := time.NewTicker(15 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case msg := <-updates:
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, msg)
		case <-ping.C:
			// Keeps proxies and the browser from closing a quiet stream.
			fmt.Fprint(w, ": ping\n\n")
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}

// hub polls the database for the tournaments that some page follows (and
// for the list of tournaments, under listKey), one poller per tournament
// however many pages follow it, and none when nobody does: `judge run` writes from another process, so polling is the only way
// to see its games.
type hub struct {
	s    *Server
	poll time.Duration

	mu      sync.Mutex
	watches map[int64]*watch
}

type watch struct {
	subs map[chan []byte]bool
	last []byte
	stop context.CancelFunc
}

func newHub(s *Server, poll time.Duration) *hub {
	return &hub{s: s, poll: poll, watches: map[int64]*watch{}}
}

// subscribe returns a channel holding the latest snapshot of the tournament
// (older ones are dropped when the page is slow) and a function to leave.
func (h *hub) subscribe(tid int64) (<-chan []byte, func()) {
	ch := make(chan []byte, 1)
	h.mu.Lock()
	defer h.mu.Unlock()
	w := h.watches[tid]
	if w == nil {
		ctx, stop := context.WithCancel(context.Background())
		w = &watch{subs: map[chan []byte]bool{}, stop: stop}
		h.watches[tid] = w
		go h.run(ctx, tid, w)
	}
	w.subs[ch] = true
	if w.last != nil {
		ch <- w.last
	}
	return ch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(w.subs, ch)
		if len(w.subs) == 0 && h.watches[tid] == w {
			w.stop()
			delete(h.watches, tid)
		}
	}
}

func (h *hub) run(ctx context.Context, tid int64, w *watch) {
	t := time.NewTicker(h.poll)
	defer t.Stop()
	what := fmt.Sprintf("tournament %d", tid)
	if tid == listKey {
		what = "the tournaments"
	}
	for {
		snap, err := h.s.state(ctx, tid)
		if err != nil && ctx.Err() == nil {
			h.s.log.Printf("screen: polling %s: %v", what, err)
		}
		if err == nil {
			msg, err := json.Marshal(snap)
			if err != nil {
				h.s.log.Printf("screen: %s: %v", what, err)
			} else {
				h.publish(w, msg)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (h *hub) publish(w *watch, msg []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if bytes.Equal(msg, w.last) {
		return
	}
	w.last = msg
	for ch := range w.subs {
		select {
		case <-ch: // a slow page only needs the newest
		default:
		}
		ch <- msg
	}
}
