package screen

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"botjudge/games"
	_ "botjudge/games/all"
)

// asksForCSS matches a board module's declaration that it has a stylesheet.
var asksForCSS = regexp.MustCompile(`(?m)^export const css = true;`)

// Every game the judge knows has its board module in the binary (and the
// stylesheet the module asks for), and every board is a known game's:
// adding a game to the screen is adding its module.
func TestEveryGameHasABoard(t *testing.T) {
	names := games.Names()
	for _, name := range names {
		src, err := fs.ReadFile(assets, "assets/boards/"+name+".js")
		if err != nil {
			t.Errorf("game %s has no board module: %v", name, err)
			continue
		}
		if asksForCSS.Match(src) {
			if _, err := fs.Stat(assets, "assets/boards/"+name+".css"); err != nil {
				t.Errorf("the board of %s asks for its stylesheet: %v", name, err)
			}
		}
	}
	files, err := fs.ReadDir(assets, "assets/boards")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if game := strings.TrimSuffix(f.Name(), path.Ext(f.Name())); !slices.Contains(names, game) {
			t.Errorf("assets/boards/%s is the board of no registered game (%v)", f.Name(), names)
		}
	}
}

// comments are what the name check reads past: a comment may say which
// game a board draws.
var comments = regexp.MustCompile(`/\*(?s:.*?)\*/|//.*`)

// The shared pages name no game, and a board module names none outside
// its comments: what is a game's own is in its module, reached by the
// name the server gives.
func TestAssetsNameNoGame(t *testing.T) {
	var words []*regexp.Regexp
	for _, name := range games.Names() {
		// Any case and inside words, as a grep for the names finds them.
		words = append(words, regexp.MustCompile(`(?i)`+regexp.QuoteMeta(name)))
	}
	err := fs.WalkDir(assets, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !slices.Contains([]string{".js", ".css", ".json", ".html"}, path.Ext(p)) {
			return err
		}
		src, err := fs.ReadFile(assets, p)
		if err != nil {
			return err
		}
		code := comments.ReplaceAll(src, nil)
		for _, w := range words {
			if loc := w.FindIndex(code); loc != nil {
				t.Errorf("%s names the game %q outside a comment: …%s…", p, code[loc[0]:loc[1]], code[max(0, loc[0]-40):min(len(code), loc[1]+40)])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
