package httpbot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// parseAnswer reads an answer's body by the rules of a program bot's output
// (the harness's parse_output, in the same words): exactly one JSON value in
// UTF-8, blanks around it allowed. It returns the value compacted, as the
// sandbox returns every answer, or why it is not an answer.
func parseAnswer(body []byte) (json.RawMessage, string) {
	if !utf8.Valid(body) {
		return nil, "the body is not UTF-8: " + excerpt(body)
	}
	text := bytes.TrimSpace(body)
	if len(text) == 0 {
		return nil, "an empty body"
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	var value json.RawMessage
	if err := dec.Decode(&value); err != nil {
		return nil, fmt.Sprintf("not JSON (%v): %s", err, excerpt(body))
	}
	if len(bytes.TrimSpace(text[dec.InputOffset():])) > 0 {
		return nil, "more than one JSON value: " + excerpt(body)
	}
	var data bytes.Buffer
	_ = json.Compact(&data, value) // a decoded value is valid JSON
	return data.Bytes(), ""
}

// excerptLen is how much of a bot's body a detail quotes, as the harness.
const excerptLen = 80

// excerpt quotes the beginning of what a bot sent, safe to print anywhere.
func excerpt(b []byte) string {
	s := string(b[:min(len(b), excerptLen)])
	q := strconv.Quote(strings.ToValidUTF8(s, "\uFFFD"))
	if len(b) > excerptLen {
		q += "…"
	}
	return q
}
