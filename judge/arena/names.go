package arena

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"

	"botjudge/results"
)

// Names is how the arena's public pages name the students (SPEC §7: the
// organiser's choice): as the roster writes them, or by pseudonyms. The
// example bots keep their names either way. The zero value is RealNames.
type Names string

const (
	RealNames  Names = "real"
	Pseudonyms Names = "pseudonyms"
)

// Set reads the organiser's choice, as a flag.
func (n *Names) Set(s string) error {
	switch Names(s) {
	case RealNames, Pseudonyms:
		*n = Names(s)
		return nil
	}
	return fmt.Errorf("%q: use real or pseudonyms", s)
}

// String is the choice as the flag shows it.
func (n *Names) String() string {
	if n == nil {
		return ""
	}
	return string(*n)
}

// A Namer names the bots of the arena's pages. Its zero value gives the
// names of the roster.
type Namer struct {
	pseudonyms map[int64]string // by student id; nil for the roster's names
}

// NewNamer is the Namer of names over db's roster.
func NewNamer(ctx context.Context, db *results.DB, names Names) (Namer, error) {
	if names != Pseudonyms {
		return Namer{}, nil
	}
	key, err := db.PseudonymKey(ctx)
	if err != nil {
		return Namer{}, err
	}
	students, err := db.Students(ctx)
	if err != nil {
		return Namer{}, err
	}
	ids := make([]int64, len(students))
	for i, s := range students {
		ids[i] = s.ID
	}
	return Namer{pseudonyms: pseudonymsOf(key, ids)}, nil
}

// Hides says whether the students go by pseudonyms.
func (n Namer) Hides() bool { return n.pseudonyms != nil }

// Name is b's name on the arena's pages.
func (n Namer) Name(b results.ArenaBot) string {
	if b.Example || !n.Hides() {
		return b.Name
	}
	if p, ok := n.pseudonyms[b.Student]; ok {
		return p
	}
	// A bot of nobody on the roster cannot be: never its real name anyway.
	return "?"
}

// animals name the pseudonyms: words that French and English write alike,
// so that a pseudonym reads the same in both languages, and that no
// classroom would take as a slur.
var animals = []string{
	"Alligator", "Anaconda", "Axolotl", "Barracuda", "Bison", "Boa", "Capybara", "Caracal",
	"Caribou", "Chinchilla", "Coati", "Cobra", "Condor", "Coyote", "Dingo", "Fennec",
	"Gazelle", "Gecko", "Gibbon", "Hamster", "Ibis", "Impala", "Jaguar", "Kiwi",
	"Koala", "Lion", "Lynx", "Mamba", "Mandrill", "Manta", "Ocelot", "Okapi",
	"Opossum", "Panda", "Piranha", "Puma", "Quetzal", "Serval", "Tamarin", "Tapir",
	"Toucan", "Wapiti", "Wombat", "Yak",
}

// pseudonymSpace is how many pseudonyms there are: an animal and a number
// from 10 to 99 ("Koala 42").
var pseudonymSpace = len(animals) * 90

// pseudonymsOf gives each student a pseudonym of its own, derived from key
// and the student's id alone: the same on every page and after a restart.
// Two students whose first draws meet are told apart by drawing again, in
// the order of their ids: the roster only grows, so a student added later
// never takes an earlier one's pseudonym.
func pseudonymsOf(key []byte, students []int64) map[int64]string {
	ids := slices.Sorted(slices.Values(students))
	out := make(map[int64]string, len(ids))
	taken := make(map[int]bool, len(ids))
	for _, id := range ids {
		k := draw(key, id, 0)
		for try := uint64(1); taken[k] && try < uint64(pseudonymSpace); try++ {
			k = draw(key, id, try)
		}
		taken[k] = true
		out[id] = fmt.Sprintf("%s %d", animals[k%len(animals)], 10+k/len(animals))
	}
	return out
}

// draw is the try-th pseudonym drawn for student, as an index in
// pseudonymSpace: an HMAC under the database's key, which nobody who has
// not read the database can compute.
func draw(key []byte, student int64, try uint64) int {
	m := hmac.New(sha256.New, key)
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(student))
	binary.BigEndian.PutUint64(b[8:], try)
	m.Write(b[:])
	return int(binary.BigEndian.Uint64(m.Sum(nil)[:8]) % uint64(pseudonymSpace))
}
