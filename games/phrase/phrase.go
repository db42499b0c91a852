// Package phrase is the vocabulary of the sentences the judge records in
// English (how a game ended, why a move was refused) with their French, so
// that the screen says them in its reader's language. Each sentence is
// declared where it is said, in its own package; the records keep the
// English, which the screen matches against the patterns. It depends on
// nothing, so that games and the sandbox can use it.
package phrase

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Phrase is one sentence in both languages. {1}, {2}… stand for what Say
// fills in, in the same order in both (a name, a number, another sentence).
type Phrase struct {
	En string `json:"en"`
	Fr string `json:"fr"`
	// FrOne is Fr for a count {1} of 0 or 1, when the English has a plural
	// only (a count of 0 takes the singular in French).
	FrOne string `json:"fr_one,omitempty"`
}

var all = struct {
	sync.Mutex
	list []Phrase
}{}

// Of declares a sentence, for the screen to translate.
func Of(en, fr string) Phrase { return declare(Phrase{En: en, Fr: fr}) }

func declare(p Phrase) Phrase {
	all.Lock()
	defer all.Unlock()
	all.list = append(all.list, p)
	return p
}

// Say is the English sentence with {1}, {2}… filled from args.
func (p Phrase) Say(args ...any) string {
	s := p.En
	for i, a := range args {
		s = strings.ReplaceAll(s, "{"+strconv.Itoa(i+1)+"}", fmt.Sprint(a))
	}
	return s
}

// Counted is a sentence about a count n, which {1} stands for, singular
// for 1 in English, for 0 and 1 in French.
type Counted struct{ One, Many Phrase }

// Count declares a counted sentence: one and many in English, then in
// French.
func Count(oneEn, manyEn, oneFr, manyFr string) Counted {
	return Counted{One: Of(oneEn, oneFr), Many: declare(Phrase{En: manyEn, Fr: manyFr, FrOne: oneFr})}
}

// Say is the sentence for n, with {2}, {3}… filled from args.
func (c Counted) Say(n int, args ...any) string {
	p := c.Many
	if n == 1 {
		p = c.One
	}
	return p.Say(append([]any{n}, args...)...)
}

// All lists every sentence declared, the longest English first, so that a
// reader trying them in order meets the most specific pattern first.
func All() []Phrase {
	all.Lock()
	defer all.Unlock()
	out := append([]Phrase(nil), all.list...)
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].En) > len(out[j].En) })
	return out
}
