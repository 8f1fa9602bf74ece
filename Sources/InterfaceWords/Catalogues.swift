// Made from translations/*.po by scripts/embed-interface-words.sh; edit the PO files, not this.
extension Catalogues {
    static let embedded: [String: String] = [
        "fr": #"""
msgid ""
msgstr ""
"Project-Id-Version: cyd\n"
"PO-Revision-Date: 2026-11-27 08:49+0000\n"
"Last-Translator: \n"
"Language-Team: \n"
"Language: fr\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"

#. id: reader.translated
msgctxt "the terminal reader"
msgid "In [[language]]: [[percent]]% translated."
msgstr "En [[language]] : traduit à [[percent]] %."

#. id: reader.partly-translated
msgctxt "the terminal reader"
msgid ""
"In [[language]]: [[percent]]% translated; the rest as the author wrote it."
msgstr "En [[language]] : traduit à [[percent]] % ; le reste tel que l'auteur l'a écrit."

#. id: reader.welcome-back
msgctxt "the terminal reader"
msgid "Welcome back: you are where you left off."
msgstr "Bon retour : vous reprenez là où vous vous étiez arrêté."

#. id: reader.opened-at
msgctxt "the terminal reader"
msgid "Opened at “[[chapter]]”; b goes back to where you were."
msgstr "Ouvert à « [[chapter]] » ; b vous ramène où vous étiez."

#. id: reader.story-changed
msgctxt "the terminal reader"
msgid ""
"The story has changed since you last read it: your chapter (id '[[id]]') is "
"no longer in it."
msgstr "L'histoire a changé depuis votre dernière lecture : votre chapitre (id '[[id]]') n'y est plus."

#. id: reader.story-changed-place
msgctxt "the terminal reader"
msgid ""
"You are at “[[chapter]]”, the last chapter of your path that still exists; "
"type r to start from the beginning instead."
msgstr "Vous êtes à « [[chapter]] », le dernier chapitre de votre chemin qui existe encore ; tapez r pour reprendre depuis le début."

#. id: reader.the-end
msgctxt "the terminal reader"
msgid "The end. Endings found: [[found]] of [[total]]."
msgstr "Fin. Fins trouvées : [[found]] sur [[total]]."

#. id: reader.after-the-end
msgctxt "the terminal reader"
msgid "r to read again from the start, b to go back, q to quit"
msgstr "r pour relire depuis le début, b pour revenir en arrière, q pour quitter"

#. id: reader.unavailable
msgctxt "the terminal reader"
msgid "(unavailable: its chapter is missing)"
msgstr "(indisponible : son chapitre manque)"

#. id: reader.key.choose
msgctxt "the terminal reader"
msgid "1-9 choose"
msgstr "1-9 choisir"

#. id: reader.key.the-end
msgctxt "the terminal reader"
msgid "the end"
msgstr "fin"

#. id: reader.key.back
msgctxt "the terminal reader"
msgid "back"
msgstr "retour"

#. id: reader.key.restart
msgctxt "the terminal reader"
msgid "restart"
msgstr "recommencer"

#. id: reader.key.mark
msgctxt "the terminal reader"
msgid "mark"
msgstr "marque-page"

#. id: reader.key.note
msgctxt "the terminal reader"
msgid "note"
msgstr "note"

#. id: reader.key.history
msgctxt "the terminal reader"
msgid "history"
msgstr "parcours"

#. id: reader.key.picture
msgctxt "the terminal reader"
msgid "picture"
msgstr "image"

#. id: reader.key.quit
msgctxt "the terminal reader"
msgid "quit"
msgstr "quitter"

#. id: reader.key.help
msgctxt "the terminal reader"
msgid "help"
msgstr "aide"

#. id: reader.help.number-usage
msgctxt "the terminal reader"
msgid "number"
msgstr "numéro"

#. id: reader.help.number
msgctxt "the terminal reader"
msgid "take that choice"
msgstr "prendre ce choix"

#. id: reader.help.back
msgctxt "the terminal reader"
msgid "back to the chapter before"
msgstr "revenir au chapitre précédent"

#. id: reader.help.restart
msgctxt "the terminal reader"
msgid "start again from the first chapter"
msgstr "recommencer depuis le premier chapitre"

#. id: reader.help.mark
msgctxt "the terminal reader"
msgid "bookmark this chapter (under its title unless named)"
msgstr "marquer ce chapitre (sous son titre, sauf si vous le nommez)"

#. id: reader.help.jump
msgctxt "the terminal reader"
msgid "jump to a bookmark (alone: list them)"
msgstr "aller à un marque-page (seul : les lister)"

#. id: reader.help.delete
msgctxt "the terminal reader"
msgid "delete a bookmark"
msgstr "supprimer un marque-page"

#. id: reader.help.note
msgctxt "the terminal reader"
msgid "write a note on this chapter (alone: list them; n -N deletes one)"
msgstr "écrire une note sur ce chapitre (seul : les lister ; n -N en supprime une)"

#. id: reader.help.history
msgctxt "the terminal reader"
msgid "the path you took"
msgstr "le chemin que vous avez pris"

#. id: reader.help.picture
msgctxt "the terminal reader"
msgid "the chapter's picture (p save FILE, p open, p retry)"
msgstr "l'image du chapitre (p save FICHIER, p open, p retry)"

#. id: reader.help.quit
msgctxt "the terminal reader"
msgid "quit (your place is kept)"
msgstr "quitter (votre place est gardée)"

#. id: reader.help.help
msgctxt "the terminal reader"
msgid "this list"
msgstr "cette liste"

#. id: reader.place-not-saved
msgctxt "the terminal reader"
msgid "your place was not saved: [[reason]]; the next move saves it again"
msgstr "votre place n'a pas été enregistrée : [[reason]] ; le prochain pas l'enregistre à nouveau"

#. id: reader.at-start
msgctxt "the terminal reader"
msgid "you are at the start"
msgstr "vous êtes au début"

#. id: reader.bookmarked
msgctxt "the terminal reader"
msgid "bookmarked '[[chapter]]' as '[[bookmark]]' (j [[bookmark]] comes back)"
msgstr "« [[chapter]] » marqué sous le nom '[[bookmark]]' (j [[bookmark]] y revient)"

#. id: reader.bookmark-already-here
msgctxt "the terminal reader"
msgid "bookmark '[[bookmark]]' is already on '[[chapter]]'"
msgstr "le marque-page '[[bookmark]]' est déjà sur « [[chapter]] »"

#. id: reader.bookmark-moved
msgctxt "the terminal reader"
msgid "bookmark '[[bookmark]]' moved from '[[from]]' to '[[chapter]]'"
msgstr "le marque-page '[[bookmark]]' a été déplacé de « [[from]] » à « [[chapter]] »"

#. id: reader.delete-how-none
msgctxt "the terminal reader"
msgid "d NAME deletes a bookmark; there are none yet"
msgstr "d NOM supprime un marque-page ; vous n'en avez pas encore"

#. id: reader.delete-how
msgctxt "the terminal reader"
msgid "d NAME deletes a bookmark; yours: [[bookmarks]]"
msgstr "d NOM supprime un marque-page ; les vôtres : [[bookmarks]]"

#. id: reader.bookmark-removed
msgctxt "the terminal reader"
msgid "bookmark '[[bookmark]]' removed"
msgstr "marque-page '[[bookmark]]' supprimé"

#. id: reader.no-such-bookmark
msgctxt "the terminal reader"
msgid "no bookmark named '[[bookmark]]'"
msgstr "aucun marque-page nommé '[[bookmark]]'"

#. id: reader.not-a-command
msgctxt "the terminal reader"
msgid "'[[typed]]' is not a command; type a choice number, or ? for help"
msgstr "'[[typed]]' n'est pas une commande ; tapez le numéro d'un choix, ou ? pour l'aide"

#. id: reader.no-bookmarks
msgctxt "the terminal reader"
msgid "no bookmarks yet; m [name] bookmarks this chapter"
msgstr "pas encore de marque-page ; m [nom] marque ce chapitre"

#. id: reader.no-notes
msgctxt "the terminal reader"
msgid "no notes yet; n TEXT writes one on this chapter"
msgstr "pas encore de note ; n TEXTE en écrit une sur ce chapitre"

#. id: reader.note-removed
msgctxt "the terminal reader"
msgid "note #[[number]] removed"
msgstr "note n° [[number]] supprimée"

#. id: reader.no-such-note
msgctxt "the terminal reader"
msgid "no note #[[number]]; n alone lists your notes with their numbers"
msgstr "pas de note n° [[number]] ; n seul liste vos notes avec leurs numéros"

#. id: reader.not-a-note-number
msgctxt "the terminal reader"
msgid ""
"n -NUMBER removes a note, and '[[typed]]' is not a note number; n alone lists "
"them"
msgstr "n -NUMÉRO supprime une note, et '[[typed]]' n'est pas un numéro de note ; n seul les liste"

#. id: reader.note-saved
msgctxt "the terminal reader"
msgid "note #[[number]] saved (n -[[number]] removes it)"
msgstr "note n° [[number]] enregistrée (n -[[number]] la supprime)"

#. id: reader.no-picture
msgctxt "the terminal reader"
msgid "this chapter has no picture"
msgstr "ce chapitre n'a pas d'image"

#. id: reader.not-a-picture-command
msgctxt "the terminal reader"
msgid ""
"'p [[typed]]' is not a picture command: p shows it, p save FILE saves it, p "
"open opens it, p retry loads it again"
msgstr "'p [[typed]]' n'est pas une commande d'image : p la montre, p save FICHIER l'enregistre, p open l'ouvre, p retry la recharge"

#. id: reader.picture-shows
msgctxt "the terminal reader"
msgid " (it shows: [[alt]])"
msgstr " (elle montre : [[alt]])"

#. id: reader.picture-failed
msgctxt "the terminal reader"
msgid ""
"the picture [[path]] could not be loaded: [[reason]][[shows]]; p retry tries "
"again"
msgstr "l'image [[path]] n'a pas pu être chargée : [[reason]][[shows]] ; p retry réessaie"

#. id: reader.picture-still-loading
msgctxt "the terminal reader"
msgid "the picture [[path]] is still loading"
msgstr "l'image [[path]] est encore en chargement"

#. id: reader.save-where
msgctxt "the terminal reader"
msgid "p save FILE: say where to save it"
msgstr "p save FICHIER : dites où l'enregistrer"

#. id: reader.save-exists
msgctxt "the terminal reader"
msgid "[[file]] exists: p save! [[file]] replaces it"
msgstr "[[file]] existe : p save! [[file]] le remplace"

#. id: reader.picture-not-saved
msgctxt "the terminal reader"
msgid "the picture was not saved: [[reason]]"
msgstr "l'image n'a pas été enregistrée : [[reason]]"

#. id: reader.picture-saved
msgctxt "the terminal reader"
msgid "saved [[path]] to [[file]]"
msgstr "[[path]] enregistrée dans [[file]]"

#. id: reader.picture-not-opened
msgctxt "the terminal reader"
msgid "the picture could not be opened: [[reason]]"
msgstr "l'image n'a pas pu être ouverte : [[reason]]"

#. id: reader.picture-opened
msgctxt "the terminal reader"
msgid "opened [[file]]"
msgstr "[[file]] ouvert"

#. id: reader.picture-saved-no-opener
msgctxt "the terminal reader"
msgid "saved to [[file]] (no xdg-open here to open it)"
msgstr "enregistrée dans [[file]] (pas de xdg-open ici pour l'ouvrir)"

#. id: reader.picture-cannot-be-drawn
msgctxt "the terminal reader"
msgid "the picture [[path]] cannot be drawn: [[reason]]"
msgstr "l'image [[path]] ne peut pas être dessinée : [[reason]]"

#. id: reader.picture-stored
msgctxt "the terminal reader"
msgid ""
"picture [[path]]: [[kind]][[shows]], stored in the library; p save FILE saves "
"it, p open opens it"
msgstr "image [[path]] : [[kind]][[shows]], gardée dans la bibliothèque ; p save FICHIER l'enregistre, p open l'ouvre"

#. id: reader.picture-line
msgctxt "the terminal reader"
msgid "[picture: [[path]]]"
msgstr "[image : [[path]]]"

#. id: reader.picture-loading
msgctxt "the terminal reader"
msgid "[picture: [[path]], loading…]"
msgstr "[image : [[path]], chargement…]"

#. id: reader.picture-ready
msgctxt "the terminal reader"
msgid "[picture: [[path]], [[kind]]: p to see how to save or open it]"
msgstr "[image : [[path]], [[kind]] : p pour savoir comment l'enregistrer ou l'ouvrir]"

#. id: reader.picture-line-failed
msgctxt "the terminal reader"
msgid ""
"[picture: [[path]] could not be loaded: [[reason]]; p retry to try again]"
msgstr "[image : [[path]] n'a pas pu être chargée : [[reason]] ; p retry pour réessayer]"

#. id: reader.picture-line-undrawable
msgctxt "the terminal reader"
msgid "[picture: [[path]] cannot be drawn: [[reason]]; p save FILE keeps it]"
msgstr "[image : [[path]] ne peut pas être dessinée : [[reason]] ; p save FICHIER la garde]"

#. id: reader.farewell
msgctxt "the terminal reader"
msgid ""
"your place in '[[story]]' is kept in [[library]]; [[command]] takes you back"
msgstr "votre place dans « [[story]] » est gardée dans [[library]] ; [[command]] vous y ramène"

#. id: reader.ask-name
msgctxt "the terminal reader"
msgid "What is your first name? (the stories use it; q quits) "
msgstr "Quel est votre prénom ? (les histoires l'utilisent ; q pour quitter) "

#. id: reader.ask-name-again
msgctxt "the terminal reader"
msgid "A name, please (letters the page can show), or q to quit: "
msgstr "Un prénom, s'il vous plaît (des lettres que la page peut montrer), ou q pour quitter : "

#. id: reader.stories
msgctxt "the terminal reader"
msgid "Stories:"
msgstr "Histoires :"

#. id: reader.at
msgctxt "the terminal reader"
msgid "at '[[chapter]]'"
msgstr "à « [[chapter]] »"

#. id: reader.not-started
msgctxt "the terminal reader"
msgid "not started"
msgstr "pas commencée"

#. id: reader.bundled-at
msgctxt "the terminal reader"
msgid "bundled, your place kept at '[[chapter]]'"
msgstr "fournie avec cyd, votre place gardée à « [[chapter]] »"

#. id: reader.bundled-not-started
msgctxt "the terminal reader"
msgid "bundled, not started"
msgstr "fournie avec cyd, pas commencée"

#. id: reader.which-one
msgctxt "the terminal reader"
msgid "Which one? (number, q to quit) "
msgstr "Laquelle ? (numéro, q pour quitter) "

#. id: reader.type-one-of
msgctxt "the terminal reader"
msgid "type one of [[choices]]"
msgstr "tapez l'un de [[choices]]"

#. id: page.stories
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Stories"
msgstr "Histoires"

#. id: page.site
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Site"
msgstr "Site"

#. id: page.skip-to-story
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Skip to the story"
msgstr "Aller à l'histoire"

#. id: page.untitled-story
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Untitled story"
msgstr "Histoire sans titre"

#. id: page.untitled-chapter
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Untitled chapter"
msgstr "Chapitre sans titre"

#. id: page.rated
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Rated [[rating]] · [[chapters]] · [[endings]]"
msgstr "Classée [[rating]] · [[chapters]] · [[endings]]"

#. id: page.chapters.one
msgctxt "the browser reader's pages (served, and the static site)"
msgid "[[count]] chapter"
msgstr "[[count]] chapitre"

#. id: page.chapters.other
msgctxt "the browser reader's pages (served, and the static site)"
msgid "[[count]] chapters"
msgstr "[[count]] chapitres"

#. id: page.endings.one
msgctxt "the browser reader's pages (served, and the static site)"
msgid "[[count]] ending"
msgstr "[[count]] fin"

#. id: page.endings.other
msgctxt "the browser reader's pages (served, and the static site)"
msgid "[[count]] endings"
msgstr "[[count]] fins"

#. id: page.endings-found
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Endings found: [[found]] of [[total]]."
msgstr "Fins trouvées : [[found]] sur [[total]]."

#. id: page.as-written
msgctxt "the browser reader's pages (served, and the static site)"
msgid "As written"
msgstr "Telle qu'écrite"

#. id: page.languages
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Languages"
msgstr "Langues"

#. id: page.also-in
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Also in [[languages]]."
msgstr "Aussi en [[languages]]."

#. id: page.begin
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Begin"
msgstr "Commencer"

#. id: page.start-again
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Start again"
msgstr "Recommencer"

#. id: page.your-name
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Your name in the story"
msgstr "Votre prénom dans l'histoire"

#. id: page.keep
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Keep"
msgstr "Garder"

#. id: page.the-end
msgctxt "the browser reader's pages (served, and the static site)"
msgid "The end."
msgstr "Fin."

#. id: page.not-written-yet
msgctxt "the browser reader's pages (served, and the static site)"
msgid "(this way is not written yet)"
msgstr "(ce chemin n'est pas encore écrit)"

#. id: page.choices
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Choices"
msgstr "Choix"

#. id: page.reading
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Reading"
msgstr "Lecture"

#. id: page.you-are-at
msgctxt "the browser reader's pages (served, and the static site)"
msgid "You are at “[[chapter]]”."
msgstr "Vous êtes à « [[chapter]] »."

#. id: page.not-started
msgctxt "the browser reader's pages (served, and the static site)"
msgid "Not started."
msgstr "Pas commencée."

#. id: page.all-stories
msgctxt "the browser reader's pages (served, and the static site)"
msgid "All stories"
msgstr "Toutes les histoires"

#. id: site.resume
msgctxt "the static site's pages"
msgid "Resume where you were"
msgstr "Reprendre là où vous étiez"

#. id: site.no-script
msgctxt "the static site's pages"
msgid ""
"Your place, your name and the endings you find are kept in this browser by "
"its script; with scripts off, nothing is kept."
msgstr "Votre place, votre prénom et les fins que vous trouvez sont gardés dans ce navigateur par son script ; sans scripts, rien n'est gardé."

#. id: site.after-the-end
msgctxt "the static site's pages"
msgid "After the end"
msgstr "Après la fin"

#. id: site.back-to-story
msgctxt "the static site's pages"
msgid "Back to the story"
msgstr "Retour à l'histoire"

#. id: site.offline-title
msgctxt "the static site's pages"
msgid "Not saved for offline reading yet"
msgstr "Pas encore gardée pour la lecture hors ligne"

#. id: site.offline-why
msgctxt "the static site's pages"
msgid ""
"This page was never opened on this device while it was online, so it was not "
"kept for reading offline."
msgstr "Cette page n'a jamais été ouverte sur cet appareil pendant qu'il était en ligne, elle n'a donc pas été gardée pour la lecture hors ligne."

#. id: site.offline-what
msgctxt "the static site's pages"
msgid ""
"Every story you have opened here is kept whole: open it from the list of "
"stories. Once you are online again, any story can be opened, and is kept from "
"then on."
msgstr "Chaque histoire que vous avez ouverte ici est gardée en entier : ouvrez-la depuis la liste des histoires. Une fois de nouveau en ligne, toute histoire peut être ouverte, et elle est gardée dès lors."

#. id: site.confirm-restart
msgctxt "the static site's pages"
msgid ""
"Start again from the first chapter? The path you took is cleared; the endings "
"you found are kept."
msgstr "Recommencer depuis le premier chapitre ? Le chemin que vous avez pris est effacé ; les fins que vous avez trouvées sont gardées."

#. id: site.called
#. [[name]] is the reader's first name: keep it as written.
msgctxt "the static site's pages"
msgid "You will be called [[name]]."
msgstr "Vous serez appelé [[name]]."

#. id: site.called-reader
msgctxt "the static site's pages"
msgid "You will be called Reader."
msgstr "Vous serez appelé Lecteur."

#. id: serve.catalogue
msgctxt "the served browser reader"
msgid "Catalogue"
msgstr "Catalogue"

#. id: serve.reading-as
msgctxt "the served browser reader"
msgid "Reading as [[profile]]"
msgstr "Lecture en tant que [[profile]]"

#. id: serve.change
msgctxt "the served browser reader"
msgid "change"
msgstr "changer"

#. id: serve.stories-in
msgctxt "the served browser reader"
msgid "Stories in"
msgstr "Histoires en"

#. id: serve.show
msgctxt "the served browser reader"
msgid "Show"
msgstr "Afficher"

#. id: serve.browsers-languages
msgctxt "the served browser reader"
msgid "Your browser's languages"
msgstr "Les langues de votre navigateur"

#. id: serve.this-readers-as-written
msgctxt "the served browser reader"
msgid "This reader's: as written"
msgstr "Celle de ce lecteur : telle qu'écrite"

#. id: serve.this-readers
msgctxt "the served browser reader"
msgid "This reader's: [[language]]"
msgstr "Celle de ce lecteur : [[language]]"

#. id: serve.also-in
msgctxt "the served browser reader"
msgid "Also in [[languages]]."
msgstr "Aussi en [[languages]]."

#. id: serve.endings-found
msgctxt "the served browser reader"
msgid "endings found: [[found]] of [[total]]"
msgstr "fins trouvées : [[found]] sur [[total]]"

#. id: serve.empty-library
msgctxt "the served browser reader"
msgid "The library is empty. The [[catalogue]] lists stories to get."
msgstr "La bibliothèque est vide. Le [[catalogue]] liste des histoires à obtenir."

#. id: serve.no-results
msgctxt "the served browser reader"
msgid "No results for “[[query]]”"
msgstr "Aucun résultat pour « [[query]] »"

#. id: serve.no-results-hint
msgctxt "the served browser reader"
msgid ""
"No story in the library has these words in its title, summary or chapters. "
"Try fewer words, or other ones."
msgstr "Aucune histoire de la bibliothèque n'a ces mots dans son titre, son résumé ou ses chapitres. Essayez moins de mots, ou d'autres."

#. id: serve.hidden-ending
msgctxt "the served browser reader"
msgid "In an ending you have not reached yet: it stays hidden until you do."
msgstr "Dans une fin que vous n'avez pas encore atteinte : elle reste cachée jusqu'à ce que vous l'atteigniez."

#. id: serve.results.one
msgctxt "the served browser reader"
msgid "[[count]] result for “[[query]]”"
msgstr "[[count]] résultat pour « [[query]] »"

#. id: serve.results.other
msgctxt "the served browser reader"
msgid "[[count]] results for “[[query]]”"
msgstr "[[count]] résultats pour « [[query]] »"

#. id: serve.your-stories
msgctxt "the served browser reader"
msgid "Your stories"
msgstr "Vos histoires"

#. id: serve.all-your-stories
msgctxt "the served browser reader"
msgid "All your stories"
msgstr "Toutes vos histoires"

#. id: serve.search-title
msgctxt "the served browser reader"
msgid "Search: [[query]] · Stories"
msgstr "Recherche : [[query]] · Histoires"

#. id: serve.search-label
msgctxt "the served browser reader"
msgid "Search the stories"
msgstr "Chercher dans les histoires"

#. id: serve.search
msgctxt "the served browser reader"
msgid "Search"
msgstr "Chercher"

#. id: serve.shown-in
msgctxt "the served browser reader"
msgid ""
"In [[language]]: [[percent]]% translated. “Stories in” at the top of every "
"page changes the language."
msgstr "En [[language]] : traduit à [[percent]] %. « Histoires en » en haut de chaque page change la langue."

#. id: serve.shown-in-part
msgctxt "the served browser reader"
msgid ""
"In [[language]]: [[percent]]% translated; the rest as the author wrote it. "
"“Stories in” at the top of every page changes the language."
msgstr "En [[language]] : traduit à [[percent]] % ; le reste tel que l'auteur l'a écrit. « Histoires en » en haut de chaque page change la langue."

#. id: serve.resume
msgctxt "the served browser reader"
msgid "Resume"
msgstr "Reprendre"

#. id: serve.marks-and-notes
msgctxt "the served browser reader"
msgid "Bookmarks and notes"
msgstr "Marque-pages et notes"

#. id: serve.path-taken
msgctxt "the served browser reader"
msgid "The path taken"
msgstr "Le chemin pris"

#. id: serve.full-picture
msgctxt "the served browser reader"
msgid "The picture, full size"
msgstr "L'image, en taille réelle"

#. id: serve.not-your-place
msgctxt "the served browser reader"
msgid ""
"This is not your place: your place in this story is “[[chapter]]”. A choice "
"here goes on from this chapter."
msgstr "Ce n'est pas votre place : votre place dans cette histoire est « [[chapter]] ». Un choix ici continue depuis ce chapitre."

#. id: serve.go-on-from-here
msgctxt "the served browser reader"
msgid "Go on from here"
msgstr "Continuer d'ici"

#. id: serve.back
msgctxt "the served browser reader"
msgid "Back"
msgstr "Retour"

#. id: serve.bookmark-name
msgctxt "the served browser reader"
msgid "Bookmark name"
msgstr "Nom du marque-page"

#. id: serve.bookmark-name-optional
msgctxt "the served browser reader"
msgid "(optional: the chapter's title)"
msgstr "(facultatif : le titre du chapitre)"

#. id: serve.bookmark-this
msgctxt "the served browser reader"
msgid "Bookmark this chapter"
msgstr "Marquer ce chapitre"

#. id: serve.note-label
msgctxt "the served browser reader"
msgid "A note on this chapter"
msgstr "Une note sur ce chapitre"

#. id: serve.keep-note
msgctxt "the served browser reader"
msgid "Keep the note"
msgstr "Garder la note"

#. id: serve.no-bookmarks
msgctxt "the served browser reader"
msgid "No bookmarks yet: “Bookmark this chapter” under a chapter adds one."
msgstr "Pas encore de marque-page : « Marquer ce chapitre » sous un chapitre en ajoute un."

#. id: serve.go-on-from-there
msgctxt "the served browser reader"
msgid "Go on from there"
msgstr "Continuer de là"

#. id: serve.remove
msgctxt "the served browser reader"
msgid "Remove"
msgstr "Supprimer"

#. id: serve.no-notes
msgctxt "the served browser reader"
msgid "No notes yet."
msgstr "Pas encore de note."

#. id: serve.note-on
msgctxt "the served browser reader"
msgid "on “[[chapter]]”"
msgstr "sur « [[chapter]] »"

#. id: serve.bookmarks
msgctxt "the served browser reader"
msgid "Bookmarks"
msgstr "Marque-pages"

#. id: serve.notes
msgctxt "the served browser reader"
msgid "Notes"
msgstr "Notes"

#. id: serve.restart-title
msgctxt "the served browser reader"
msgid "Start again?"
msgstr "Recommencer ?"

#. id: serve.restart-heading
msgctxt "the served browser reader"
msgid "Start “[[story]]” again?"
msgstr "Recommencer « [[story]] » ?"

#. id: serve.restart-where.one
msgctxt "the served browser reader"
msgid ""
"You are at “[[chapter]]”, 1 chapter along. Starting again takes you to the "
"first chapter and clears the path taken: Back will not bring it back."
msgstr "Vous êtes à « [[chapter]] », 1 chapitre plus loin. Recommencer vous ramène au premier chapitre et efface le chemin pris : Retour ne le ramènera pas."

#. id: serve.restart-where.other
msgctxt "the served browser reader"
msgid ""
"You are at “[[chapter]]”, [[count]] chapters along. Starting again takes you "
"to the first chapter and clears the path taken: Back will not bring it back."
msgstr "Vous êtes à « [[chapter]] », [[count]] chapitres plus loin. Recommencer vous ramène au premier chapitre et efface le chemin pris : Retour ne le ramènera pas."

#. id: serve.restart-kept
msgctxt "the served browser reader"
msgid ""
"Your bookmarks, notes and the endings you have found are kept; a bookmark "
"takes you back to a chapter later."
msgstr "Vos marque-pages, vos notes et les fins que vous avez trouvées sont gardés ; un marque-page vous ramène plus tard à un chapitre."

#. id: serve.restart-confirm
msgctxt "the served browser reader"
msgid "Start again from the first chapter"
msgstr "Recommencer depuis le premier chapitre"

#. id: serve.keep-reading
msgctxt "the served browser reader"
msgid "Keep reading where you are"
msgstr "Continuer à lire là où vous êtes"

#. id: serve.bookmark-first
msgctxt "the served browser reader"
msgid "Bookmark your place first"
msgstr "Marquer d'abord votre place"

#. id: serve.place-moved-elsewhere
msgctxt "the served browser reader"
msgid "Your place moved to “[[chapter]]” in another window."
msgstr "Votre place est passée à « [[chapter]] » dans une autre fenêtre."

#. id: serve.notice.bookmarked
msgctxt "the served browser reader"
msgid "Bookmarked."
msgstr "Marque-page ajouté."

#. id: serve.notice.bookmark-kept
msgctxt "the served browser reader"
msgid "This chapter was bookmarked already."
msgstr "Ce chapitre était déjà marqué."

#. id: serve.notice.bookmark-removed
msgctxt "the served browser reader"
msgid "Bookmark removed."
msgstr "Marque-page supprimé."

#. id: serve.notice.bookmark-gone
msgctxt "the served browser reader"
msgid "That bookmark is gone, or its chapter is no longer in the story."
msgstr "Ce marque-page n'existe plus, ou son chapitre n'est plus dans l'histoire."

#. id: serve.notice.noted
msgctxt "the served browser reader"
msgid "Note kept."
msgstr "Note gardée."

#. id: serve.notice.note-removed
msgctxt "the served browser reader"
msgid "Note removed."
msgstr "Note supprimée."

#. id: serve.notice.empty-note
msgctxt "the served browser reader"
msgid "The note was empty, so nothing was kept."
msgstr "La note était vide, rien n'a donc été gardé."

#. id: serve.notice.at-start
msgctxt "the served browser reader"
msgid "This is the start: there is no way back from here."
msgstr "C'est le début : il n'y a pas de retour en arrière d'ici."

#. id: serve.notice.name-kept
msgctxt "the served browser reader"
msgid "Your name is kept."
msgstr "Votre prénom est gardé."

#. id: serve.notice.unavailable
msgctxt "the served browser reader"
msgid "That way is not written yet: choose another."
msgstr "Ce chemin n'est pas encore écrit : choisissez-en un autre."

#. id: serve.notice.no-such-choice
msgctxt "the served browser reader"
msgid "That choice is not on this page any more: choose again."
msgstr "Ce choix n'est plus sur cette page : choisissez à nouveau."

#. id: serve.notice.chapter-gone
msgctxt "the served browser reader"
msgid ""
"That chapter is no longer in the story (it changed since the page was shown)."
msgstr "Ce chapitre n'est plus dans l'histoire (elle a changé depuis que la page a été affichée)."

#. id: serve.notice.place-moved
msgctxt "the served browser reader"
msgid ""
"Your place had moved on in another window; you went on from the page you "
"chose on, and this is your place now."
msgstr "Votre place avait avancé dans une autre fenêtre ; vous avez continué depuis la page où vous avez choisi, et c'est maintenant votre place."

#. id: serve.notice.gone-on
msgctxt "the served browser reader"
msgid "This chapter is your place now."
msgstr "Ce chapitre est maintenant votre place."

#. id: serve.notice.bookmark-moved
msgctxt "the served browser reader"
msgid "A bookmark of that name was on another chapter: it is on this one now."
msgstr "Un marque-page de ce nom était sur un autre chapitre : il est maintenant sur celui-ci."

#. id: serve.who-is-reading
msgctxt "the served browser reader"
msgid "Who is reading?"
msgstr "Qui lit ?"

#. id: serve.reading-now
msgctxt "the served browser reader"
msgid "(reading now)"
msgstr "(lit en ce moment)"

#. id: serve.profiles-are
msgctxt "the served browser reader"
msgid ""
"Each profile has its own places, bookmarks, notes and name, the same as "
"[[option]] in the terminal."
msgstr "Chaque profil a ses propres places, marque-pages, notes et prénom, comme [[option]] dans le terminal."

#. id: serve.not-accounts
msgctxt "the served browser reader"
msgid "Profiles are not accounts:"
msgstr "Les profils ne sont pas des comptes :"

#. id: serve.not-accounts-why
msgctxt "the served browser reader"
msgid ""
"anyone who has this reader's link can choose any profile here and read, or "
"change, its places and notes."
msgstr "quiconque a le lien de ce lecteur peut choisir ici n'importe quel profil, et lire ou changer ses places et ses notes."

#. id: serve.new-profile
msgctxt "the served browser reader"
msgid "A new profile"
msgstr "Un nouveau profil"

#. id: serve.read-as-profile
msgctxt "the served browser reader"
msgid "Read as this profile"
msgstr "Lire avec ce profil"

#. id: serve.in-library
msgctxt "the served browser reader"
msgid "In your library: read it"
msgstr "Dans votre bibliothèque : lisez-la"

#. id: serve.get-story
msgctxt "the served browser reader"
msgid "Get this story"
msgstr "Obtenir cette histoire"

#. id: serve.catalogue-line
msgctxt "the served browser reader"
msgid "by [[author]] · Rated [[rating]] · [[chapters]] chapters"
msgstr "de [[author]] · Classée [[rating]] · [[chapters]] chapitres"

#. id: serve.catalogue-empty
msgctxt "the served browser reader"
msgid "The catalogue is empty here: [[command]] in a terminal fetches it."
msgstr "Le catalogue est vide ici : [[command]] dans un terminal le récupère."

#. id: serve.needs-link-title
msgctxt "the served browser reader"
msgid "This reader needs its link"
msgstr "Ce lecteur a besoin de son lien"

#. id: serve.needs-link-open
msgctxt "the served browser reader"
msgid ""
"Open the link (or scan the code) that [[server]] printed when it started: it "
"carries the key to this reader."
msgstr "Ouvrez le lien (ou scannez le code) que [[server]] a affiché en démarrant : il porte la clé de ce lecteur."

#. id: serve.needs-link-old
msgctxt "the served browser reader"
msgid ""
"This browser had no key, or an old one: a reader started with a new key "
"refuses the links given before it."
msgstr "Ce navigateur n'avait pas de clé, ou une ancienne : un lecteur démarré avec une nouvelle clé refuse les liens donnés avant elle."

#. id: serve.form-expired-title
msgctxt "the served browser reader"
msgid "That form has expired"
msgstr "Ce formulaire a expiré"

#. id: serve.form-expired
msgctxt "the served browser reader"
msgid ""
"The page it came from was made before [[server]] last started (or by another "
"site), so nothing was changed. Go back, reload the page and try again."
msgstr "La page d'où il vient a été faite avant le dernier démarrage de [[server]] (ou par un autre site), donc rien n'a été changé. Revenez en arrière, rechargez la page et réessayez."

#. id: serve.page-not-found-title
msgctxt "the served browser reader"
msgid "Page not found"
msgstr "Page introuvable"

#. id: serve.page-not-found
msgctxt "the served browser reader"
msgid "There is no page at this address."
msgstr "Il n'y a pas de page à cette adresse."

#. id: serve.went-wrong
msgctxt "the served browser reader"
msgid "Something went wrong"
msgstr "Quelque chose s'est mal passé"

#. id: serve.story-not-found-title
msgctxt "the served browser reader"
msgid "Story not found"
msgstr "Histoire introuvable"

#. id: serve.story-not-found
msgctxt "the served browser reader"
msgid ""
"This story is not in the library: it may have been removed (from the "
"terminal, with [[command]]) since this page was shown."
msgstr "Cette histoire n'est pas dans la bibliothèque : elle a peut-être été retirée (depuis le terminal, avec [[command]]) depuis que cette page a été affichée."

#. id: serve.story-removed-title
msgctxt "the served browser reader"
msgid "Story removed"
msgstr "Histoire retirée"

#. id: serve.story-removed
msgctxt "the served browser reader"
msgid ""
"“[[story]]” was removed from the library while you were reading it; your "
"place is kept if it was removed with its places kept, and is there again when "
"the story is added back."
msgstr "« [[story]] » a été retirée de la bibliothèque pendant que vous la lisiez ; votre place est gardée si elle a été retirée avec ses places gardées, et revient quand l'histoire est ajoutée à nouveau."

#. id: serve.no-such-profile-title
msgctxt "the served browser reader"
msgid "No such profile"
msgstr "Pas de tel profil"

#. id: serve.no-such-profile
msgctxt "the served browser reader"
msgid "A profile's name is 1 to [[count]] characters."
msgstr "Le nom d'un profil a de 1 à [[count]] caractères."

#. id: serve.choose-again
msgctxt "the served browser reader"
msgid "Choose again"
msgstr "Choisir à nouveau"

#. id: serve.chapter-not-found-title
msgctxt "the served browser reader"
msgid "Chapter not found"
msgstr "Chapitre introuvable"

#. id: serve.chapter-not-found
msgctxt "the served browser reader"
msgid ""
"“[[story]]” has no chapter “[[chapter]]”: the story may have changed since "
"this link was made."
msgstr "« [[story]] » n'a pas de chapitre « [[chapter]] » : l'histoire a peut-être changé depuis que ce lien a été fait."

#. id: serve.story-page
msgctxt "the served browser reader"
msgid "The story's page"
msgstr "La page de l'histoire"

#. id: serve.not-started-title
msgctxt "the served browser reader"
msgid "Not started"
msgstr "Pas commencée"

#. id: serve.no-place-to-restart
msgctxt "the served browser reader"
msgid "There is no place in this story to start again from."
msgstr "Il n'y a pas de place dans cette histoire d'où recommencer."

#. id: serve.begin-it
msgctxt "the served browser reader"
msgid "Begin it"
msgstr "La commencer"

#. id: serve.not-in-catalogue-title
msgctxt "the served browser reader"
msgid "Not in the catalogue"
msgstr "Pas dans le catalogue"

#. id: serve.not-in-catalogue
msgctxt "the served browser reader"
msgid "That story is not in the catalogue (any more)."
msgstr "Cette histoire n'est pas (ou plus) dans le catalogue."

#. id: serve.the-catalogue
msgctxt "the served browser reader"
msgid "The catalogue"
msgstr "Le catalogue"

#. id: serve.could-not-get-title
msgctxt "the served browser reader"
msgid "Could not get the story"
msgstr "Impossible d'obtenir l'histoire"

#. id: serve.could-not-get
msgctxt "the served browser reader"
msgid "“[[story]]” could not be downloaded: [[reason]]."
msgstr "« [[story]] » n'a pas pu être téléchargée : [[reason]]."

#. id: serve.place-not-saved-title
msgctxt "the served browser reader"
msgid "Your place was not saved"
msgstr "Votre place n'a pas été enregistrée"

#. id: serve.place-not-saved
msgctxt "the served browser reader"
msgid "The library could not keep your place: [[reason]]."
msgstr "La bibliothèque n'a pas pu garder votre place : [[reason]]."

#. id: serve.go-on-reading
msgctxt "the served browser reader"
msgid "Go on reading"
msgstr "Continuer à lire"

#. id: book.the-end
msgctxt "the EPUB gamebook"
msgid "The end."
msgstr "Fin."

#. id: book.turn-to
msgctxt "the EPUB gamebook"
msgid "turn to [[number]]"
msgstr "allez au [[number]]"

#. id: book.cover
msgctxt "the EPUB gamebook"
msgid "Cover"
msgstr "Couverture"

#. id: book.how-to-read
msgctxt "the EPUB gamebook"
msgid ""
"Begin at section 1. At the end of each section, choose, and turn to the "
"section your choice names."
msgstr "Commencez à la section 1. À la fin de chaque section, choisissez, et allez à la section que votre choix indique."

#. id: book.begin
msgctxt "the EPUB gamebook"
msgid "Begin: section 1 of [[count]]"
msgstr "Commencer : section 1 sur [[count]]"

"""#,
    ]
}
