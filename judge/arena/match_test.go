package arena_test

import (
	"fmt"
	"reflect"
	"testing"

	"botjudge/judge/arena"
	"botjudge/results/scoring"
)

// duel is a played game: a beats b, or draws with it.
func duel(a, b int64, draw bool) scoring.Game {
	rb := 2
	if draw {
		rb = 1
	}
	return scoring.Game{Seats: []scoring.Seat{{BotID: a, Rank: 1}, {BotID: b, Rank: rb}}}
}

// students are versions 1..n, none an example.
func students(n int) []arena.Version {
	var list []arena.Version
	for i := 1; i <= n; i++ {
		list = append(list, arena.Version{BotID: int64(i)})
	}
	return list
}

// pairsOf writes games as "a-b" (seat order).
func pairsOf(games []arena.Game) []string {
	var list []string
	for _, g := range games {
		list = append(list, fmt.Sprintf("%d-%d", g.Seats[0], g.Seats[1]))
	}
	return list
}

// A new version's placement meets opponents spread over the ladder, top
// to bottom, each in both seats, before anything else.
func TestPlacementSpreadsOverTheLadder(t *testing.T) {
	// Bots 1..7 ranked in that order: each beat every bot after it.
	var played []scoring.Game
	for a := int64(1); a <= 7; a++ {
		for b := a + 1; b <= 7; b++ {
			played = append(played, duel(a, b, false), duel(b, a, true), duel(a, b, false))
		}
	}
	versions := append(students(7), arena.Version{BotID: 8})
	m := arena.Matchmaker{Seed: 1}
	var pending []arena.Game
	for range 6 {
		pending = append(pending, m.Next(versions, played, nil, pending, 1)...)
	}
	// Of 7 others, the places 1, 3 and 5 (from 0): bots 2, 4 and 6.
	want := []string{"8-2", "2-8", "8-4", "4-8", "8-6", "6-8"}
	if got := pairsOf(pending); !reflect.DeepEqual(got, want) {
		t.Errorf("placement %v, want %v", got, want)
	}
	if next := m.Next(versions, played, nil, pending, 1); len(next) == 1 && pairsOf(next)[0] == "8-2" {
		t.Errorf("a 7th placement game %v after the 6", pairsOf(next))
	}
}

// Among equally rated bots, the pairs that met least come first, and each
// bot plays once among the games asked for while others can.
func TestLeastPlayedPairsFirst(t *testing.T) {
	// Everyone scores ½ against everyone it met; 1-4 and 2-3 never met.
	played := []scoring.Game{
		duel(1, 2, false), duel(2, 1, false), duel(1, 2, false), duel(2, 1, false),
		duel(3, 4, false), duel(4, 3, false), duel(3, 4, false), duel(4, 3, false),
		duel(1, 3, true), duel(2, 4, true),
	}
	m := arena.Matchmaker{Placement: 2, Seed: 7}
	got := pairsOf(m.Next(students(4), played, nil, nil, 2))
	if len(got) != 2 {
		t.Fatalf("%d games, want 2", len(got))
	}
	ok := map[string]bool{"1-4": true, "4-1": true, "2-3": true, "3-2": true}
	if !ok[got[0]] || !ok[got[1]] {
		t.Errorf("games %v, want 1 against 4 and 2 against 3", got)
	}
}

// Of two pairs that met as often, the one whose result is more uncertain
// (closer ratings) comes first.
func TestUncertainPairsFirst(t *testing.T) {
	// 1 and 2 are level; 3 lost every game to both.
	var played []scoring.Game
	for range 4 {
		played = append(played, duel(1, 2, false), duel(2, 1, false), duel(1, 3, false), duel(2, 3, false))
	}
	m := arena.Matchmaker{Placement: 2}
	got := pairsOf(m.Next(students(3), played, nil, nil, 1))
	if len(got) != 1 || (got[0] != "1-2" && got[0] != "2-1") {
		t.Errorf("next game %v, want 1 against 2", got)
	}
}

// A pair's games alternate the seats, and a game under way counts: the
// same inputs give the same games, and a game pending is not asked again
// in the same seats with the same key.
func TestSeatsAlternateAndPendingCounts(t *testing.T) {
	versions := []arena.Version{{BotID: 10}, {BotID: 20, Example: true}}
	m := arena.Matchmaker{Placement: 1, Seed: 3}
	first := m.Next(versions, nil, nil, nil, 1)
	if again := m.Next(versions, nil, nil, nil, 1); !reflect.DeepEqual(first, again) {
		t.Errorf("same inputs, %v then %v", first, again)
	}
	second := m.Next(versions, nil, nil, first, 1)
	if len(first) != 1 || len(second) != 1 {
		t.Fatalf("games %v then %v, want one each", first, second)
	}
	if first[0].Seats != [2]int64{10, 20} || second[0].Seats != [2]int64{20, 10} {
		t.Errorf("seats %v then %v, want 10-20 then 20-10", first[0].Seats, second[0].Seats)
	}
	third := m.Next(versions, nil, nil, append(first, second...), 1)
	if third[0].Key == first[0].Key || third[0].Seed == first[0].Seed {
		t.Errorf("the third game %+v repeats the first's key or seed %+v", third[0], first[0])
	}
}

// Example bots play the students' versions, never each other.
func TestExamplesNeverMeet(t *testing.T) {
	versions := []arena.Version{{BotID: 1, Example: true}, {BotID: 2, Example: true}, {BotID: 3, Example: true}, {BotID: 4}}
	var pending []arena.Game
	m := arena.Matchmaker{}
	for range 20 {
		pending = append(pending, m.Next(versions, nil, nil, pending, 3)...)
	}
	for _, g := range pending {
		if g.Seats[0] != 4 && g.Seats[1] != 4 {
			t.Fatalf("example bots met: %v", g.Seats)
		}
	}
	if len(pending) != 20*3 {
		t.Errorf("%d games, want 60: once every bot is busy, bots play again", len(pending))
	}
}

// A game lost when the judge stopped leaves a gap in a pair's count: the
// next game takes the first key not stored, not one stored after the gap.
func TestKeysSkipStoredOnes(t *testing.T) {
	played := []scoring.Game{duel(2, 1, false)} // stored as arena/2-1/2: arena/2-1/1 was lost
	stored := map[string]bool{"arena/2-1/2": true}
	m := arena.Matchmaker{}
	next := m.Next(students(2), played, stored, nil, 1)
	if len(next) != 1 || next[0].Key != "arena/2-1/3" {
		t.Errorf("next game %+v, want arena/2-1/3", next)
	}
	again := m.Next(students(2), played, stored, next, 1)
	if len(again) != 1 || again[0].Key == "arena/2-1/2" || again[0].Key == next[0].Key {
		t.Errorf("the game after %s: %+v", next[0].Key, again)
	}
}
