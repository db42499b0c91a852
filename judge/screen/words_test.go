package screen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"botjudge/judge/screen/browsertest"
	"botjudge/results"

	_ "botjudge/judge/contest" // says why a bot is not asked
)

// frenchSaid is what the judge records in English, as the French screen
// says it.
var frenchSaid = map[string]string{
	"grid full":                     "grille pleine",
	"20 turns without a placement":  "20 tours sans pose",
	"timeout: not ready within 15s": "temps dépassé : pas prêt en 15s",
	"not asked: given up for this game after 3 timeouts in a row": "pas interrogé : abandonné pour cette partie après 3 dépassements de temps d'affilée",
	"not asked: given up for this game after 1 timeout in a row":  "pas interrogé : abandonné pour cette partie après 1 dépassement de temps d'affilée",
	// Recorded before the singular: French says 1 in the singular.
	"alice is the last one alive, after 1 turns":  "alice est le dernier en vie, après 1 tour",
	"alice is the last one alive, after 12 turns": "alice est le dernier en vie, après 12 tours",
	"bob lost: timeout: not ready within 15s":     "bob a perdu : temps dépassé : pas prêt en 15s",
	// Said by the harness (PHP on a host without it, plain runner).
	"cannot start the bot: php is not installed here": "impossible de lancer le bot : php n'est pas installé ici",
	"a sentence the judge never wrote":                "a sentence the judge never wrote",
}

// TestWordsInBothLanguages: the sentences the judge records (how a game
// ended, why a bot was not asked) are said in French on a French screen,
// counts take the singular where each language does, and the TV of a
// finished tournament says so instead of waiting for a next game.
func TestWordsInBothLanguages(t *testing.T) {
	p, ctx, srv := browse(t, "")
	for _, lang := range []string{"en", "fr"} {
		if err := p.SetHeaders(ctx, map[string]string{"Accept-Language": lang}); err != nil {
			t.Fatal(err)
		}
		open := func(path, ready string) {
			t.Helper()
			if err := p.Navigate(ctx, srv.URL+path); err != nil {
				t.Fatal(err)
			}
			wait(t, ctx, p, fmt.Sprintf(`document.documentElement.lang === %q && (%s)`, lang, ready))
		}
		open(fmt.Sprintf("/t/%d/schedule", fix.virus.t.ID), `document.querySelector('p.rounds')?.textContent && document.querySelector('.games.done .gres')`)
		checkSaid(t, ctx, p, lang)
		rounds := map[string]string{"en": "The round is played.", "fr": "La ronde est jouée."}[lang]
		if got := eval[string](t, ctx, p, `document.querySelector('p.rounds').textContent`); got != rounds {
			t.Errorf("%s: one round played: %q, want %q", lang, got, rounds)
		}
		checkReasons(t, ctx, p, lang)
		screenshot(t, ctx, p, "schedule-words-"+lang)
		open(fmt.Sprintf("/t/%d/schedule", fix.swiss.t.ID), `document.querySelector('p.rounds')?.textContent`)
		rounds = map[string]string{"en": "All 5 rounds played.", "fr": "Les 5 rondes sont jouées."}[lang]
		if got := eval[string](t, ctx, p, `document.querySelector('p.rounds').textContent`); got != rounds {
			t.Errorf("%s: five rounds played: %q, want %q", lang, got, rounds)
		}
		open(fmt.Sprintf("/t/%d/tv", fix.virus.t.ID), `document.querySelector('.tv-view .message')?.offsetParent`)
		over := map[string]string{"en": "The tournament is over", "fr": "Le tournoi est terminé"}[lang]
		got := eval[[2]string](t, ctx, p, `[document.querySelector('.tv-view .message').textContent, document.querySelector('.tv-view .message a')?.getAttribute('href') ?? '']`)
		if !strings.HasPrefix(got[0], over) || got[1] != fmt.Sprintf("/t/%d", fix.virus.t.ID) {
			t.Errorf("%s: the TV of a finished tournament says %q, links to %q", lang, got[0], got[1])
		}
		screenshot(t, ctx, p, "tv-over-"+lang)
	}
	// A sparring game's logo leads back to the hand-in (viewGame's home).
	home := eval[string](t, ctx, p, `import('/assets/header.js').then((m) => m.header(null, null, '/hand-in/')).then(() => document.querySelector('#top a.brand').getAttribute('href'))`)
	if home != "/hand-in/" {
		t.Errorf("the logo leads to %q, want /hand-in/", home)
	}
}

// checkSaid checks the page's say on the sentences of frenchSaid.
func checkSaid(t *testing.T, ctx context.Context, p *browsertest.Page, lang string) {
	t.Helper()
	in, _ := json.Marshal(frenchSaid)
	got := eval[map[string]string](t, ctx, p, fmt.Sprintf(`import('/assets/util.js').then((m) => Object.fromEntries(Object.keys(%s).map((k) => [k, m.say(k)])))`, in))
	for en, fr := range frenchSaid {
		want := map[string]string{"en": en, "fr": fr}[lang]
		if got[en] != want {
			t.Errorf("%s: %q is said %q, want %q", lang, en, got[en], want)
		}
	}
}

// checkReasons checks that the games played are listed with how they
// ended in the page's language.
func checkReasons(t *testing.T, ctx context.Context, p *browsertest.Page, lang string) {
	t.Helper()
	list, err := fix.db.Games(context.Background(), fix.virus.t.ID, results.GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	texts := eval[[]string](t, ctx, p, `[...document.querySelectorAll('.games.done .gres')].map((e) => e.textContent)`)
	page := strings.Join(texts, "\n")
	for _, g := range list {
		want := g.Reason
		if lang == "fr" {
			want = frenchSaid[g.Reason]
		}
		if want == "" {
			t.Fatalf("no French known for %q", g.Reason)
		}
		if !strings.Contains(page, " · "+want) {
			t.Errorf("%s: no game listed as ended by %q in\n%s", lang, want, page)
		}
	}
}
