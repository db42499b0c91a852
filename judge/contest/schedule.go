package contest

import (
	"fmt"
	"hash/fnv"
)

// Planned is one game of the schedule. Bots are indexes into the entries.
type Planned struct {
	Key   string
	Round int
	Seats []int
	Seed  int64
}

// Schedule is the round robin of SPEC §4: every unordered pair plays twice
// per round, each bot holding the first seat once. Keys name the exact bot
// versions in their seats, so a changed bot gets new keys (its games are
// played again) while every other game keeps its key (and is not).
func Schedule(entries []Entry, rounds int, seed int64) []Planned {
	var plan []Planned
	for r := 1; r <= rounds; r++ {
		for i := range entries {
			for j := i + 1; j < len(entries); j++ {
				for _, seats := range [][]int{{i, j}, {j, i}} {
					key := fmt.Sprintf("r%d/%s/%s", r, versionOf(entries[seats[0]]), versionOf(entries[seats[1]]))
					plan = append(plan, Planned{Key: key, Round: r, Seats: seats, Seed: GameSeed(seed, key)})
				}
			}
		}
	}
	return plan
}

func versionOf(e Entry) string { return e.Name + "@" + e.SHA256[:12] }

// GameSeed derives a game's seed from the tournament's and the game's key, so
// any game can be replayed alone.
func GameSeed(tournament int64, key string) int64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s", tournament, key)
	return int64(h.Sum64() >> 1)
}
