// Fuzz targets that need the package's dependencies (SwiftNIO, Hummingbird, GRDB), built by
// SwiftPM rather than by hand: `scripts/fuzz-served.sh TARGET SECONDS` builds this executable
// with libFuzzer (-sanitize=fuzzer -DFUZZING) and runs one target. Built as usual (no FUZZING),
// it is a replay driver: `CydFuzz TARGET FILE...` runs each input once, which the test suite does
// with every kept seed and regression; and `CydFuzz TARGET --mutate SECONDS [--seed N] --crash
// FILE FILE...` runs the files' inputs mutated at random for that long (no coverage guidance:
// the test command's smoke, on the build the suite already made; libFuzzer is for sessions).
//
// Targets:
//   serve-request  raw bytes as a client sends them to `cyd serve`: HTTP/1's decoder, RequestLine,
//                  the conversion to HTTPTypes, RequestDeadline and KeptPages in an EmbeddedChannel,
//                  then every request that comes out through the gate and the routes
//   catalogue      a signed root (signify, embedded) and the root, shard and index readers
//   forms          the form, query, cookie and profile-cookie readers, and the carried values
//   interchange    the Twee, Twine archive, PO and XLIFF readers, and what a story read writes back
#if canImport(Glibc)
import Glibc
#endif

enum FuzzTarget: String, CaseIterable {
    case serveRequest = "serve-request"
    case catalogue
    case forms
    case interchange

    /// Whether this build can run the target: the targets reach internals (`@testable`), so
    /// only a debug build has them, and the served ones need the BrowserReader trait.
    var isBuilt: Bool {
        #if DEBUG
        #if BrowserReader
        return true
        #else
        return self == .catalogue || self == .interchange
        #endif
        #else
        return false
        #endif
    }

    func run(_ bytes: [UInt8]) {
        #if DEBUG
        switch self {
        #if BrowserReader
        case .serveRequest: ServedFuzzing.request(bytes)
        case .forms: ServedFuzzing.forms(bytes)
        #else
        case .serveRequest, .forms: preconditionFailure("built without the BrowserReader trait")
        #endif
        case .catalogue: CatalogueFuzzing.run(bytes)
        case .interchange: InterchangeFuzzing.run(bytes)
        }
        #endif
    }

    /// The target named by FUZZ_TARGET (libFuzzer owns the arguments).
    static var chosen: FuzzTarget? { getenv("FUZZ_TARGET").flatMap { FuzzTarget(rawValue: String(cString: $0)) } }
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.chosen?.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#endif

/// A line on standard error.
func say(_ line: String) {
    var text = line
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

@main
struct CydFuzz {
    static func main() {
        #if FUZZING
        guard let chosen = FuzzTarget.chosen, chosen.isBuilt else {
            say("FUZZ_TARGET is one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n")
            exit(2)
        }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
        #else
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            say("usage: CydFuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) FILE...\n")
            exit(2)
        }
        guard target.isBuilt else {
            say("\(name) is in debug builds with the BrowserReader trait only (it reaches internals with @testable)\n")
            exit(2)
        }
        var rest = Array(arguments.dropFirst())
        var mutate: Double?
        var seed: UInt64 = 1
        var crashFile = "crash-input"
        while let option = rest.first, option.hasPrefix("--") {
            guard rest.count >= 2 else { say("\(option) needs a value\n"); exit(2) }
            switch option {
            case "--mutate": mutate = Double(rest[1])
            case "--seed": seed = UInt64(rest[1]) ?? 1
            case "--crash": crashFile = rest[1]
            default: say("unknown option \(option)\n"); exit(2)
            }
            rest.removeFirst(2)
        }
        let inputs = rest.map(readInput)
        if let seconds = mutate {
            let runs = Mutation.run(target, seeds: inputs, seconds: seconds, seed: seed, crashFile: crashFile)
            print("mutated \(runs) inputs of \(name) from \(inputs.count) seeds in \(seconds) s (seed \(seed)): no crash")
            return
        }
        for bytes in inputs { target.run(bytes) }
        let count = inputs.count
        print("replayed \(count) inputs of \(name): no crash")
        #endif
    }
}

/// A file's bytes, or exit 2 saying it cannot be read.
func readInput(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else {
        say("cannot read \(path)\n")
        exit(2)
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let read = fread(&buffer, 1, buffer.count, file)
        if read <= 0 { break }
        bytes += buffer[..<read]
    }
    return bytes
}
