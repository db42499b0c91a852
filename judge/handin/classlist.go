package handin

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// Listed is one name of a class list, with the line it is on.
type Listed struct {
	Line int
	Name string
}

// maxClassList bounds a class list: a school's export of a few classes is
// tens of kilobytes.
const maxClassList = 4 << 20

// Header words of a class list, as FileName folds them: French and English
// exports, "Nom;Prénom" or "Last name,First name", or one column of full
// names. "nom" alone is the last name beside a first name column, else the
// full name.
var (
	firstWords = []string{"prenom", "prenoms", "first-name", "firstname", "first", "given-name", "forename"}
	lastWords  = []string{"nom", "last-name", "lastname", "last", "surname", "family-name", "nom-de-famille", "nom-d-usage"}
	fullWords  = []string{"nom", "name", "names", "full-name", "nom-complet", "nom-prenom", "nom-et-prenom", "prenom-nom", "eleve", "eleves", "student", "students", "identite"}
)

// ReadClassList reads the names of a class list exported from a school's
// system: a header line naming the columns (last and first name, joined as
// "First Last", or one column of names; other columns ignored), separated
// by ; or , or a tab (whichever the header uses), UTF-8 with or without a
// byte order mark, fields quoted or not. A list of names one per line, with
// no header, is read too. The names are as written: ParseName checks them.
func ReadClassList(r io.Reader) ([]Listed, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxClassList+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxClassList {
		return nil, fmt.Errorf("larger than %d MiB: give the class list only", maxClassList>>20)
	}
	if data, err = plainText(data); err != nil {
		return nil, err
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.Comma, cr.LazyQuotes, cr.FieldsPerRecord, cr.TrimLeadingSpace = separator(data), true, -1, true
	var rows [][]string
	var lines []int
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		line, _ := cr.FieldPos(0)
		rows, lines = append(rows, rec), append(lines, line)
	}
	pick, body, err := columns(rows)
	if err != nil {
		return nil, err
	}
	var out []Listed
	for i := body; i < len(rows); i++ {
		if n := pick(rows[i]); n != "" {
			out = append(out, Listed{Line: lines[i], Name: n})
		}
	}
	return out, nil
}

// plainText is data without its byte order mark, or why it is not UTF-8.
func plainText(data []byte) ([]byte, error) {
	if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		return nil, errors.New(`UTF-16 text: save it as "CSV UTF-8" from the spreadsheet`)
	}
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return nil, fmt.Errorf(`line %d is not UTF-8 text: save the file as "CSV UTF-8" from the spreadsheet`, bytes.Count(data[:i], []byte("\n"))+1)
		}
		i += n
	}
	return data, nil
}

// separator is the one of ; , and tab the header line uses most, outside
// quotes; with none (a list of full names), one no name holds, so that
// "Martin, Zoé" stays one name.
func separator(data []byte) rune {
	first, _, _ := bytes.Cut(bytes.TrimLeft(data, "\r\n"), []byte("\n"))
	counts := map[rune]int{}
	quoted := false
	for _, r := range string(first) {
		if r == '"' {
			quoted = !quoted
		} else if !quoted {
			counts[r]++
		}
	}
	best := '\x1f'
	for _, r := range []rune{';', ',', '\t'} {
		if counts[r] > counts[best] {
			best = r
		}
	}
	return best
}

// columns reads the header row: pick makes a name of a row, body is the
// first row of names. A list with no header is one column of names.
func columns(rows [][]string) (pick func([]string) string, body int, err error) {
	if len(rows) == 0 {
		return nil, 0, errors.New("no names in it")
	}
	find := func(words []string) int {
		return slices.IndexFunc(rows[0], func(h string) bool { return slices.Contains(words, FileName(h)) })
	}
	first, last, full := find(firstWords), find(lastWords), find(fullWords)
	switch {
	case first >= 0 && last >= 0:
		return func(row []string) string { return join(cell(row, first), cell(row, last)) }, 1, nil
	case full >= 0 || last >= 0:
		col := max(full, last)
		return func(row []string) string { return fullName(cell(row, col)) }, 1, nil
	case !slices.ContainsFunc(rows, func(row []string) bool { return len(row) > 1 }):
		return func(row []string) string { return fullName(cell(row, 0)) }, 0, nil
	}
	return nil, 0, fmt.Errorf(`no name column in its first line (%s): name them "nom" and "prénom", "last name" and "first name", or "name"`, strings.Join(rows[0], ", "))
}

// cell is row's field i, spaces collapsed; "" when the row is shorter.
func cell(row []string, i int) string {
	if i >= len(row) {
		return ""
	}
	return strings.Join(strings.Fields(row[i]), " ")
}

// join is "First Last", either alone when the other is empty.
func join(first, last string) string {
	return strings.TrimSpace(first + " " + last)
}

// fullName reads a full name as written, "Last, First" turned round.
func fullName(s string) string {
	if last, first, ok := strings.Cut(s, ","); ok && !strings.Contains(first, ",") {
		return join(strings.TrimSpace(first), strings.TrimSpace(last))
	}
	return s
}
