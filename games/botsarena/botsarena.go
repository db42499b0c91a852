// Package botsarena is the message format shared by the botsArena games
// (tic-tac-toe, connect four, battleship, Tron; SPEC §3): the judge sends
// {"game-id", "action", "game", "players", "board", "you", "player-index"}
// and a bot answers {"name": …} to init and {"play": …} to play-turn.
package botsarena

import (
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

// Message is one request to a bot. You is left out when nil (Tron has no
// mark); PlayerIndex is always present, 0 included.
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

// Play reads a play-turn reply {"play": …}; other keys (a comment) are
// ignored. why says in the author's terms what is wrong, "" when the reply
// has a play.
func Play(data []byte) (play json.RawMessage, why string) {
	data = bytes.TrimSpace(data)
	var reply map[string]json.RawMessage
	if len(data) == 0 || data[0] != '{' || json.Unmarshal(data, &reply) != nil {
		return nil, fmt.Sprintf(`the answer must be a JSON object like {"play": …}, got %s`, Quote(data))
	}
	play, ok := reply["play"]
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

// FaultReason is the reason a fault gives: the sandbox's detail, or its kind.
func FaultReason(a games.Answer) string {
	if a.Detail == "" {
		return string(a.Fault)
	}
	return a.Detail
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

// Quote shows a bot's answer in a reason, shortened: it may be 64 KiB long.
func Quote(raw []byte) string {
	const limit = 60
	s := strings.TrimSpace(string(raw))
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
