package screen

import (
	"fmt"
	"net/http"
	"strings"

	"botjudge/games"
	"botjudge/judge/arena"
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
	return arena.Rank(rules, a), nil
}
