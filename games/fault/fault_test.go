package fault

import "testing"

// Every fault has a class, words in every language of the screen and a
// sentence for its author; anything else has no class and is not counted.
func TestVocabulary(t *testing.T) {
	classes := map[Class]int{}
	for _, f := range All() {
		if f.Kind == None || f.Class == NoClass || f.En == "" || f.Fr == "" || f.Plain == "" {
			t.Errorf("incomplete fault %+v", f)
		}
		if f.Kind.Class() != f.Class {
			t.Errorf("%s: Class() = %q, want %q", f.Kind, f.Kind.Class(), f.Class)
		}
		classes[f.Class]++
	}
	if classes[TimeoutClass] != 1 || classes[CrashClass] == 0 || classes[IllegalClass] == 0 {
		t.Errorf("classes %v: want timeouts, crashes and illegal moves", classes)
	}
	for _, k := range []Kind{None, "pass", "Timeout"} {
		if k.Class() != NoClass {
			t.Errorf("%q is counted as a %s", k, k.Class())
		}
	}
	if Kind("weird").Plain() != "weird" || Timeout.Plain() == "timeout" {
		t.Error("Plain does not say a fault in a sentence")
	}
	// All returns a copy: the vocabulary cannot be changed from outside.
	All()[0].Class = NoClass
	if All()[0].Class == NoClass {
		t.Error("All exposes the list itself")
	}
}

// Beside drops the fault's own name, stored or in words, before a reason,
// and nothing else.
func TestBeside(t *testing.T) {
	for _, c := range []struct {
		k            Kind
		reason, want string
	}{
		{Error, "error: cannot start the bot: php is not installed here", "cannot start the bot: php is not installed here"},
		{OOM, "out of memory: killed at 512 MiB", "killed at 512 MiB"},
		{OOM, "oom: killed", "killed"},
		{Timeout, "error: not mine", "error: not mine"},
		{Timeout, "no answer within 10s", "no answer within 10s"},
		{None, "error: x", "error: x"},
	} {
		if got := c.k.Beside(c.reason); got != c.want {
			t.Errorf("%s.Beside(%q) = %q, want %q", c.k, c.reason, got, c.want)
		}
	}
}
