// Package fault is the one vocabulary of bot faults, shared by the rules, the
// sandbox, the results, the command line and the screen: each fault's name as
// stored, its class (the standings' columns: timeout, crash, illegal) and its
// words in every language of the screen. It depends on nothing, so that the
// sandbox and the results can use it without knowing any game.
package fault

import "strings"

// Kind names a fault. The empty Kind is no fault: the answer was usable.
type Kind string

const (
	None      Kind = ""
	Illegal   Kind = "illegal"   // a well-formed move that the rules forbid
	Malformed Kind = "malformed" // an answer that is not a move at all
	Error     Kind = "error"     // the bot raised an exception or exited non-zero
	Timeout   Kind = "timeout"   // no answer within the limit
	Crash     Kind = "crash"     // the bot's process died (a signal, a killed harness)
	OOM       Kind = "oom"       // killed for using too much memory
	Output    Kind = "output"    // an answer larger than the limit
	Build     Kind = "build"     // the bot did not compile: it never ran
)

// Class is the standings' column a fault is counted in.
type Class string

const (
	NoClass      Class = ""
	TimeoutClass Class = "timeout"
	CrashClass   Class = "crash"
	IllegalClass Class = "illegal"
)

// Info is everything known of one Kind.
type Info struct {
	Kind  Kind   `json:"kind"`
	Class Class  `json:"class"`
	En    string `json:"en"` // a few words, for the screen and tables
	Fr    string `json:"fr"`
	// Plain says it to the bot's author in a sentence, for `judge check`.
	Plain string `json:"plain"`
}

// all lists every fault in the order tables show them.
var all = []Info{
	{Timeout, TimeoutClass, "timeout", "temps dépassé", "too slow: no answer within the time limit"},
	{Error, CrashClass, "error", "erreur", "your code raised an error"},
	{Crash, CrashClass, "crash", "plantage", "your bot crashed"},
	{OOM, CrashClass, "out of memory", "mémoire épuisée", "out of memory"},
	{Output, CrashClass, "answer too long", "réponse trop longue", "answer too large"},
	{Build, CrashClass, "did not compile", "ne compile pas", "your bot did not compile"},
	{Illegal, IllegalClass, "illegal move", "coup illégal", "illegal move"},
	{Malformed, IllegalClass, "not a move", "pas un coup", "the answer is not a move"},
}

// All lists every fault, for whoever shows them (the screen fetches it).
func All() []Info { return append([]Info(nil), all...) }

// Lookup returns what is known of k; ok is false for None and for a name
// that is not a fault.
func Lookup(k Kind) (Info, bool) {
	for _, f := range all {
		if f.Kind == k {
			return f, true
		}
	}
	return Info{}, false
}

// Class is k's column in the standings; NoClass for None and unknown names,
// which are not counted.
func (k Kind) Class() Class {
	f, _ := Lookup(k)
	return f.Class
}

// Plain is k in a sentence for the bot's author; an unknown name is said as
// it is.
func (k Kind) Plain() string {
	if f, ok := Lookup(k); ok {
		return f.Plain
	}
	return string(k)
}

// Beside is reason, a fault's reason as the rules record it, said beside
// k's own label: without k's name before it. The rules name the fault in
// the reason ("timeout: no answer within 10s", botsarena.FaultReason),
// which a line that shows k already would say twice ("timeout: timeout:
// …").
func (k Kind) Beside(reason string) string {
	if k == None {
		return reason
	}
	names := []string{string(k)}
	if f, ok := Lookup(k); ok {
		names = append(names, f.En)
	}
	for _, n := range names {
		if rest, ok := strings.CutPrefix(reason, n+": "); ok {
			return rest
		}
	}
	return reason
}
