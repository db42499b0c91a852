package handin

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func TestParseName(t *testing.T) {
	for _, c := range []struct{ written, display, file string }{
		{"Zoé Martin", "Zoé Martin", "zoe-martin"},
		{"  Zoé   Martin-O'Neil ", "Zoé Martin-O'Neil", "zoe-martin-o-neil"},
		{"Zoe\u0301 Martin", "Zoe\u0301 Martin", "zoe-martin"}, // the accent as a combining mark
		{"François Lœvenbruck", "François Lœvenbruck", "francois-loevenbruck"},
		{"Jürgen Straße", "Jürgen Straße", "jurgen-strasse"},
		{"Ærøskøbing Ðorđe", "Ærøskøbing Ðorđe", "aeroskobing-dorde"},
		{"Łukasz Żółć", "Łukasz Żółć", "lukasz-zolc"},
		{"Nguyễn Thị Mai", "Nguyễn Thị Mai", "nguyen-thi-mai"},
		{"Ștefan Țurcan", "Ștefan Țurcan", "stefan-turcan"},
		{"İlkay Işık", "İlkay Işık", "ilkay-isik"},
		{"D’Artagnan (2)", "D’Artagnan (2)", "d-artagnan-2"},
		{"St. John -- Smith", "St. John -- Smith", "st-john-smith"},
		{"bob_2", "bob_2", "bob_2"},
		{"Alice", "Alice", "alice"},
		{"Li Lei 李雷", "Li Lei 李雷", "li-lei"},
		{strings.Repeat("Abcdefghij ", 5), strings.TrimSpace(strings.Repeat("Abcdefghij ", 5)), "abcdefghij-abcdefghij-abcdefghij-abcdefg"},
	} {
		d, f, err := ParseName(c.written)
		if err != nil || d != c.display || f != c.file {
			t.Errorf("ParseName(%q) = %q, %q, %v; want %q, %q", c.written, d, f, err, c.display, c.file)
		}
	}
	for _, c := range []struct{ written, why string }{
		{"李雷", "Latin letters"},
		{"Organiser", "organiser's name"},
		{"<b>x</b>", "letters, digits"},
		{"a/b", "letters, digits"},
		{"", "1 to 60"},
		{strings.Repeat("a", 61), "1 to 60"},
		{"a\tb", "one line"},
		{"\xff", "one line"},
	} {
		if _, _, err := ParseName(c.written); err == nil || !strings.Contains(err.Error(), c.why) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseName(%q): %v, want one line saying %q", c.written, err, c.why)
		}
	}
}

// Every file name is safe as a file's name and in a shell, whatever the
// display name.
func FuzzFileName(f *testing.F) {
	f.Add("Zoé Martin-O'Neil")
	f.Add("../..//x")
	f.Fuzz(func(t *testing.T, s string) {
		n := FileName(s)
		if n != "" && !regexp.MustCompile(`^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$`).MatchString(n) || len(n) > maxFileName || strings.Contains(n, "--") {
			t.Errorf("FileName(%q) = %q", s, n)
		}
	})
}

func TestReadClassList(t *testing.T) {
	for _, c := range []struct {
		name, csv string
		want      []string
	}{
		{"French, ;", "Nom;Prénom\nMartin;Zoé\nLe Guen;Maël\n", []string{"2 Zoé Martin", "3 Maël Le Guen"}},
		{"English, ,", "Last name,First name,Group\nMartin,Zoé,A\n", []string{"2 Zoé Martin"}},
		{"first name first", "PRENOM,NOM\nZoé,Martin\n", []string{"2 Zoé Martin"}},
		{"BOM and CRLF", "\uFEFFnom;prénom\r\nMartin;Zoé\r\n", []string{"2 Zoé Martin"}},
		{"quoted separators", "Nom,Prénom\n\"Martin, dite Zo\",\"Zoé\"\n", []string{"2 Zoé Martin, dite Zo"}},
		{"tab", "Surname\tGiven name\nMartin\tZoé\n", []string{"2 Zoé Martin"}},
		{"one name column", "name,group\ncarol,A\n\nZoé Martin,B\n", []string{"2 carol", "4 Zoé Martin"}},
		{"Last, First in a name column", "Élève\nMartin, Zoé\n\"Le Guen, Maël\"\n", []string{"2 Zoé Martin", "3 Maël Le Guen"}},
		{"no header, one per line", "alice\nbob\n", []string{"1 alice", "2 bob"}},
		{"a first name only", "Nom;Prénom\n;Zoé\nMartin;\n", []string{"2 Zoé", "3 Martin"}},
		{"blank lines and rows", "\n\nNom;Prénom\n;;\n\nMartin;Zoé\n", []string{"6 Zoé Martin"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			list, err := ReadClassList(strings.NewReader(c.csv))
			var got []string
			for _, l := range list {
				got = append(got, fmt.Sprintf("%d %s", l.Line, l.Name))
			}
			if err != nil || strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
	for _, c := range []struct{ name, csv, why string }{
		{"Windows-1252", "Nom;Pr\xe9nom\nMartin;Zo\xe9\n", `line 1 is not UTF-8 text: save the file as "CSV UTF-8"`},
		{"UTF-16", "\xff\xfeN\x00o\x00m\x00", "UTF-16"},
		{"no name column", "id,group\n1,A\n", `no name column in its first line (id, group)`},
		{"empty", "", "no names"},
	} {
		if _, err := ReadClassList(strings.NewReader(c.csv)); err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s: %v, want %q", c.name, err, c.why)
		}
	}
}

// TestClassListGolden reads a school's export as a spreadsheet writes it
// (BOM, ; and CRLF, quotes, a line break inside a quoted cell, columns that
// are not names) into names and bot names.
func TestClassListGolden(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "class-fr.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	list, err := ReadClassList(f)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	for _, l := range list {
		d, file, err := ParseName(l.Name)
		fmt.Fprintf(&got, "line %d: %q -> %s %v\n", l.Line, d, file, err)
	}
	golden := filepath.Join("testdata", "class-fr.golden")
	if *update {
		os.WriteFile(golden, got.Bytes(), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil || !bytes.Equal(got.Bytes(), want) {
		t.Errorf("got:\n%s\nwant (%v):\n%s", got.Bytes(), err, want)
	}
}

// Whatever a file holds, the reader answers names or one line, and every
// name is one line of UTF-8 text, trimmed.
func FuzzReadClassList(f *testing.F) {
	seed, _ := os.ReadFile(filepath.Join("testdata", "class-fr.csv"))
	f.Add(seed)
	f.Add([]byte("name\n\"Martin, Zoé\"\n"))
	f.Add([]byte("Nom,Prénom\n\"a\"\"b\",c\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		list, err := ReadClassList(bytes.NewReader(data))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("a refusal of two lines: %q", err)
			}
			return
		}
		for _, l := range list {
			if l.Name == "" || !utf8.ValidString(l.Name) || l.Name != strings.Join(strings.Fields(l.Name), " ") || l.Line < 1 {
				t.Errorf("name %q on line %d", l.Name, l.Line)
			}
		}
	})
}
