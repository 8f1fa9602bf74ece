import ArgumentParser
import Foundation
import Dispatch
import CydWords
import StoryFormat
import StorySync
import TerminalUI

struct CatalogueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "catalogue",
        abstract: "Work with the synced catalogue as a catalogue keeper: publish it, sign it, watch its health.",
        subcommands: [Publish.self, Status.self, Keygen.self])

    struct Publish: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "publish",
            abstract: "Write the synced catalogue as static files for readers to sync from.",
            discussion: Help.publish)

        @Argument(help: "The folder to publish into (made if missing).") var folder: String
        @Option(help: ArgumentHelp("Sign with this secret key (from `cyd catalogue keygen`, or `signify -G -n`).", valueName: "key.sec")) var sign: String?
        @Option(help: ArgumentHelp(
            "Hand over from this old secret key to the one given with --sign: catalogue.handover (the new public key, signed by the old one) lets readers who trust the old key follow once.",
            valueName: "old.sec"))
        var handoverFrom: String?
        @Option(help: "The catalogue's name, shown to readers and in the report.") var name = "catalogue"
        @Option(help: ArgumentHelp("How long readers may use what is published: seconds, or a number with s, m, h or d.", valueName: "age")) var expires = "7d"
        @Flag(help: "Print what changed as one JSON object.") var json = false
        @OptionGroup var library: LibraryOptions

        func validate() throws {
            guard let seconds = Words.seconds(expires), seconds >= 60 else { throw ValidationError("--expires takes at least a minute: seconds, or a number with s, m, h or d, like 7d") }
        }

        func run() throws {
            let library = try library.open()
            var options = PublishOptions()
            (options.name, options.expiresAfter) = (name, Words.seconds(expires) ?? options.expiresAfter)
            if let sign { options.key = try Sync.key(sign, secret: true, Signify.secretKey) }
            if let handoverFrom {
                guard options.key != nil else { throw CLIError("--handover-from hands over to the key given with --sign; give both") }
                options.handoverFrom = try Sync.key(handoverFrom, secret: true, Signify.secretKey)
            }
            let result: PublishResult
            do {
                result = try CatalogueRoot.publish(library, to: folder, options: options)
                try writeReport(result, name: name, now: options.now)
            } catch let error as SyncError {
                throw CLIError(VisibleText.escape(error.description))
            }
            if json { return Terminal.standardOutput.write(CatalogueWords.json(result).encoded + "\n") }
            Terminal.standardOutput.print(
                CatalogueWords.published(result, folder: folder, root: FileWriter.joined(folder, CatalogueRoot.rootFile), report: FileWriter.joined(folder, "report.html")))
        }

        /// report.html, and a badge per story (StorySync's `CatalogueBadges` writes them).
        func writeReport(_ result: PublishResult, name: String, now: Double) throws {
            let rows = result.status.map(StatusWords.row)
            try CatalogueRoot.write(Array(CatalogueWords.reportPage(result, rows: rows, name: name, now: now).utf8), to: FileWriter.joined(folder, "report.html"))
            let (badges, draw) = CatalogueWords.badges(result, rows: rows)
            try CatalogueBadges.write(badges, draw: draw, into: FileWriter.joined(folder, "badges"))
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status",
            abstract: "Show the health of every story in the synced catalogue.",
            discussion: "Per story: its state (valid, warnings, broken since, unreachable since, failing, not checked), the version readers get (the last good commit), its findings and when it last changed. Exit 1 when any story is broken, unreachable or failing.")

        @Flag(help: "Print one JSON object.") var json = false
        @OptionGroup var library: LibraryOptions

        func run() throws {
            let library = try library.open()
            let status = CatalogueStatus.of(try library.catalogue())
            let troubled = status.filter(StatusWords.isTroubled)
            if json {
                Terminal.standardOutput.write(StatusWords.json(status).encoded + "\n")
            } else if status.isEmpty {
                Terminal.standardOutput.write("the catalogue is empty; `cyd sync` fills it\n")
            } else {
                Terminal.standardOutput.print(StatusWords.table(status, troubled: troubled.count))
            }
            if !troubled.isEmpty { throw Exit.problemsFound }
        }
    }

    struct Keygen: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "keygen",
            abstract: "Make a key pair for signing a published catalogue (Ed25519, in signify's format).",
            discussion: "Writes NAME.sec (the secret key, readable only by you, without a passphrase: keep it in your CI's secrets) and NAME.pub (give it to readers, and publish it beside the catalogue). `signify -V -e -p NAME.pub -x catalogue.sig -m root.json` verifies what `cyd catalogue publish --sign NAME.sec` signs. Never overwrites a key.")

        @Argument(help: "The key files' name, without .sec/.pub.") var name: String

        func run() throws {
            let outcome = Result { () throws(Signify.KeyPairFailure) in try Signify.writeKeyPair(named: name, purpose: "cyd catalogue key") }
            guard case .success = outcome else { throw CLIError(CatalogueWords.keyPair(outcome, name: name)) }
            Terminal.standardOutput.write(CatalogueWords.keyPair(outcome, name: name) + "\n")
        }
    }
}

