package httpbot

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Ext names the files of bots reached by URL: name.url holds the URL.
const Ext = ".url"

// ByURL tells whether the bot at path (submitted or staged) is reached by
// URL. The case of the extension does not matter: Windows users write .URL.
func ByURL(path string) bool { return strings.EqualFold(filepath.Ext(path), Ext) }

// ErrNotURL wraps what is wrong with a .url file's content; other errors of
// ReadURL are the file's reading.
var ErrNotURL = errors.New("a .url file holds one http:// or https:// URL, e.g. http://192.168.1.20:8080/bot")

// maxURLFile bounds what is read of a .url file: no URL is longer, and a
// 50 MB file is a mistake to report, not to read.
const maxURLFile = 4096

// ReadURL reads the URL a .url file holds. Blanks around it and a
// byte-order mark (which some editors add) are allowed, nothing else.
func ReadURL(path string) (*url.URL, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	content, err := io.ReadAll(io.LimitReader(f, maxURLFile+1))
	if err != nil {
		return nil, err
	}
	if len(content) > maxURLFile {
		return nil, fmt.Errorf("it is longer than %d bytes: %w", maxURLFile, ErrNotURL)
	}
	return parseURL(string(content))
}

func parseURL(content string) (*url.URL, error) {
	s := strings.TrimSpace(strings.TrimPrefix(content, "\ufeff"))
	if s == "" {
		return nil, fmt.Errorf("it is empty: %w", ErrNotURL)
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return nil, fmt.Errorf("it holds more than one word or line: %w", ErrNotURL)
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is quoted by the notice's file already
		}
		return nil, fmt.Errorf("it is not a URL (%v): %w", err, ErrNotURL)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%q is not an http:// or https:// URL: %w", u.Redacted(), ErrNotURL)
	case u.Hostname() == "":
		return nil, fmt.Errorf("%q names no host: %w", u.Redacted(), ErrNotURL)
	}
	return u, nil
}
