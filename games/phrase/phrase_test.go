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

// French says a recorded sentence as the screen's say does: the sentences
// inside it too, a fault's name before a colon, the singular of 0 and 1.
func TestFrench(t *testing.T) {
	phrase.Of("grid full", "grille pleine")
	phrase.Of("{1} lost: {2}", "{1} a perdu : {2}")
	phrase.Count("{2} is out after {1} turn", "{2} is out after {1} turns", "{2} est éliminé après {1} tour", "{2} est éliminé après {1} tours")
	names := func(w string) (string, bool) {
		return map[string]string{"timeout": "temps dépassé"}[w], w == "timeout"
	}
	for en, fr := range map[string]string{
		"grid full":                       "grille pleine",
		"bob lost: timeout: grid full":    "bob a perdu : temps dépassé : grille pleine",
		"bob lost: crash: grid full":      "bob a perdu : crash: grid full",
		"alice is out after 1 turns":      "alice est éliminé après 1 tour",
		"alice is out after 0 turns":      "alice est éliminé après 0 tour",
		"alice is out after 12 turns":     "alice est éliminé après 12 tours",
		"a sentence the judge never said": "a sentence the judge never said",
	} {
		if got := phrase.French(en, names); got != fr {
			t.Errorf("French(%q) = %q, want %q", en, got, fr)
		}
	}
}
