package httpbot

import (
	"bytes"
	"encoding/json"
	"errors"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

func TestParseAnswer(t *testing.T) {
	cases := []struct {
		body, data, why string
	}{
		{" {\"move\": \"07\"}\r\n", `{"move":"07"}`, ""},
		{"[1,\n 2]", `[1,2]`, ""},
		{`"x"`, `"x"`, ""},
		{"", "", "an empty body"},
		{" \n\t", "", "an empty body"},
		{"hello", "", `not JSON (invalid character 'h' looking for beginning of value): "hello"`},
		{`{"move":`, "", "not JSON (unexpected EOF)"},
		{`{"a":1} {"b":2}`, "", `more than one JSON value: "{\"a\":1} {\"b\":2}"`},
		{`123abc`, "", "more than one JSON value"},
		{"NaN", "", "not JSON"},
		{"\"\xff\"", "", "the body is not UTF-8: \"\\\"\ufffd\\\"\""},
		{"<html>" + strings.Repeat("x", 200), "", `…`},
	}
	for _, c := range cases {
		data, why := parseAnswer([]byte(c.body))
		if string(data) != c.data || !strings.Contains(why, c.why) || (c.why == "") != (why == "") {
			t.Errorf("parseAnswer(%q) = %s, %q; want %s, %q", c.body, data, why, c.data, c.why)
		}
	}
}

// FuzzParseAnswer: whatever a server sends, the parser neither panics nor
// lets through anything but one JSON value, and takes every UTF-8 body that
// is one.
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{`{"move":"00"}`, " [1, 2] ", "{} {}", "1 2", "\xff", "", "nul", `"\ud800"`, "[[[[", "\u00a0{}\u0085"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		data, why := parseAnswer(body)
		want := utf8.Valid(body) && json.Valid(bytes.TrimSpace(body))
		if (why == "") != want {
			t.Fatalf("parseAnswer(%q): accepted %v (%q), want %v", body, why == "", why, want)
		}
		if why != "" {
			if data != nil || !utf8.ValidString(why) {
				t.Fatalf("parseAnswer(%q) = %q, %q: a refusal with data, or not printable", body, data, why)
			}
			return
		}
		var compact bytes.Buffer
		if json.Compact(&compact, bytes.TrimSpace(body)) != nil || !bytes.Equal(data, compact.Bytes()) {
			t.Fatalf("parseAnswer(%q) = %q, not the body compacted", body, data)
		}
	})
}

func TestReadURL(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ content, url, why string }{
		{"http://127.0.0.1:8080/bot\n", "http://127.0.0.1:8080/bot", ""},
		{"\ufeff  https://example.org/a?b=c \r\n", "https://example.org/a?b=c", ""},
		{"", "", "it is empty"},
		{"http://a/ http://b/", "", "more than one word or line"},
		{"http://a/\nhttp://b/", "", "more than one word or line"},
		{"ftp://example.org/", "", `"ftp://example.org/" is not an http:// or https:// URL`},
		{"example.org:8080", "", "is not an http:// or https:// URL"},
		{"http:///path", "", "names no host"},
		{"http://[::1/", "", "it is not a URL (missing ']' in host)"},
		{"https://user:secret@example.org:x/", "", "it is not a URL"},
		{"http://user:secret@/", "", `"http://user:xxxxx@/" names no host`},
		{strings.Repeat("a", maxURLFile+1), "", "longer than 4096 bytes"},
	}
	for _, c := range cases {
		path := dir + "/bot.url"
		if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		u, err := ReadURL(path)
		switch {
		case c.why == "" && (err != nil || u.String() != c.url):
			t.Errorf("ReadURL(%q) = %v, %v; want %s", c.content, u, err, c.url)
		case c.why != "" && (!errors.Is(err, ErrNotURL) || !strings.Contains(err.Error(), c.why)):
			t.Errorf("ReadURL(%q) = %v, %v; want ErrNotURL and %q", c.content, u, err, c.why)
		case c.why != "" && strings.Contains(err.Error(), "secret"):
			t.Errorf("ReadURL(%q): the error %q shows the password", c.content, err)
		}
	}
	if _, err := ReadURL(dir + "/missing.url"); err == nil || errors.Is(err, ErrNotURL) {
		t.Errorf("ReadURL of a missing file = %v, want a reading error", err)
	}
}

// TestUnreachableWords covers what a local test server cannot produce: a
// host that does not resolve, and a judge out of sockets (its own failure).
func TestUnreachableWords(t *testing.T) {
	u, _ := url.Parse("http://bot.invalid:8080/")
	dns := &url.Error{Op: "Post", URL: u.String(), Err: &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "bot.invalid", IsNotFound: true}}}
	if got, want := unreachable(dns, u, ""), "cannot find the host bot.invalid: no such host"; got != want {
		t.Errorf("unreachable(DNS) = %q, want %q", got, want)
	}
	other := &url.Error{Op: "Post", URL: u.String(), Err: errors.New("something odd")}
	if got, want := unreachable(other, u, ""), "cannot reach the bot: something odd"; got != want {
		t.Errorf("unreachable(other) = %q, want %q", got, want)
	}
	emfile := &url.Error{Op: "Post", URL: u.String(), Err: &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("socket", syscall.EMFILE)}}
	if !judgesOwn(emfile) || judgesOwn(dns) {
		t.Errorf("judgesOwn: EMFILE %v, DNS %v; want true, false", judgesOwn(emfile), judgesOwn(dns))
	}
}
