package phrase_test

import (
	"testing"

	"botjudge/games/phrase"
)

func TestCountedSaysOneAndMany(t *testing.T) {
	turns := phrase.Count("{2} won after {1} turn", "{2} won after {1} turns", "{2} gagne après {1} tour", "{2} gagne après {1} tours")
	for _, c := range []struct {
		n    int
		want string
	}{
		{0, "alice won after 0 turns"},
		{1, "alice won after 1 turn"},
		{2, "alice won after 2 turns"},
		{1421, "alice won after 1421 turns"},
	} {
		if got := turns.Say(c.n, "alice"); got != c.want {
			t.Errorf("Say(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if turns.Many.FrOne != "{2} gagne après {1} tour" {
		t.Errorf("the plural's French for 0 and 1 is %q", turns.Many.FrOne)
	}
}

func TestAllLongestFirst(t *testing.T) {
	phrase.Of("{1} lost", "{1} a perdu")
	phrase.Of("{1} lost: {2}", "{1} a perdu : {2}")
	all := phrase.All()
	for i := 1; i < len(all); i++ {
		if len(all[i].En) > len(all[i-1].En) {
			t.Fatalf("%q after %q", all[i].En, all[i-1].En)
		}
	}
}
