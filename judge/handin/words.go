package handin

import (
	"fmt"
	"html/template"
	"strings"
	"time"
	"unicode/utf8"

	"botjudge/games"
	"botjudge/games/fault"
)

// words are the pages' strings, in the screen's two languages.
var words = map[string]map[string]string{
	"en": {
		"title":             "Hand-in",
		"login.title":       "Log in to hand in your bot",
		"login.name":        "Your name (as on your slip)",
		"login.code":        "Your code",
		"login.go":          "Log in",
		"login.wrong":       "Wrong name or code: check your slip, or ask the organiser for a new code.",
		"logout":            "Log out",
		"deadline":          "Deadline: %s",
		"deadline.passed":   "Hand-ins are closed: the deadline was %s.",
		"hand.in":           "Hand in",
		"hand.help":         "One file (.py, .js, .coffee, .php, .c, .cpp, .java, .ml, or a script with #!), or a folder as a .zip or .tar; at most %d KiB.",
		"hand.help.ia":      "One Python file (.py) defining ia(game, side); at most %d KiB.",
		"versions":          "Your versions",
		"versions.of":       "Versions %s",
		"late":              "after the deadline: not played",
		"progress.queued":   "Waiting for its turn to be checked (handed in %[1]s ago). This page follows the check by itself.",
		"progress.checking": "Being checked: its first answer, then a whole game against itself (handed in %[1]s ago). This page follows the check by itself.",
		"progress.playing":  "Checked; playing sparring games against the example bots: %d played (handed in %s ago).",
		"none":              "Nothing handed in yet.",
		"current":           "in the tournament",
		"status.queued":     "waiting for its check",
		"status.checking":   "being checked",
		"status.playing":    "playing sparring games",
		"status.done":       "checked",
		"status.failed":     "not checked: the judge failed, ask the organiser",
		"ready":             "READY: your bot played a whole game without a fault.",
		"not.ready":         "NOT READY",
		"build.failed":      "Your bot did not compile:",
		"compiled":          "Compiled.",
		"first.refused":     "Your bot failed at its first request (%s):",
		"first.ok":          "First answer accepted: %.0f ms of CPU.",
		"game.end":          "Game against itself: %d moves, %s. Slowest answer %.0f ms of CPU.",
		"game.stopped":      "Game against itself: stopped after %d moves, enough to try every kind of turn. Slowest answer %.0f ms of CPU.",
		"fault.line":        "move %d: %s: %s",
		"timed.out":         "Stopped at this timeout: a tournament stops asking a bot that keeps timing out.",
		"log":               "What your bot printed (its log)",
		"sparring":          "Sparring games against the example bots",
		"replay":            "replay",
		"result.win":        "won",
		"result.loss":       "lost",
		"result.draw":       "draw",
		"vs":                "against %s",
		"files":             "Files",
		"download":          "Download this version",
		"restore":           "Make this version the one in the tournament",
		"back":              "Back",
		"organiser.title":   "Hand-ins: every student",
		"student":           "Student",
		"versions.n":        "%d versions",
		"versions.n.one":    "%d version",
		"nothing":           "—",
		"not.found":         "Not found, or not yours.",
		"not.open":          "This game is not open for hand-in.",
		"organiser.only":    "Only the organiser can do that.",
		"restore.late":      "This version was handed in after the deadline (%s): the tournament plays the versions from before it.",
		"upload.big":        "Too big: a hand-in is at most %d KiB. Hand in your sources only.",
		"upload.none":       "Choose a file to hand in.",
		"wait":              "Too many attempts: wait %d seconds and try again.",
		"error":             "The judge failed to do this: tell the organiser.",
		"judge.failed":      "The judge failed while checking (not your bot's fault): %s",
		"version":           "Version %s",
		"game":              "Game",
	},
	"fr": {
		"title":                "Rendu",
		"login.title":          "Connectez-vous pour rendre votre bot",
		"login.name":           "Votre nom (comme sur votre papier)",
		"login.code":           "Votre code",
		"login.go":             "Se connecter",
		"login.wrong":          "Nom ou code faux : vérifiez votre papier, ou demandez un nouveau code à l'organisateur.",
		"logout":               "Se déconnecter",
		"deadline":             "Date limite : %s",
		"deadline.passed":      "Les rendus sont fermés : la date limite était %s.",
		"hand.in":              "Rendre",
		"hand.help":            "Un fichier (.py, .js, .coffee, .php, .c, .cpp, .java, .ml, ou un script avec #!), ou un dossier en .zip ou .tar ; %d Kio au plus.",
		"hand.help.ia":         "Un fichier Python (.py) qui définit ia(game, side) ; %d Kio au plus.",
		"versions":             "Vos versions",
		"versions.of":          "Versions %s",
		"late":                 "après la date limite : pas jouée",
		"progress.queued":      "Attend son tour pour être vérifiée (rendue il y a %[1]s). Cette page suit la vérification d'elle-même.",
		"progress.checking":    "En cours de vérification : sa première réponse, puis une partie entière contre lui-même (rendue il y a %[1]s). Cette page suit la vérification d'elle-même.",
		"progress.playing":     "Vérifiée ; joue des parties d'entraînement contre les bots d'exemple : %d jouées (rendue il y a %s).",
		"progress.playing.one": "Vérifiée ; joue des parties d'entraînement contre les bots d'exemple : %d jouée (rendue il y a %s).",
		"none":                 "Rien de rendu pour l'instant.",
		"current":              "dans le tournoi",
		"status.queued":        "attend sa vérification",
		"status.checking":      "en cours de vérification",
		"status.playing":       "joue des parties d'entraînement",
		"status.done":          "vérifié",
		"status.failed":        "non vérifié : le juge a échoué, prévenez l'organisateur",
		"ready":                "PRÊT : votre bot a joué une partie entière sans faute.",
		"not.ready":            "PAS PRÊT",
		"build.failed":         "Votre bot n'a pas compilé :",
		"compiled":             "Compilé.",
		"first.refused":        "Votre bot a échoué à sa première demande (%s) :",
		"first.ok":             "Première réponse acceptée : %.0f ms de CPU.",
		"game.end":             "Partie contre lui-même : %d coups, %s. Réponse la plus lente %.0f ms de CPU.",
		"game.stopped":         "Partie contre lui-même : arrêtée après %d coups, assez pour essayer chaque sorte de tour. Réponse la plus lente %.0f ms de CPU.",
		"fault.line":           "coup %d : %s : %s",
		"timed.out":            "Arrêtée à ce dépassement de temps : un tournoi cesse d'interroger un bot qui dépasse sans cesse.",
		"log":                  "Ce que votre bot a affiché (son journal)",
		"sparring":             "Parties d'entraînement contre les bots d'exemple",
		"replay":               "revoir",
		"result.win":           "gagnée",
		"result.loss":          "perdue",
		"result.draw":          "nulle",
		"vs":                   "contre %s",
		"files":                "Fichiers",
		"download":             "Télécharger cette version",
		"restore":              "Mettre cette version dans le tournoi",
		"back":                 "Retour",
		"organiser.title":      "Rendus : tous les élèves",
		"student":              "Élève",
		"versions.n":           "%d versions",
		"versions.n.one":       "%d version",
		"nothing":              "—",
		"not.found":            "Introuvable, ou pas à vous.",
		"not.open":             "Ce jeu n'est pas ouvert aux rendus.",
		"organiser.only":       "Seul l'organisateur peut faire cela.",
		"restore.late":         "Cette version a été rendue après la date limite (%s) : le tournoi joue les versions d'avant.",
		"upload.big":           "Trop gros : un rendu fait au plus %d Kio. Ne rendez que vos sources.",
		"upload.none":          "Choisissez un fichier à rendre.",
		"wait":                 "Trop d'essais : attendez %d secondes et recommencez.",
		"error":                "Le juge n'a pas pu le faire : prévenez l'organisateur.",
		"judge.failed":         "Le juge a échoué pendant la vérification (ce n'est pas la faute de votre bot) : %s",
		"version":              "Version %s",
		"game":                 "Jeu",
	},
}

func word(lang, key string) string {
	if w, ok := words[lang][key]; ok {
		return w
	}
	return words["en"][key]
}

var funcs = template.FuncMap{
	"t": func(lang, key string, args ...any) string {
		if len(args) == 0 {
			return word(lang, key)
		}
		return fmt.Sprintf(word(lang, key), args...)
	},
	"when": func(t time.Time) string { return t.Local().Format("2006-01-02 15:04:05") },
	"fault": func(lang string, k fault.Kind) string {
		f, ok := fault.Lookup(k)
		switch {
		case !ok:
			return string(k)
		case lang == "fr":
			return f.Fr
		}
		return f.En
	},
	// dict hands the status template a language and a version.
	"dict": func(lang string, v any) map[string]any { return map[string]any{"Lang": lang, "V": v} },
	"join": func(s []string) string { return strings.Join(s, ", ") },
	"tn":   func(lang, key string, n int) string { return fmt.Sprintf(word(lang, counted(lang, key, n)), n) },
	"of":   of,
	// late tells a version handed in after the deadline, which the
	// tournament does not play.
	"late": func(deadline, at time.Time) bool { return !deadline.IsZero() && at.After(deadline) },
	// helpKey is the hand-in help of game: what its bots may be.
	"helpKey": func(game string) string {
		if r, ok := games.Lookup(game); ok && r.Protocol() == games.ProtocolIA {
			return "hand.help.ia"
		}
		return "hand.help"
	},
}

// counted is key, or key.one when n takes the singular: 1 in English, 0
// and 1 in French.
func counted(lang, key string, n int) string {
	one := n == 1
	if lang == "fr" {
		one = n < 2
	}
	if _, ok := words[lang][key+".one"]; ok && one {
		return key + ".one"
	}
	return key
}

// of is "of name" in lang: in French "d'" before a vowel (élision), "de "
// elsewhere.
func of(lang, name string) string {
	if lang != "fr" {
		return "of " + name
	}
	first, _ := utf8.DecodeRuneInString(strings.ToLower(name))
	if strings.ContainsRune("aàâäeéèêëiîïoôöuùûüyœæh", first) {
		return "d'" + name
	}
	return "de " + name
}
