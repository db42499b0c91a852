// Package botsarena is the message format shared by the botsArena games
// (tic-tac-toe, connect four, battleship, Tron; SPEC §3): the judge sends
// {"game-id", "action", "game", "players", "board", "you", "player-index"}
// and a bot answers {"name": …} to init and {"play": …} to play-turn. It
// also holds what those games judge alike: a reply read as an object, a
// fault said in the author's words, cells written "1-2" or "3,4", and the
// outcomes of a duel.
package botsarena

import (
	"botjudge/games/phrase"
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"botjudge/games"
	"botjudge/games/fault"
)

// Actions of a message.
const (
	Init     = "init"
	PlayTurn = "play-turn"
)

// Message is one request to a bot. You is left out when nil (Tron and
// battleship have no mark); PlayerIndex is always present, 0 included.
type Message struct {
	GameID      string `json:"game-id"`
	Action      string `json:"action"`
	Game        string `json:"game"`
	Players     int    `json:"players"`
	Board       any    `json:"board"`
	You         any    `json:"you,omitempty"`
	PlayerIndex int    `json:"player-index"`
}

// GameID is a game's id as its bots see it: the same for every seat, and
// the same when the game is replayed from its seed.
func GameID(seed int64) string { return strconv.FormatInt(seed, 10) }

// Encode is the message's JSON. Messages are built of plain values, which
// always encode.
func (m Message) Encode() json.RawMessage { return Encode(m) }

// InitMove records a reply to init that the rules do not judge (tic-tac-toe,
// connect four, Tron): the game goes on whatever the bot said, and what it
// said is kept for its author.
func InitMove(seat int, a games.Answer) games.Move {
	m := games.Move{Seat: seat, Answer: Recorded(a.Data), Unjudged: true, Reason: "init, not judged"}
	if a.Fault != fault.None {
		m.Reason += ": " + FaultReason(a)
	}
	return m
}

// Judge reads seat's reply to a play-turn, in a game where any fault of a
// judged answer loses. ok says the reply has a "play", given back; when it
// has none, or the bot gave no answer, the Move holds the verdict and says
// why.
func Judge(seat int, a games.Answer) (m games.Move, play json.RawMessage, ok bool) {
	m = games.Move{Seat: seat, Answer: Recorded(a.Data)}
	if a.Fault != fault.None {
		m.Verdict, m.Reason = a.Fault, FaultReason(a)
		return m, nil, false
	}
	play, why := Play(a.Data)
	if why != "" {
		m.Verdict, m.Reason = fault.Malformed, why
		return m, nil, false
	}
	return m, play, true
}

// Object reads a reply as a JSON object, telling it apart from null, arrays
// and other values that json.Unmarshal would accept or turn into a nil map.
func Object(data []byte) (map[string]json.RawMessage, bool) {
	data = bytes.TrimSpace(data)
	var obj map[string]json.RawMessage
	if len(data) == 0 || data[0] != '{' || json.Unmarshal(data, &obj) != nil {
		return nil, false
	}
	return obj, true
}

// Play reads a play-turn reply {"play": …}; other keys (a comment) are
// ignored. why says in the author's terms what is wrong, "" when the reply
// has a play.
func Play(data []byte) (play json.RawMessage, why string) {
	reply, ok := Object(data)
	if !ok {
		return nil, fmt.Sprintf(`the answer must be a JSON object like {"play": …}, got %s`, Quote(data))
	}
	play, ok = reply["play"]
	if !ok {
		return nil, fmt.Sprintf(`the answer has no "play": %s`, Quote(data))
	}
	return play, ""
}

// String reads a JSON string, refusing null and other types.
func String(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// Pair reads two numbers joined by sep, as botsArena writes cells ("1-2",
// "3,4"): decimal digits only, without sign or space, up to 9 each.
func Pair(s string, sep byte) (a, b int, ok bool) {
	x, y, found := strings.Cut(s, string(sep))
	if !found {
		return 0, 0, false
	}
	a, okA := digits(x)
	b, okB := digits(y)
	return a, b, okA && okB
}

func digits(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// FaultReason says a fault to the bot's author: the fault's words and the
// sandbox's detail ("timeout: no answer within 10s"), or a sentence when
// there is no detail.
func FaultReason(a games.Answer) string {
	info, ok := fault.Lookup(a.Fault)
	switch {
	case a.Detail == "":
		return a.Fault.Plain()
	case ok:
		return info.En + ": " + a.Detail
	}
	return string(a.Fault) + ": " + a.Detail
}

// Lost says why a seat lost a duel.
var Lost = phrase.Of("{1} lost: {2}", "{1} a perdu : {2}")

// Won is the outcome of a duel won by seat winner.
func Won(winner int, reason string) games.Outcome {
	rank := []int{2, 2}
	rank[winner] = 1
	return games.Outcome{Rank: rank, Reason: reason}
}

// Drawn is the outcome of a drawn duel.
func Drawn(reason string) games.Outcome {
	return games.Outcome{Rank: []int{1, 1}, Reason: reason}
}

// Recorded is an answer as a Move keeps it: a Move must always encode, so an
// answer that is not JSON is kept as a JSON string of its text.
func Recorded(data []byte) json.RawMessage {
	if len(data) == 0 || json.Valid(data) {
		return data
	}
	b, _ := json.Marshal(strings.ToValidUTF8(string(data), "\uFFFD"))
	return b
}

// Quote shows a bot's answer in a reason, shortened: it may be 64 KiB long,
// and it is kept valid UTF-8 so that the reason stores and shows well.
func Quote(raw []byte) string {
	const limit = 60
	s := strings.ToValidUTF8(strings.TrimSpace(string(raw)), "\uFFFD")
	if s == "" {
		return "nothing"
	}
	if len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return s[:cut] + "…"
	}
	return s
}

// Encode marshals values built by the games, which always encode.
func Encode(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("botsarena: " + err.Error())
	}
	return b
}
