package botsarena_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"botjudge/games"
	"botjudge/games/botsarena"
	"botjudge/games/fault"
)

func TestMessage(t *testing.T) {
	m := botsarena.Message{GameID: botsarena.GameID(1126), Action: botsarena.Init, Game: "tictactoe", Players: 2, Board: ""}
	want := `{"game-id":"1126","action":"init","game":"tictactoe","players":2,"board":"","player-index":0}`
	if got := string(m.Encode()); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	m.You, m.PlayerIndex = "O", 1
	if got := string(m.Encode()); !strings.HasSuffix(got, `"you":"O","player-index":1}`) {
		t.Errorf("got %s", got)
	}
	if botsarena.GameID(-7) != "-7" || botsarena.GameID(1) == botsarena.GameID(2) {
		t.Error("game ids")
	}
}

func TestJudge(t *testing.T) {
	tests := []struct {
		answer  games.Answer
		play    string
		verdict fault.Kind
		reason  string
	}{
		{games.Answer{Data: json.RawMessage(`{"play":"1-1","comment":"x"}`)}, `"1-1"`, fault.None, ""},
		{games.Answer{Data: json.RawMessage(` {"play": 3} `)}, `3`, fault.None, ""},
		{games.Answer{Data: json.RawMessage(`{"name":"me"}`)}, "", fault.Malformed, `the answer has no "play": {"name":"me"}`},
		{games.Answer{Data: json.RawMessage(`null`)}, "", fault.Malformed, `the answer must be a JSON object like {"play": …}, got null`},
		{games.Answer{Data: json.RawMessage(`[{"play":1}]`)}, "", fault.Malformed, `got [{"play":1}]`},
		{games.Answer{Data: json.RawMessage("\xff\xfe")}, "", fault.Malformed, "got \uFFFD"},
		{games.Answer{Fault: fault.Timeout, Detail: "no answer within 10s"}, "", fault.Timeout, "timeout: no answer within 10s"},
		{games.Answer{Fault: fault.Crash}, "", fault.Crash, "your bot crashed"},
		{games.Answer{Fault: "weird", Detail: "d"}, "", "weird", "weird: d"},
	}
	for _, tt := range tests {
		m, play, ok := botsarena.Judge(1, tt.answer)
		if ok != (tt.verdict == fault.None) || string(play) != tt.play || m.Verdict != tt.verdict || !strings.Contains(m.Reason, tt.reason) || m.Seat != 1 {
			t.Errorf("%+v: got %+v %s %v", tt.answer, m, play, ok)
		}
		if _, err := json.Marshal(m); err != nil {
			t.Errorf("%+v: the move does not encode: %v", tt.answer, err)
		}
	}
}

func TestInitMove(t *testing.T) {
	m := botsarena.InitMove(0, games.Answer{Fault: fault.Output, Detail: "an answer of 70000 bytes"})
	if !m.Unjudged || m.Verdict != fault.None || m.Reason != "init, not judged: answer too long: an answer of 70000 bytes" {
		t.Errorf("%+v", m)
	}
	m = botsarena.InitMove(1, games.Answer{Data: json.RawMessage("hello")})
	if string(m.Answer) != `"hello"` || m.Reason != "init, not judged" {
		t.Errorf("%+v", m)
	}
}

func TestPair(t *testing.T) {
	tests := []struct {
		s      string
		sep    byte
		a, b   int
		wantOK bool
	}{
		{"1-2", '-', 1, 2, true}, {"3,4", ',', 3, 4, true}, {"10,99", ',', 10, 99, true}, {"007,0", ',', 7, 0, true},
		{"999999999,1", ',', 999999999, 1, true},
		{"1234567890,1", ',', 0, 0, false}, {"1,2", '-', 0, 0, false}, {"1-", '-', 0, 0, false}, {"-1", '-', 0, 0, false},
		{"+1,2", ',', 0, 0, false}, {" 1,2", ',', 0, 0, false}, {"1,2,3", ',', 0, 0, false}, {"", ',', 0, 0, false},
		{"١,٢", ',', 0, 0, false},
	}
	for _, tt := range tests {
		a, b, ok := botsarena.Pair(tt.s, tt.sep)
		if ok != tt.wantOK || ok && (a != tt.a || b != tt.b) {
			t.Errorf("Pair(%q, %q) = %d, %d, %v", tt.s, tt.sep, a, b, ok)
		}
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":                                 "nothing",
		"  \n":                             "nothing",
		`{"play":1}`:                       `{"play":1}`,
		strings.Repeat("a", 61):            strings.Repeat("a", 60) + "…",
		strings.Repeat("é", 40):            strings.Repeat("é", 30) + "…",
		strings.Repeat("\x80", 70):         "\uFFFD",
		"a\xffb" + strings.Repeat("c", 80): "a\uFFFDb" + strings.Repeat("c", 55) + "…",
	} {
		if got := botsarena.Quote([]byte(in)); got != want {
			t.Errorf("Quote(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzPlay reads any reply as a play-turn's: it never panics, a reply is
// either a play or a reason, and the reason is short valid UTF-8 that
// stores as it is.
func FuzzPlay(f *testing.F) {
	for _, s := range []string{`{"play":"1-1"}`, `{"play":3,"comment":"c"}`, `{}`, `null`, `[]`, `"x"`, "\x80\x80", `{"play":`, ` {"play":null} `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		play, why := botsarena.Play(data)
		if (play == nil) == (why == "") {
			t.Fatalf("play %q and reason %q", play, why)
		}
		if play != nil && !json.Valid(play) {
			t.Fatalf("play %q is not JSON", play)
		}
		if !utf8.ValidString(why) || len(why) > 200 {
			t.Fatalf("reason %q", why)
		}
		m, _, _ := botsarena.Judge(0, games.Answer{Data: data})
		if _, err := json.Marshal(m); err != nil {
			t.Fatalf("the move of %q does not encode: %v", data, err)
		}
	})
}

// FuzzPair reads any cell: it never panics, and a cell it reads is written
// back the same but for leading zeros.
func FuzzPair(f *testing.F) {
	for _, s := range []string{"1-2", "3,4", "10,10", "-1,0", "1,2,3", "", ",", "999999999,999999999", "01-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, sep := range []byte{'-', ','} {
			a, b, ok := botsarena.Pair(s, sep)
			if !ok {
				continue
			}
			if a < 0 || b < 0 || a > 999999999 || b > 999999999 {
				t.Fatalf("Pair(%q) = %d, %d", s, a, b)
			}
			x, y, _ := strings.Cut(s, string(sep))
			if strings.TrimLeft(x, "0") != strings.TrimLeft(strconv.Itoa(a), "0") || strings.TrimLeft(y, "0") != strings.TrimLeft(strconv.Itoa(b), "0") {
				t.Fatalf("Pair(%q) = %d, %d", s, a, b)
			}
		}
	})
}
