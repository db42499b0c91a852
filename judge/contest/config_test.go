package contest

import (
	"reflect"
	"testing"

	"botjudge/games/battleships"
	"botjudge/games/tron"
	"botjudge/games/virus"
	"botjudge/sandbox"
)

// Run fills a Config's zero fields that have a default, and only those.
func TestConfigWithDefaults(t *testing.T) {
	def := DefaultConfig()
	got := Config{Seed: 7}.withDefaults()
	want := Config{Seed: 7, Format: def.Format, Build: def.Build, Retries: def.Retries}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("zero fields: got %+v, want %+v", got, want)
	}
	set := Config{Format: Swiss, Build: sandbox.BuildLimits{Time: 1}, Retries: 5}
	if got := set.withDefaults(); !reflect.DeepEqual(got, set) {
		t.Errorf("fields set: got %+v, want them kept", got)
	}
}

func TestConfigDefaultRounds(t *testing.T) {
	for _, c := range []struct {
		name string
		got  int
		want int
	}{
		{"virus duels", DefaultRounds(virus.Rules{}, Duels, 30), 1},
		{"battleships duels", DefaultRounds(battleships.Rules{}, Duels, 30), 5},
		{"tron ffa", DefaultRounds(tron.Rules{}, FreeForAll, 30), 2},
		{"virus swiss of 30", DefaultRounds(virus.Rules{}, Swiss, 30), SwissRounds(30)},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d rounds, want %d", c.name, c.got, c.want)
		}
	}
}

// A free-for-all of a game of two seats is a duel.
func TestConfigForGame(t *testing.T) {
	ffa := DefaultConfig()
	ffa.Format = FreeForAll
	if got := ffa.ForGame(virus.Rules{}, "v"); got.Format != Duels || got.Dir != "v" || got.Rules != (virus.Rules{}) {
		t.Errorf("virus: %+v", got)
	}
	if got := ffa.ForGame(tron.Rules{}, "t"); got.Format != FreeForAll {
		t.Errorf("tron: %s", got.Format)
	}
}
