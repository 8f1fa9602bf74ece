import Foundation
import StoryTranslation
import Testing
import TestSupport

@testable import InterfaceWords

@Suite("cyd's words for readers, in their languages")
struct PhrasebookTests {
    static let folder = TestHTTPServer.packageRoot.appendingPathComponent("Sources/InterfaceWords").path
    static var translations: String { folder + "/translations" }

    /// The languages LINGUAS lists, and their files.
    static func shipped() throws -> [(language: String, path: String)] {
        let linguas = try [UInt8](Data(contentsOf: URL(fileURLWithPath: translations + "/LINGUAS")))
        return Linguas.languageFiles(Linguas.languages(linguas)).map { ($0.language, translations + "/" + $0.stem + ".po") }
    }

    @Test("the program holds exactly what the PO files say, for every language LINGUAS lists and no other")
    func embeddedIsTheFiles() throws {
        let shipped = try Self.shipped()
        #expect(!shipped.isEmpty)
        #expect(Set(Catalogues.embedded.keys) == Set(shipped.map(\.language)), "run scripts/embed-interface-words.sh")
        for (language, path) in shipped {
            // As the script keeps it: the file without its opening comments.
            let text = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                .drop { $0.hasPrefix("#") }.joined(separator: "\n")
            #expect(Catalogues.embedded[language] == text, "\(language): the program's copy differs from \(path); run scripts/embed-interface-words.sh")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.translations).filter { $0.hasSuffix(".po") }
        #expect(Set(files.map { String($0.dropLast(3)) }) == Set(shipped.map { URL(fileURLWithPath: $0.path).deletingPathExtension().lastPathComponent }),
            "a PO file that LINGUAS does not list is never shipped")
    }

    @Test("every shipped language is whole: each phrase translated from today's English, its placeholders kept, no control character")
    func shippedLanguagesAreWhole() throws {
        for (language, _) in try Self.shipped() {
            let file = try TranslationFile.read(Array(Catalogues.embedded[language]!.utf8), format: .po)
            let status = Translations.status(file, language: language, units: Phrasebook.units)
            #expect(status.translated == Phrase.allCases.count, "\(language): \(status)")
            let words = try #require(Catalogues.words(language))
            #expect(words.count == Phrase.allCases.count)
            for (key, text) in words {
                #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(language) \(key)")
            }
        }
    }

    @Test("the PO files pass msgfmt --check, and the template lists every phrase with today's English")
    func gettextReadsThem() throws {
        for (language, path) in try Self.shipped() {
            let result = try ChildProcess.run(["msgfmt", "--check", "--check-format", "-o", "/dev/null", path])
            #expect(result.status == 0, "\(language): \(result.standardError)")
        }
        let template = try TranslationFile.read([UInt8](Data(contentsOf: URL(fileURLWithPath: Self.translations + "/interface.pot"))), format: .po)
        #expect(template.entries.map { $0.ids.first ?? "" } == Phrase.allCases.map(\.rawValue), "run cyd l10n update --interface Sources/InterfaceWords")
        #expect(template.entries.map(\.source) == Phrase.allCases.map(\.english))
    }

    @Test("a phrase comes in the first preferred language that has it, else English; fr-CA is served by fr, and English ends the search")
    func choosing() {
        #expect(Phrasebook(preferring: ["fr-CA"])[.pageBegin] == "Commencer")
        #expect(Phrasebook(preferring: ["fr-CA"]).language == "fr")
        #expect(Phrasebook(preferring: ["de", "fr"])[.pageBegin] == "Commencer")
        #expect(Phrasebook(preferring: ["en-GB", "fr"])[.pageBegin] == "Begin")
        #expect(Phrasebook(preferring: ["de"]).language == "en")
        #expect(Phrasebook.english[.pageBegin] == "Begin")
        // Per phrase: a catalogue that lacks a phrase gives the next language's, then English.
        let partial = Phrasebook(lookups: [("fr", [Phrase.pageBegin.rawValue: "Commencer"])])
        #expect(partial[.pageBegin] == "Commencer")
        #expect(partial[.pageStartAgain] == "Start again")
    }

    @Test("the environment is read as gettext reads it: LANGUAGE's list, then LC_ALL, LC_MESSAGES, LANG; C means English")
    func environment() {
        #expect(Phrasebook.preferences(environment: ["LANG": "fr_FR.UTF-8"]) == ["fr-FR"])
        #expect(Phrasebook.preferences(environment: ["LANGUAGE": "de:fr", "LANG": "en_US.UTF-8"]) == ["de", "fr", "en-US"])
        #expect(Phrasebook.preferences(environment: ["LANGUAGE": "fr", "LC_ALL": "C"]) == [])
        #expect(Phrasebook.preferences(environment: ["LC_MESSAGES": "fr_BE", "LANG": "de_DE"]) == ["fr-BE"])
        #expect(Phrasebook(asked: "original", environment: ["LANG": "fr_FR.UTF-8"])[.readerKeyQuit] == "quitter")
        #expect(Phrasebook(asked: "fr", environment: [:])[.readerKeyQuit] == "quitter")
        #expect(Phrasebook(asked: nil, environment: ["LANG": "C.UTF-8"])[.readerKeyQuit] == "quit")
    }

    @Test("placeholders are filled once: a value holding [[x]] is not filled again, and an unknown one stays")
    func filling() {
        let words = Phrasebook.english
        #expect(words(.pageEndingsFound, ["found": "2", "total": "5"]) == "Endings found: 2 of 5.")
        #expect(Phrasebook.fill("[[a]] and [[b]]", ["a": "[[b]]"]) == "[[b]] and [[b]]")
        #expect(Phrasebook.fill("[[a]] [[", ["a": "x"]) == "x [[")
        #expect(Phrasebook.fill("no places", ["a": "x"]) == "no places")
    }

    @Test("every English phrase is plain one-line text whose placeholders are words, and keys are unique")
    func phrasesAreWellFormed() {
        #expect(Set(Phrase.allCases.map(\.rawValue)).count == Phrase.allCases.count)
        for phrase in Phrase.allCases {
            #expect(!phrase.english.contains("\n"), "\(phrase)")
            for match in phrase.english.matches(of: /\[\[([^\]]*)\]\]/) { let slot = match.output.1; #expect(slot.allSatisfy { $0.isLetter }, "\(phrase)") }
        }
    }
}
