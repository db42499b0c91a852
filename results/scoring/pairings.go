package scoring

// Game is what scoring reads of a finished game: its seats' bots, ranks
// and faults, in seat order.
type Game struct {
	ID    int64
	Seats []Seat
}

// Seat is one bot's result in a game.
type Seat struct {
	BotID int64
	// Rank is 1 for the best seat; equal ranks are a draw between them.
	Rank int
	// Faults by class (Crashes include error, crash, oom and output
	// verdicts; Illegal includes malformed answers).
	Timeouts, Crashes, Illegal int
}

// Pairing is one bot's record against one opponent: a result for every
// game they were both in (a game of k seats gives each pair of its seats one
// result: the lower rank wins, equal ranks draw), and the points of those
// results in a scheme. It is the one computation of pairwise results that
// the standings, the crosstable and the pair pages share.
type Pairing struct {
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Points are the bot's, Against its opponent's, in the scheme.
	Points  float64 `json:"points"`
	Against float64 `json:"against"`
	// Results are their games in the order given, each with the bot's
	// result and points: what a crosstable cell's marks and a pair page's
	// rows show.
	Results []PairGame `json:"results"`
}

// PairGame is one game of a pairing, from the bot's side.
type PairGame struct {
	ID int64 `json:"id"`
	// Result is "W", "D" or "L": the bot's rank against the opponent's.
	Result string `json:"r"`
	// Points are what the result is worth in the scheme.
	Points float64 `json:"p"`
}

// Pairings computes every pair's record among bots (by ID) over games, in
// scheme s: cells[i][j] is bots[i]'s record against bots[j], nil when they
// met in no game. Games with a player not among bots are ignored.
func Pairings(bots []int64, games []Game, s Scheme) [][]*Pairing {
	index := indexOf(bots)
	cells := make([][]*Pairing, len(bots))
	for i := range cells {
		cells[i] = make([]*Pairing, len(bots))
	}
	win, draw := s.values()
	seats, ok := make([]int, 0, 8), false
	for _, g := range games {
		if seats, ok = seatsOf(g, index, seats[:0]); ok {
			addGame(cells, g, seats, win, draw)
		}
	}
	return cells
}

func indexOf(bots []int64) map[int64]int {
	index := make(map[int64]int, len(bots))
	for i, id := range bots {
		index[id] = i
	}
	return index
}

// seatsOf appends to buf the index of every seat's bot; false if one of
// them is not among the bots.
func seatsOf(g Game, index map[int64]int, buf []int) ([]int, bool) {
	for _, p := range g.Seats {
		i, ok := index[p.BotID]
		if !ok {
			return buf, false
		}
		buf = append(buf, i)
	}
	return buf, true
}

// addGame adds one result per pair of g's seats (seats[a] is seat a's
// bot); a bot in two seats of a game does not play itself.
func addGame(cells [][]*Pairing, g Game, seats []int, win, draw float64) {
	cell := func(i, j int) *Pairing {
		if cells[i][j] == nil {
			cells[i][j] = &Pairing{}
		}
		return cells[i][j]
	}
	for a, p := range g.Seats {
		for b := a + 1; b < len(seats); b++ {
			if i, j := seats[a], seats[b]; i != j {
				addResult(cell(i, j), cell(j, i), g.ID, p.Rank, g.Seats[b].Rank, win, draw)
			}
		}
	}
}

// addResult counts one game between x's bot, ranked ra, and y's, ranked rb.
func addResult(x, y *Pairing, id int64, ra, rb int, win, draw float64) {
	x.Games++
	y.Games++
	switch {
	case ra < rb:
		x.Wins++
		y.Losses++
		x.Points += win
		x.Results = append(x.Results, PairGame{id, "W", win})
		y.Results = append(y.Results, PairGame{id, "L", 0})
	case ra > rb:
		y.Wins++
		x.Losses++
		y.Points += win
		x.Results = append(x.Results, PairGame{id, "L", 0})
		y.Results = append(y.Results, PairGame{id, "W", win})
	default:
		x.Draws++
		y.Draws++
		x.Points += draw
		y.Points += draw
		x.Results = append(x.Results, PairGame{id, "D", draw})
		y.Results = append(y.Results, PairGame{id, "D", draw})
	}
	x.Against, y.Against = y.Points, x.Points
}
