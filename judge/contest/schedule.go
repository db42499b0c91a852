package contest

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math/rand"
	"slices"
	"strings"
)

// Planned is one game of the schedule. Bots are indexes into the entries.
type Planned struct {
	Key   string
	Round int
	Seats []int
	Seed  int64
}

// Schedule is the round robin of SPEC §4 for games of minSeats to maxSeats
// bots. Keys name the exact bot versions in their seats, so a changed bot
// gets new keys (its games are played again) while every other game keeps
// its key (and is not); round r's keys do not depend on the number of
// rounds, so raising it only adds games. Too few bots for one game make an
// empty schedule. A free-for-all of more bots than a game seats plays heats.
// Swiss rounds are planned one at a time as the results come (swissRound).
func Schedule(entries []Entry, rounds int, seed int64, format Format, minSeats, maxSeats int) ([]Planned, error) {
	n := len(entries)
	var plan []Planned
	add := func(r int, prefix string, seats []int) {
		names := make([]string, len(seats))
		for i, s := range seats {
			names[i] = versionOf(entries[s])
		}
		key := fmt.Sprintf("r%d/%s%s", r, prefix, strings.Join(names, "/"))
		plan = append(plan, Planned{Key: key, Round: r, Seats: seats, Seed: GameSeed(seed, key)})
	}
	switch format {
	case Duels:
		if minSeats > 2 || maxSeats < 2 {
			return nil, fmt.Errorf("this game seats %d to %d bots: it cannot be played in duels", minSeats, maxSeats)
		}
		for r := 1; r <= rounds; r++ {
			for i := range n {
				for j := i + 1; j < n; j++ {
					add(r, "", []int{i, j})
					add(r, "", []int{j, i})
				}
			}
		}
	case FreeForAll:
		if maxSeats <= 2 {
			return nil, fmt.Errorf("this game seats %d bots: a free-for-all is a duel, use the %s format", maxSeats, Duels)
		}
		if n < max(minSeats, 2) {
			return nil, nil
		}
		if n > maxSeats {
			for r := 1; r <= rounds; r++ {
				for _, seats := range heats(n, maxSeats, r, seed) {
					add(r, "heat/", seats)
				}
			}
			return plan, nil
		}
		for r := 1; r <= rounds; r++ {
			seats := make([]int, n)
			for i := range seats {
				seats[i] = (i + r - 1) % n
			}
			add(r, "ffa/", seats)
		}
	default:
		return nil, fmt.Errorf("unknown format %q", format)
	}
	return plan, nil
}

// heats splits n bots into the free-for-all games of round r: as few games
// as seat them all, of sizes differing by one at most, the groups drawn
// anew each round from the tournament seed so that every bot meets others.
// Seats rotate: within a game, the bots that sat furthest back in the
// rounds before sit first, so that no bot keeps the front seats (the
// rounds before are drawn again from the seed, so round r depends on
// nothing else).
func heats(n, maxSeats, r int, seed int64) [][]int {
	k := (n + maxSeats - 1) / maxSeats
	back := make([]float64, n) // sum over rounds of the seat's place, 0 first to 1 last
	var out [][]int
	for round := 1; round <= r; round++ {
		perm := rand.New(rand.NewSource(GameSeed(seed, fmt.Sprintf("heats/r%d", round)))).Perm(n)
		out = out[:0]
		at := 0
		for g := range k {
			size := n / k
			if g < n%k {
				size++
			}
			group := slices.Clone(perm[at : at+size])
			at += size
			slices.SortStableFunc(group, func(a, b int) int { return cmp.Compare(back[b], back[a]) })
			for seat, b := range group {
				back[b] += float64(seat) / float64(max(size-1, 1))
			}
			out = append(out, group)
		}
	}
	return out
}

func versionOf(e Entry) string { return e.Name + "@" + e.SHA256[:12] }

// GameSeed derives a game's seed from the tournament's and the game's key, so
// any game can be replayed alone.
func GameSeed(tournament int64, key string) int64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s", tournament, key)
	return int64(h.Sum64() >> 1)
}

// spread orders games so that each bot's games are as far apart as they
// can be: consecutive games of the same bot would be alive at once (one
// playing, the next already starting), each needing a container of its own,
// where spread out the bot's container is free again for its next game. It
// changes only the order: keys and seeds stay.
func spread(games []Planned) []Planned {
	out := make([]Planned, 0, len(games))
	left := slices.Clone(games)
	last := map[int]int{} // bot → position of its latest game in out
	for len(left) > 0 {
		best, bestGap := 0, -1
		for i, g := range left {
			gap := len(games) + 1 // a bot not seen yet
			for _, s := range g.Seats {
				if at, ok := last[s]; ok {
					gap = min(gap, len(out)-at)
				}
			}
			// The earliest of the most spread: the schedule's order otherwise.
			if gap > bestGap {
				best, bestGap = i, gap
			}
		}
		g := left[best]
		left = slices.Delete(left, best, best+1)
		for _, s := range g.Seats {
			last[s] = len(out)
		}
		out = append(out, g)
	}
	return out
}
