import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import CydWords
import LocalFiles
import StoryFormat
import StorySources
import StoryStore
import StorySync
import StoryWeb
import TerminalUI

struct CatalogueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalogue",
        abstract: "Work with the synced catalogue as a catalogue keeper: publish it, sign it, watch its health.",
        subcommands: [Publish.self, Status.self, Keygen.self])

    struct Publish: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the synced catalogue as static files for readers to sync from.",
            discussion: Help.publish)

        @Argument(help: "The folder to publish into (made if missing).")
        var folder: String

        @Option(help: ArgumentHelp("Sign with this secret key (from `cyd catalogue keygen`, or `signify -G -n`).", valueName: "key.sec"))
        var sign: String?

        @Option(help: ArgumentHelp(
            "Hand over from this old secret key to the one given with --sign: catalogue.handover (the new public key, signed by the old one) lets readers who trust the old key follow once.",
            valueName: "old.sec"))
        var handoverFrom: String?

        @Option(help: "The catalogue's name, shown to readers and in the report.")
        var name = "catalogue"

        @Option(help: ArgumentHelp("How long readers may use what is published: seconds, or a number with s, m, h or d.", valueName: "age"))
        var expires = "7d"

        @Flag(help: "Print what changed as one JSON object.")
        var json = false

        @OptionGroup var library: LibraryOptions

        func validate() throws {
            guard let seconds = Sync.seconds(expires), seconds >= 60 else { throw ValidationError("--expires takes at least a minute: seconds, or a number with s, m, h or d, like 7d") }
        }

        func run() throws {
            let library = try library.open()
            var options = PublishOptions()
            options.name = name
            options.expiresAfter = Sync.seconds(expires) ?? options.expiresAfter
            func secretKey(_ path: String) throws -> Signify.SecretKey {
                let bytes: [UInt8]
                do { bytes = try LocalFile.read(path, limit: 4096) } catch { throw CLIError("cannot read the secret key \(VisibleText.escape(path)): \(VisibleText.escape(String(describing: error)))") }
                do { return try Signify.secretKey(bytes) } catch {
                    throw CLIError("\(VisibleText.escape(path)) is not a usable secret key: \(VisibleText.escape(SyncWords.trust(.signature(error)))) (make one with `cyd catalogue keygen`, or `signify -G -n`)")
                }
            }
            if let sign { options.key = try secretKey(sign) }
            if let handoverFrom {
                guard options.key != nil else { throw CLIError("--handover-from hands over to the key given with --sign; give both") }
                options.handoverFrom = try secretKey(handoverFrom)
            }
            let result: PublishResult
            do {
                result = try CatalogueRoot.publish(library, to: folder, options: options)
                try writeReport(result, name: name, now: options.now)
            } catch let error as SyncError {
                throw CLIError(VisibleText.escape(error.description))
            }
            if json {
                Terminal.standardOutput.write(CatalogueWords.json(result).encoded + "\n")
                return
            }
            let lines = CatalogueWords.published(
                result, folder: folder, root: FileWriter.joined(folder, CatalogueRoot.rootFile), report: FileWriter.joined(folder, "report.html"))
            Terminal.standardOutput.print(lines)
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
        static let configuration = CommandConfiguration(
            abstract: "Show the health of every story in the synced catalogue.",
            discussion: "Per story: its state (valid, warnings, broken since, unreachable since, failing, not checked), the version readers get (the last good commit), its findings and when it last changed. Exit 1 when any story is broken, unreachable or failing.")

        @Flag(help: "Print one JSON object.")
        var json = false

        @OptionGroup var library: LibraryOptions

        func run() throws {
            let library = try library.open()
            let status = CatalogueStatus.of(try library.catalogue())
            let troubled = status.filter { switch $0.state { case .broken, .unreachable, .failing: true; default: false } }
            if json {
                // The states by the words the text uses, and totals that add up to "stories".
                var totals: [String: JSONValue] = ["stories": .number(Double(status.count)), "good": .number(Double(status.count - troubled.count))]
                for state in ["valid", "warnings", "broken", "unreachable", "failing", "unchecked"] { totals[state] = .number(0) }
                for entry in status {
                    if case .string(let state)? = StatusWords.json(entry)["state"], case .number(let count)? = totals[state] { totals[state] = .number(count + 1) }
                }
                Terminal.standardOutput.write(JSONValue.object(["stories": .array(status.map(StatusWords.json)), "totals": .object(totals)]).encoded + "\n")
            } else if status.isEmpty {
                Terminal.standardOutput.write("the catalogue is empty; `cyd sync` fills it\n")
            } else {
                Terminal.standardOutput.print(StatusWords.table(status, troubled: troubled.count))
            }
            if !troubled.isEmpty { throw Exit.problemsFound }
        }
    }

    struct Keygen: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a key pair for signing a published catalogue (Ed25519, in signify's format).",
            discussion: "Writes NAME.sec (the secret key, readable only by you, without a passphrase: keep it in your CI's secrets) and NAME.pub (give it to readers, and publish it beside the catalogue). `signify -V -e -p NAME.pub -x catalogue.sig -m root.json` verifies what `cyd catalogue publish --sign NAME.sec` signs. Never overwrites a key.")

        @Argument(help: "The key files' name, without .sec/.pub.")
        var name: String

        func run() throws {
            let (secretPath, publicPath) = (name + ".sec", name + ".pub")
            for path in [secretPath, publicPath] where FileStatus(path) != nil {
                throw CLIError("\(VisibleText.escape(path)) exists; a key is never overwritten (choose another name)")
            }
            do {
                let key = try Signify.generate()
                let comment = "cyd catalogue key \(key.publicKey.fingerprint)"
                try AtomicFile.write(try Signify.secretKeyFile(key, comment: "\(comment) secret key"), to: secretPath, mode: 0o600)
                try AtomicFile.write(key.publicKey.file(comment: "\(comment) public key"), to: publicPath)
                Terminal.standardOutput.write("wrote \(VisibleText.escape(secretPath)) (secret: keep it out of the repository) and \(VisibleText.escape(publicPath)); key \(key.publicKey.fingerprint)\n")
            } catch let error as Signify.Failure {
                throw CLIError("cannot make a key: \(VisibleText.escape(SyncWords.trust(.signature(error))))")
            } catch {
                throw CLIError("cannot write the key: \(VisibleText.escape(Words.of(error)))")
            }
        }
    }
}

