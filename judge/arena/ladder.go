package arena

import (
	"cmp"
	"slices"
	"time"

	"botjudge/games"
	"botjudge/results"
	"botjudge/results/scoring"
)

// Ladder is a game's arena as the page, the API and `judge arena` show it.
type Ladder struct {
	Game string `json:"game"`
	// SeedScore names the seed's own score beside the rating
	// (games.SeedBrainJar, games.SeedElo), "" when the seed kept none.
	SeedScore string `json:"seed_score"`
	// Games counts the arena's games, those of past versions included.
	Games int   `json:"games"`
	Rows  []Row `json:"rows"`
}

// Row is one bot on the ladder.
type Row struct {
	// Rank is shared by bots of the same rating (those yet to play).
	Rank int `json:"rank"`
	// Name is the student's, or their pseudonym (see Namer), or the
	// example bot's.
	Name string `json:"name"`
	// BotID, Version (the start of the bot's SHA-256) and HandedIn (when
	// the student handed it in; zero for an example bot) are zero for a
	// student who goes by a pseudonym: the public tournaments' pages show
	// them beside the real names.
	BotID    int64     `json:"bot_id"`
	Version  string    `json:"version"`
	HandedIn time.Time `json:"handed_in,omitzero"`
	// Rating is the Bradley–Terry rating on the Elo scale over the games
	// among the bots on the ladder now, Low and High its 95 % interval;
	// Games, Wins, Draws and Losses count those games' pairwise results.
	Rating   float64 `json:"rating"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	Games    int     `json:"games"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	Examples bool    `json:"examples"`
	// SeedScore is the seed's own score (see Ladder.SeedScore) replayed over
	// all of the bot's arena games; nil when the seed kept none.
	SeedScore *float64 `json:"seed_score"`
	// Student is the student's id on the roster, 0 for an example bot: the
	// hand-in page marks its student's row. Never in the public rows.
	Student int64 `json:"-"`
	// You marks the row of the student who asks, in their answer alone
	// (Ladder.Mark).
	You bool `json:"you,omitempty"`
}

// Mark marks student's row (You): the one ladder, answered to a student,
// shows them where they stand, even under a pseudonym.
func (l Ladder) Mark(student int64) {
	for i, r := range l.Rows {
		l.Rows[i].You = student != 0 && !r.Examples && r.Student == student
	}
}

// Rank computes the ladder of a game from its arena, best rating first
// (then by name), its students named by n.
func Rank(rules games.Rules, a results.Arena, n Namer) Ladder {
	ids := make([]int64, len(a.Bots))
	for i, b := range a.Bots {
		ids[i] = b.BotID
	}
	ratings := scoring.Ratings(ids, a.Games)
	l := Ladder{Game: rules.Name(), SeedScore: games.SeedScore(rules), Games: len(a.Games), Rows: make([]Row, len(a.Bots))}
	seed := seedScores(l.SeedScore, ids, a.Games)
	for i, b := range a.Bots {
		r := ratings[i]
		l.Rows[i] = Row{Name: n.Name(b), BotID: b.BotID, Version: b.SHA256[:min(12, len(b.SHA256))], HandedIn: b.At,
			Rating: r.Rating, Low: r.Low, High: r.High, Games: r.Games, Wins: r.Wins, Draws: r.Draws, Losses: r.Losses,
			Examples: b.Example, Student: b.Student}
		if n.Hides() && !b.Example {
			l.Rows[i].BotID, l.Rows[i].Version, l.Rows[i].HandedIn = 0, "", time.Time{}
		}
		if seed != nil {
			l.Rows[i].SeedScore = &seed[i]
		}
	}
	slices.SortStableFunc(l.Rows, func(x, y Row) int {
		return cmp.Or(cmp.Compare(y.Rating, x.Rating), cmp.Compare(x.Name, y.Name))
	})
	for k := range l.Rows {
		l.Rows[k].Rank = k + 1
		if k > 0 && l.Rows[k].Rating == l.Rows[k-1].Rating {
			l.Rows[k].Rank = l.Rows[k-1].Rank
		}
	}
	return l
}

// seedScores replays the seed's score over every arena game (a score that
// moves after each game needs the games against past versions too) and
// returns the bots' in the order of ids; nil when the seed kept none.
func seedScores(kind string, ids []int64, played []scoring.Game) []float64 {
	var replay func([]int64, []scoring.Game) []float64
	switch kind {
	case games.SeedBrainJar:
		replay = scoring.BrainJarPoints
	case games.SeedElo:
		replay = scoring.BotsArenaElo
	default:
		return nil
	}
	all := slices.Clone(ids)
	for _, g := range played {
		for _, s := range g.Seats {
			all = append(all, s.BotID)
		}
	}
	slices.Sort(all)
	all = slices.Compact(all)
	scores := replay(all, played)
	out := make([]float64, len(ids))
	for i, id := range ids {
		k, _ := slices.BinarySearch(all, id)
		out[i] = scores[k]
	}
	return out
}
