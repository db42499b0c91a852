package handin

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"botjudge/results"
)

// Bounds of a name: a display name is a person's name, a file name is what
// is left of it once folded.
const (
	maxDisplay  = 60
	maxFileName = 40
)

// ParseName reads a name as the school writes it ("Zoé Martin-O'Neil"): its
// display name is kept as written (spaces collapsed), its bot's file name is
// derived from it by FileName ("zoe-martin-o-neil"). The error is one line
// saying what to write instead.
func ParseName(written string) (display, file string, err error) {
	if !utf8.ValidString(written) || strings.ContainsFunc(written, unicode.IsControl) {
		return "", "", fmt.Errorf("%q: a name is one line of text: type it again", written)
	}
	display = strings.Join(strings.Fields(written), " ")
	if n := utf8.RuneCountInString(display); n == 0 || n > maxDisplay {
		return "", "", fmt.Errorf("%q: give a name of 1 to %d letters", written, maxDisplay)
	}
	for _, r := range display {
		if !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" -'’.()_", r) {
			return "", "", fmt.Errorf("%q: a name is letters, digits, spaces and - ' . ( ) _ only", written)
		}
	}
	file = FileName(display)
	switch {
	case file == "":
		return "", "", fmt.Errorf("%q: no Latin letter or digit to name the bot's file: add the name in Latin letters, e.g. %q", written, display+" (Li Lei)")
	case strings.EqualFold(file, results.OrganiserName):
		return "", "", fmt.Errorf("%q is the organiser's name", written)
	}
	return display, file, nil
}

// FileName derives a bot's file name from a display name: letters folded to
// ASCII (é to e, ç to c, œ to oe, ß to ss), lower case, digits and _ kept,
// every other run of characters (spaces, apostrophes, hyphens, letters with
// no Latin form) one -, none at either end, at most maxFileName bytes. A
// file name is the same on every file system and in every shell, and it is
// how a student is found when they type their name in any of its forms.
func FileName(display string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(display) {
		s, ok := foldRune(r)
		switch {
		case ok && s == "":
			// a combining accent: the letter before it stands
		case ok:
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteString(s)
		default:
			dash = true
		}
	}
	f := b.String()
	if len(f) > maxFileName {
		f = f[:maxFileName]
	}
	return strings.Trim(f, "-_")
}

// foldRune is r (lower case) in ASCII letters and digits: ok is false for a
// separator or a letter with no Latin form, s is "" for a combining mark.
func foldRune(r rune) (s string, ok bool) {
	switch {
	case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
		return string(r), true
	case unicode.Is(unicode.Mn, r):
		return "", true
	}
	if s, ok := foldSpecial[r]; ok {
		return s, true
	}
	for _, t := range foldTables {
		if r >= t.first && int(r-t.first) < len(t.bases) {
			if c := t.bases[r-t.first]; c != '.' {
				return string(c), true
			}
		}
	}
	return "", false
}

// foldTables give the base letter of each accented Latin letter of a
// Unicode block, lower and upper case alike, '.' where there is none: the
// letters of French, Spanish, Portuguese, German, the Nordic, Central
// European, Turkish, Romanian and Vietnamese names. (The standard library
// has no Unicode decomposition, and no dependency is added for one table.)
var foldTables = []struct {
	first rune
	bases string
}{
	{0xC0, "aaaaaa.ceeeeiiiidnooooo.ouuuuy.saaaaaa.ceeeeiiiidnooooo.ouuuuy.y"},
	{0x100, "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii..jjkkkllllllllllnnnnnnnnnoooooo..rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs"},
	{0x1A0, "oo.............uu"},
	{0x1CD, "aaiioouuuuuuuuuu"},
	{0x218, "sstt"},
	{0x1EA0, "aaaaaaaaaaaaaaaaaaaaaaaaeeeeeeeeeeeeeeeeiiiioooooooooooooooooooooooouuuuuuuuuuuuuuyyyyyyyy"},
}

// foldSpecial are the letters that fold to two, or that the tables leave out.
var foldSpecial = map[rune]string{
	'æ': "ae", 'œ': "oe", 'ß': "ss", 'ĳ': "ij", 'þ': "th", 'ƒ': "f",
}

// NameForms are the roster's file names a typed name may mean: as typed (a
// name put on the roster before display names, "Zoé"), then derived as from
// a display name ("zoé martin", "Zoe Martin" and "zoe-martin" all mean
// zoe-martin). The last is the name's key for counting failed log-ins.
func NameForms(typed string) []string {
	typed = strings.TrimSpace(typed)
	if f := FileName(typed); f != "" && f != typed {
		return []string{typed, f}
	}
	return []string{typed}
}
