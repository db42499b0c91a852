package arena

import (
	"regexp"
	"testing"
)

// Pseudonyms are an animal and a number, one per student, the same for the
// same key and id whatever the roster around them, and another with
// another database's key: nobody can compute them from the ids alone.
func TestPseudonyms(t *testing.T) {
	ids := make([]int64, 200)
	for i := range ids {
		ids[i] = int64(i + 1)
	}
	key := []byte("a database's key")
	got := pseudonymsOf(key, ids)
	seen := map[string]int64{}
	shape := regexp.MustCompile(`^[A-Z][a-z]+ [1-9][0-9]$`)
	for _, id := range ids {
		p := got[id]
		if !shape.MatchString(p) {
			t.Errorf("student %d: pseudonym %q, want an animal and a number from 10 to 99", id, p)
		}
		if other, ok := seen[p]; ok {
			t.Errorf("students %d and %d are both %q", other, id, p)
		}
		seen[p] = id
	}
	// A roster that grows keeps its students' pseudonyms: 200 students
	// surely had first draws that met, so the later ones drew again.
	for _, n := range []int{1, 30, 199} {
		for id, p := range pseudonymsOf(key, ids[:n]) {
			if got[id] != p {
				t.Errorf("with %d students, student %d is %q; with 200 %q", n, id, p, got[id])
			}
		}
	}
	same := 0
	for id, p := range pseudonymsOf([]byte("another database's key"), ids) {
		if got[id] == p {
			same++
		}
	}
	if same > 5 {
		t.Errorf("%d of 200 students have the same pseudonym under another key", same)
	}
}

// The words read the same in French and English: one capitalised word of
// plain letters each (no accent to type or to lose), once.
func TestAnimals(t *testing.T) {
	word := regexp.MustCompile(`^[A-Z][a-z]+$`)
	seen := map[string]bool{}
	for _, a := range animals {
		if seen[a] || !word.MatchString(a) {
			t.Errorf("animal %q: want one capitalised word of plain letters, once", a)
		}
		seen[a] = true
	}
}

func TestNamesFlag(t *testing.T) {
	var n Names
	if err := n.Set("pseudonyms"); err != nil || n != Pseudonyms {
		t.Errorf("pseudonyms: %q %v", n, err)
	}
	if err := n.Set("real"); err != nil || n != RealNames {
		t.Errorf("real: %q %v", n, err)
	}
	if err := n.Set("anonymous"); err == nil || n != RealNames {
		t.Errorf("anonymous: %q %v, want refused and unchanged", n, err)
	}
}
