package main

import (
	"io"
	"reflect"
	"testing"

	"botjudge/judge/contest"
)

// The flags of `judge run` default to contest.DefaultConfig: a default
// changed there is changed for the command, and one changed in a flag alone
// fails here.
func TestRunFlagDefaults(t *testing.T) {
	fs, o := newRunFlags(io.Discard)
	if err := parse(fs, nil); err != nil {
		t.Fatal(err)
	}
	got, err := o.config()
	if err != nil {
		t.Fatal(err)
	}
	if want := contest.DefaultConfig(); !reflect.DeepEqual(got, want) {
		t.Errorf("judge run with no flags:\n got %+v\nwant %+v", got, want)
	}
}
