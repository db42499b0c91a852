// Package phrase is the vocabulary of the sentences the judge records in
// English (how a game ended, why a move was refused) with their French, so
// that the screen says them in its reader's language. Each sentence is
// declared where it is said, in its own package; the records keep the
// English, which the screen matches against the patterns. It depends on
// nothing, so that games and the sandbox can use it.
package phrase

import (
	"fmt"
	"regexp"
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

// pattern is a sentence's English as a regular expression capturing what
// fills its {1}, {2}…, in the order of order.
type pattern struct {
	re    *regexp.Regexp
	order []string
	p     Phrase
}

var patterns = struct {
	sync.Mutex
	list []pattern
	of   int // how many sentences list was made of
}{}

var slot = regexp.MustCompile(`\{\d+\}`)

// compiled are the patterns of every sentence declared, longest first,
// made again when sentences were declared since.
func compiled() []pattern {
	list := All()
	patterns.Lock()
	defer patterns.Unlock()
	if patterns.of == len(list) {
		return patterns.list
	}
	// A new list: a reader may still be going through the old one.
	fresh := make([]pattern, 0, len(list))
	for _, p := range list {
		var src strings.Builder
		var order []string
		last := 0
		for _, at := range slot.FindAllStringIndex(p.En, -1) {
			src.WriteString(regexp.QuoteMeta(p.En[last:at[0]]))
			src.WriteString(`([\s\S]+?)`)
			order = append(order, p.En[at[0]+1:at[1]-1])
			last = at[1]
		}
		src.WriteString(regexp.QuoteMeta(p.En[last:]))
		fresh = append(fresh, pattern{regexp.MustCompile(`^` + src.String() + `$`), order, p})
	}
	patterns.list, patterns.of = fresh, len(list)
	return patterns.list
}

var named = regexp.MustCompile(`^([a-z]+): ([\s\S]+)$`)

// French says text, a sentence the judge recorded in English, in French, as
// the screen's say does in the browser: what fills a sentence is said too,
// for it may hold another ("{1} lost: {2}"). name gives the French of the
// word a text may start with before a colon without being a sentence (a
// fault's name: "timeout: …"), which this package, depending on nothing,
// does not know. A text it does not know stays as it is.
func French(text string, name func(string) (string, bool)) string {
	for _, pt := range compiled() {
		m := pt.re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		args := map[string]string{}
		for i, k := range pt.order {
			args[k] = French(m[i+1], name)
		}
		fr := pt.p.Fr
		if n, err := strconv.Atoi(args["1"]); err == nil && n < 2 && pt.p.FrOne != "" {
			fr = pt.p.FrOne
		}
		return slot.ReplaceAllStringFunc(fr, func(s string) string { return args[s[1:len(s)-1]] })
	}
	if m := named.FindStringSubmatch(text); m != nil {
		if fr, ok := name(m[1]); ok {
			return fr + " : " + French(m[2], name)
		}
	}
	return text
}
