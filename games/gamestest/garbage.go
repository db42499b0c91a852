package gamestest

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"botjudge/games"
	"botjudge/games/fault"
)

// answerLimit is the sandbox's default limit on an answer (64 KiB): the
// largest answer rules can get.
const answerLimit = 64 << 10

// keys are the names bots of every game use, tried in garbage objects.
var keys = []string{"play", "move", "name", "boats", "comment", "cmd", "2", "3", "4", "5", "point", "orientation"}

// scalars are values that mean something to some game, or to a parser.
var scalars = []any{
	nil, true, false, 0, 1, 2, 3, 6, 7, 9, 10, -1, 99, 1e9, -1e18, 0.5, 3.0, 1e300,
	json.Number("1e400"), json.Number("-0"), json.Number("3.0"), json.Number("12345678901234567890"),
	"", " ", "0", "3", "-1", "6", "7", "3.0", "1e2", "0x3", "Inf", "NaN",
	"0-0", "2-2", "3-3", "1-1 ", "01-2", "-1-1", "1--1", "0,0", "9,9", "10,10", "-1,0", "3, 4", "1,2,3",
	"0,0-0,1", "0,0-0,4", "1,1-3,3", "9,9-9,5", "0,0-0,0", "x+", "y-", "00", "77", "88",
	"horizontal", "vertical", "\u0000", "é", "\u2028", "X", "O", "False",
}

// garbage is an answer no bot should give, of every kind a bot can: a
// fault, random JSON, the right keys with wrong values, the request's own
// words in the wrong places, text that is not JSON, huge or deep answers.
func garbage(rng *rand.Rand, req json.RawMessage) games.Answer {
	words := wordsOf(req)
	switch rng.IntN(9) {
	case 0:
		kinds := fault.All()
		a := games.Answer{Fault: kinds[rng.IntN(len(kinds))].Kind}
		if rng.IntN(2) == 0 {
			a.Detail = "scripted by the conformance kit"
		}
		return a
	case 1:
		return data(randomValue(rng, words, 3))
	case 2, 3:
		return data(map[string]any{keys[rng.IntN(len(keys))]: randomValue(rng, words, 2)})
	case 4:
		obj := map[string]any{}
		for range rng.IntN(4) {
			obj[pick(rng, words, keys)] = randomValue(rng, words, 2)
		}
		return data(obj)
	case 5:
		return games.Answer{Data: notJSON(rng)}
	case 6:
		return games.Answer{Data: huge(rng)}
	case 7:
		depth := 1 + rng.IntN(20_000)
		return games.Answer{Data: []byte(`{"play":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`)}
	default:
		// The request itself, or part of it, as the answer.
		return games.Answer{Data: append(json.RawMessage(nil), req...)}
	}
}

func data(v any) games.Answer {
	b, err := json.Marshal(v)
	if err != nil {
		panic("gamestest: " + err.Error())
	}
	return games.Answer{Data: b}
}

// randomValue is a JSON value of scalars, words of the request and
// containers, depth levels deep at most.
func randomValue(rng *rand.Rand, words []string, depth int) any {
	n := rng.IntN(10)
	switch {
	case depth > 0 && n == 0:
		list := make([]any, rng.IntN(5))
		for i := range list {
			list[i] = randomValue(rng, words, depth-1)
		}
		return list
	case depth > 0 && n == 1:
		obj := map[string]any{}
		for range rng.IntN(5) {
			obj[pick(rng, words, keys)] = randomValue(rng, words, depth-1)
		}
		return obj
	case n < 5 && len(words) > 0:
		return words[rng.IntN(len(words))]
	case n == 5:
		return rng.IntN(200) - 50
	}
	return scalars[rng.IntN(len(scalars))]
}

func pick(rng *rand.Rand, a, b []string) string {
	if len(a) > 0 && rng.IntN(2) == 0 {
		return a[rng.IntN(len(a))]
	}
	return b[rng.IntN(len(b))]
}

// wordsOf lists the strings of a request, its keys included: the cells and
// names a game speaks of.
func wordsOf(req json.RawMessage) []string {
	var v any
	if json.Unmarshal(req, &v) != nil {
		return nil
	}
	var words []string
	var walk func(any)
	walk = func(v any) {
		if len(words) > 300 {
			return
		}
		switch v := v.(type) {
		case string:
			words = append(words, v)
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			// In order: the same seed gives the same garbage.
			for _, k := range slices.Sorted(maps.Keys(v)) {
				words = append(words, k)
				walk(v[k])
			}
		}
	}
	walk(v)
	return words
}

// notJSON is text that is not one JSON value: cut JSON, two values, random
// bytes, invalid UTF-8.
func notJSON(rng *rand.Rand) []byte {
	switch rng.IntN(5) {
	case 0:
		return []byte(`{"play":`)
	case 1:
		return []byte(`{"play":"1-1"} {"play":"2-2"}`)
	case 2:
		return []byte(strings.Repeat("\x80", 1+rng.IntN(200)))
	case 3:
		return []byte("NaN")
	}
	b := make([]byte, 1+rng.IntN(100))
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	return b
}

// huge is an answer of about the sandbox's limit.
func huge(rng *rand.Rand) []byte {
	switch rng.IntN(4) {
	case 0:
		return []byte(`{"play":"` + strings.Repeat("9", answerLimit-12) + `"}`)
	case 1:
		return []byte(`{"boats":[` + strings.Repeat(`"0,0-0,1",`, answerLimit/10-2) + `"0,0-0,1"]}`)
	case 2:
		return []byte(`{"play":` + strings.Repeat("9", answerLimit-10) + `}`)
	}
	return []byte(`{"play":"1-1","comment":"` + strings.Repeat("\xff", answerLimit-30) + `"}`)
}
