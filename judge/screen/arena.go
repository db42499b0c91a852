package screen

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"botjudge/games"
	"botjudge/judge/arena"
	"botjudge/results"
)

// arenasJSON lists the games whose arena has bots, for /arena/: each
// game's name and its number of bots and games.
func (s *Server) arenasJSON(r *http.Request) (any, error) {
	type arenaLine struct {
		Game  string `json:"game"`
		Bots  int    `json:"bots"`
		Games int    `json:"games"`
	}
	list := []arenaLine{}
	for _, name := range games.Names() {
		a, err := s.db.Arena(r.Context(), name)
		if err != nil {
			return nil, err
		}
		if len(a.Bots) > 0 {
			list = append(list, arenaLine{name, len(a.Bots), len(a.Games)})
		}
	}
	return list, nil
}

// arenaJSON is a game's arena ladder (SPEC §7), at /api/arena/GAME.json:
// the rows `judge arena --format json GAME` prints.
func (s *Server) arenaJSON(r *http.Request) (any, error) {
	name, ok := strings.CutSuffix(r.PathValue("file"), ".json")
	rules, known := games.Lookup(name)
	if !ok || !known {
		return nil, fmt.Errorf("no arena at %s: ask for /api/arena/GAME.json, GAME one of %s: %w", r.URL.Path, strings.Join(games.Names(), ", "), errNotFound)
	}
	a, err := s.db.Arena(r.Context(), rules.Name())
	if err != nil {
		return nil, err
	}
	n, err := arena.NewNamer(r.Context(), s.db, s.opt.ArenaNames)
	if err != nil {
		return nil, err
	}
	l := arena.Rank(rules, a, n)
	if s.opt.Viewer != nil {
		if student, ok := s.opt.Viewer(r); ok {
			l.Mark(student)
		}
	}
	return l, nil
}

// arenaNames names the students' bots of an arena game as its ladder does:
// the replay of a game against "Koala 42" must not name its student. The
// texts the rules stored with the game (its reason, its moves' reasons and
// events) name the bots too: they are renamed the same way, so that the
// replay, played again under the new names, still ends on the stored
// result.
func (s *Server) arenaNames(ctx context.Context, t results.Tournament, g *results.Game) error {
	if s.opt.ArenaNames != arena.Pseudonyms || !t.IsArena() {
		return nil
	}
	bots, err := s.db.ArenaBots(ctx, t.Game)
	if err != nil {
		return err
	}
	n, err := arena.NewNamer(ctx, s.db, s.opt.ArenaNames)
	if err != nil {
		return err
	}
	var pairs []string
	for i, p := range g.Players {
		k := slices.IndexFunc(bots, func(b results.ArenaBot) bool { return b.BotID == p.BotID })
		if k < 0 || bots[k].Example {
			continue
		}
		name := n.Name(bots[k])
		pairs = append(pairs, p.Name, name)
		g.Players[i].Name, g.Players[i].SHA256 = name, ""
	}
	if len(pairs) == 0 {
		return nil
	}
	rename := strings.NewReplacer(pairs...)
	g.Reason = rename.Replace(g.Reason)
	g.Outcome = rewriteStrings(g.Outcome, rename.Replace)
	for i := range g.Moves {
		m := &g.Moves[i]
		m.Reason, m.Detail = rename.Replace(m.Reason), rename.Replace(m.Detail)
		m.Event = renameJSON(rename, m.Event)
	}
	return nil
}

// renameJSON renames in a JSON text: the names are a bot's file name
// (letters, digits, - and _) and a pseudonym (a word, a space, a number),
// which JSON writes as they are.
func renameJSON(r *strings.Replacer, raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	return json.RawMessage(r.Replace(string(raw)))
}
