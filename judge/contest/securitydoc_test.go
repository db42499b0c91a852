package contest

import (
	"os"
	"strings"
	"testing"
)

// TestSecurityDocument: docs/security.md has a row for every hostile case
// (its name, the kinds of bot it is played as, and the verdicts the suite
// expects of each), and none for a case the suite does not play, so that the
// page says what the tests check.
func TestSecurityDocument(t *testing.T) {
	b, err := os.ReadFile("../../docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) != 5 || !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| case ") {
			continue
		}
		rows[strings.TrimPrefix(cells[0], "| ")] = cells
	}
	want := map[string][]string{} // a case's kinds, then its verdicts, in the list's order
	for _, c := range hostileCases {
		want[c.name()] = append(want[c.name()], c.kind())
	}
	for name, kinds := range want {
		row, ok := rows[name]
		if !ok {
			t.Errorf("docs/security.md has no row for hostile case %s", name)
			continue
		}
		if row[1] != strings.Join(kinds, ", ") {
			t.Errorf("%s: the page says it plays as %q, the suite as %q", name, row[1], strings.Join(kinds, ", "))
		}
		for _, c := range hostileCases {
			if c.name() == name && !strings.Contains(row[4], c.verdictWords()) {
				t.Errorf("%s (%s): the page says %q, the suite expects %q", name, c.kind(), strings.TrimSuffix(row[4], " |"), c.verdictWords())
			}
		}
	}
	for name := range rows {
		if want[name] == nil {
			t.Errorf("docs/security.md has a row for %s, which the suite does not play", name)
		}
	}
}

// verdictWords is how the page says what the suite expects of the case.
func (c hostileCase) verdictWords() string {
	if len(c.verdicts) == 0 {
		return "never faulted"
	}
	words := make([]string, len(c.verdicts))
	for i, v := range c.verdicts {
		words[i] = string(v)
	}
	w := strings.Join(words, ", ")
	if c.mayPass {
		w += " or none"
	}
	return w
}
