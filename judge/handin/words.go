package handin

import (
	"fmt"
	"html/template"
	"strings"
	"time"
	"unicode/utf8"

	"botjudge/games"
	"botjudge/games/fault"
	"botjudge/games/phrase"
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
		"status.stored":     "being installed",
		"status.queued":     "waiting for its check",
		"status.checking":   "being checked",
		"status.playing":    "playing sparring games",
		"status.done":       "checked",
		"status.failed":     "not checked: the judge failed, not your bot (the organiser has the details)",
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
		"is.ready":          "READY",
		"bot.name":          "The bot's name in the tournament: %s",
		"plays":             "In the tournament: the version of %s",
		"plays.broken":      "It is NOT READY: in the tournament it will lose its games. Choose a version that is READY below, or hand in a fixed one.",
		"plays.none":        "In the tournament: none of these versions.",
		"this.plays":        "This version is the one in the tournament.",
		"other.plays":       "Not in the tournament, which plays the version of",
		"choose.warn":       "This version is NOT READY: in the tournament it would lose its games.",
		"choose.closed":     "The deadline has passed (%s): the version in the tournament can no longer change.",
		"restore.late":      "This version was handed in after the deadline (%s): the tournament plays the versions from before it.",
		"upload.big":        "Too big: a hand-in is at most %d KiB. Hand in your sources only.",
		"upload.none":       "Choose a file to hand in.",
		"wait":              "Too many attempts: wait %s and try again.",
		"second":            "1 second",
		"seconds":           "%d seconds",
		"minute":            "1 minute",
		"minutes":           "%d minutes",
		"error":             "The judge failed to do this: tell the organiser.",
		"cross.site":        "Refused: this request came from another site's page. Hand in from the hand-in page itself.",
		"judge.failed":      "The judge failed, not your bot (the organiser has the details). Hand it in again; if it fails again, tell the organiser.",
		"judge.details":     "The judge's own failure (students read only that the judge failed): %s",
		"quota":             "Your versions already take %.1f MiB of the %d MiB each student may store: ask the organiser (nothing was deleted).",
		"not.installed":     "The judge failed to install this version, not your bot (the organiser has the details): hand it in again.",
		"restore.fails":     "This version cannot be installed: %s",
		"version":           "Version %s",
		"game":              "Game",
		"arena":             "Arena",
		"arena.mine":        "On the arena's ladder: rank %d of %d, rating %.0f (%.0f–%.0f).",
		"arena.alias":       "The ladder shows you as %s: nobody but you and the organiser knows it is you.",
		"arena.alias.of":    "The ladder shows this student as %s.",
		"arena.off":         "Not on the arena's ladder: the version in the tournament joins it once it is READY.",
		"arena.ladder":      "The whole ladder",
		"arena.you":         "you",
		"arena.example":     "example",
		"arena.page":        "The ladder on the projector's page",
		"arena.rated":       "arena rating %.0f",
		"arena.games":       "%d arena games",
		"arena.games.one":   "%d arena game",
		"arena.path":        "Arena rating after each game, from %.0f to %.0f",
		"arena.version":     "Its rating after each of its arena games, as the ladder stood then (the line is the average, 1500):",
		"arena.latest":      "the %d latest",
		"arena.none":        "This version has played no arena game.",
		// colon joins two parts of a line on the pages.
		"colon": ": ",
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
		"status.stored":        "en cours d'installation",
		"status.queued":        "attend sa vérification",
		"status.checking":      "en cours de vérification",
		"status.playing":       "joue des parties d'entraînement",
		"status.done":          "vérifié",
		"status.failed":        "non vérifié : le juge a échoué, pas votre bot (l'organisateur a les détails)",
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
		"is.ready":             "PRÊT",
		"bot.name":             "Le nom du bot dans le tournoi : %s",
		"plays":                "Dans le tournoi : la version de %s",
		"plays.broken":         "Elle n'est PAS PRÊTE : dans le tournoi, elle perdra ses parties. Choisissez plus bas une version PRÊTE, ou rendez une version corrigée.",
		"plays.none":           "Dans le tournoi : aucune de ces versions.",
		"this.plays":           "Cette version est celle du tournoi.",
		"other.plays":          "Pas dans le tournoi, qui joue la version de",
		"choose.warn":          "Cette version n'est PAS PRÊTE : dans le tournoi, elle perdrait ses parties.",
		"choose.closed":        "La date limite est passée (%s) : la version du tournoi ne peut plus changer.",
		"restore.late":         "Cette version a été rendue après la date limite (%s) : le tournoi joue les versions d'avant.",
		"upload.big":           "Trop gros : un rendu fait au plus %d Kio. Ne rendez que vos sources.",
		"upload.none":          "Choisissez un fichier à rendre.",
		"wait":                 "Trop d'essais : attendez %s et recommencez.",
		"second":               "1 seconde",
		"seconds":              "%d secondes",
		"minute":               "1 minute",
		"minutes":              "%d minutes",
		"error":                "Le juge n'a pas pu le faire : prévenez l'organisateur.",
		"cross.site":           "Refusé : cette requête vient de la page d'un autre site. Rendez depuis la page de rendu elle-même.",
		"judge.failed":         "Le juge a échoué, pas votre bot (l'organisateur a les détails). Rendez-le à nouveau ; si cela échoue encore, prévenez l'organisateur.",
		"judge.details":        "Échec du juge lui-même (les élèves lisent seulement que le juge a échoué) : %s",
		"quota":                "Vos versions occupent déjà %.1f Mio des %d Mio que chaque élève peut garder : demandez à l'organisateur (rien n'a été effacé).",
		"not.installed":        "Le juge n'a pas pu installer cette version, ce n'est pas votre bot (l'organisateur a les détails) : rendez-la à nouveau.",
		"restore.fails":        "Cette version ne peut pas être installée : %s",
		"version":              "Version %s",
		"game":                 "Jeu",
		"arena":                "Arène",
		"arena.mine":           "Dans l'échelle de l'arène : rang %d sur %d, force %.0f (%.0f–%.0f).",
		"arena.alias":          "L'échelle vous montre sous le nom %s : personne d'autre que vous et l'organisateur ne sait que c'est vous.",
		"arena.alias.of":       "L'échelle montre cet élève sous le nom %s.",
		"arena.off":            "Pas dans l'échelle de l'arène : la version du tournoi y entre dès qu'elle est PRÊTE.",
		"arena.ladder":         "Toute l'échelle",
		"arena.you":            "vous",
		"arena.example":        "exemple",
		"arena.page":           "L'échelle sur la page du projecteur",
		"arena.rated":          "force dans l'arène %.0f",
		"arena.games":          "%d parties d'arène",
		"arena.games.one":      "%d partie d'arène",
		"arena.path":           "Force dans l'arène après chaque partie, de %.0f à %.0f",
		"arena.version":        "Sa force après chacune de ses parties d'arène, selon l'échelle d'alors (la ligne est la moyenne, 1500) :",
		"arena.latest":         "les %d dernières",
		"arena.none":           "Cette version n'a joué aucune partie d'arène.",
		// French typography wants a space before a colon
		// ("contre example : perdue").
		"colon": " : ",
	},
}

// ceilSeconds is d in whole seconds, rounded up: a wait said shorter than
// it is would be refused again.
func ceilSeconds(d time.Duration) int { return int((d + time.Second - 1) / time.Second) }

// waitWords says a wait as a person would: seconds under a minute, else
// minutes, rounded up ("10 minutes", never "601 seconds").
func waitWords(lang string, d time.Duration) string {
	n, one, many := ceilSeconds(d), "second", "seconds"
	if n > 60 {
		n, one, many = (n+59)/60, "minute", "minutes"
	}
	if n == 1 {
		return word(lang, one)
	}
	return fmt.Sprintf(word(lang, many), n)
}

func word(lang, key string) string {
	if w, ok := words[lang][key]; ok {
		return w
	}
	return words["en"][key]
}

// when is a time as the pages and the refusals say it, to the second: a
// version of 17:00:13 is refused "after the deadline (17:00:00)", not
// "(17:00)".
func when(t time.Time) string { return t.Local().Format("2006-01-02 15:04:05") }

var funcs = template.FuncMap{
	"t": func(lang, key string, args ...any) string {
		if len(args) == 0 {
			return word(lang, key)
		}
		return fmt.Sprintf(word(lang, key), args...)
	},
	"when": when,
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
	"verdict": Verdict,
	"say":     say,
	// beside is a fault's reason on the line that names the fault.
	"beside": func(k fault.Kind, reason string) string { return k.Beside(reason) },
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

// say is text, a sentence the judge recorded in English (how a game ended,
// why a move was refused), in lang, as the screen says it.
func say(lang, text string) string {
	if lang != "fr" {
		return text
	}
	return phrase.French(text, func(name string) (string, bool) {
		f, ok := fault.Lookup(fault.Kind(name))
		return f.Fr, ok
	})
}
