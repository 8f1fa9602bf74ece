// Random mutation of kept inputs, without coverage guidance: what the test command's fuzzing
// smoke runs on the debug build the suite already made (building the package again with
// libFuzzer's instrumentation, NIO and Hummingbird included, costs more than the smoke itself;
// `scripts/fuzz-served.sh` does that for fuzzing sessions). Each round takes a seed, stacks one
// to eight mutations on it (bits flipped, bytes set, inserted, deleted or repeated, tokens of
// HTTP, JSON and forms put in, a splice with another seed, a cut) and runs the target. The
// random sequence comes from `--seed`, so a run is repeated by its seed; the input being run is
// kept where a signal handler can write it, so a crash leaves it in the `--crash` file.
#if canImport(Glibc)
import Glibc
#endif

enum Mutation {
    /// The longest input made (as `scripts/fuzz-served.sh` asks of libFuzzer).
    static let maximumLength = 4096

    /// Runs `target` on mutations of `seeds` for `seconds`; how many inputs ran. A crash ends
    /// the process by its signal, the input written to `crashFile` first.
    static func run(_ target: FuzzTarget, seeds: [[UInt8]], seconds: Double, seed: UInt64, crashFile: String) -> Int {
        let pool = seeds.isEmpty ? [[UInt8]()] : seeds
        var random = SplitMix(seed)
        CrashKeeper.install(path: crashFile)
        // A planted fault, for the test that proves a crash is caught and its input kept: an
        // input holding CYD_MUTATION_PLANT's bytes traps.
        let plant = getenv("CYD_MUTATION_PLANT").map { Array(String(cString: $0).utf8) }
        let deadline = now() + seconds
        var runs = 0
        while runs == 0 || now() < deadline {
            var input = pool[random.below(pool.count)]
            for _ in 0...random.below(8) { mutate(&input, random: &random, pool: pool) }
            if input.count > maximumLength { input.removeLast(input.count - maximumLength) }
            CrashKeeper.keep(input)
            if let plant, !plant.isEmpty, input.count >= plant.count,
                (0...(input.count - plant.count)).contains(where: { input[$0..<$0 + plant.count].elementsEqual(plant) })
            {
                preconditionFailure("the planted fault")
            }
            target.run(input)
            runs += 1
        }
        return runs
    }

    /// Pieces the targets' formats are made of: HTTP, JSON, form and cookie syntax, and bytes
    /// that are edges (NUL, DEL, a UTF-8 lead byte alone, a percent escape cut short).
    static let tokens: [[UInt8]] = [
        "\r\n", "\r\n\r\n", "GET ", "POST ", " HTTP/1.1", "Host: ", "Content-Length: ", "Cookie: ", "Transfer-Encoding: chunked", "Connection: close",
        "?", "&", "=", "%", "%2", "%00", "%ZZ", "+", ";", "; ", "/", "..", "//", "#", "{", "}", "[", "]", ":", ",", "\"", "\\", "\\u0000", "null", "true",
        "-1", "0", "18446744073709551616", "1e308", "\u{FEFF}", "\u{202E}",
    ].map { Array($0.utf8) } + [[0], [0x7F], [0xFF], [0xC3], [0xE2, 0x80], [0xF0, 0x9F, 0x98]]

    static func mutate(_ input: inout [UInt8], random: inout SplitMix, pool: [[UInt8]]) {
        switch random.below(input.isEmpty ? 3 : 9) {
        case 0: input.insert(contentsOf: tokens[random.below(tokens.count)], at: random.below(input.count + 1))
        case 1: input.insert(contentsOf: (0..<1 + random.below(8)).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: random.below(input.count + 1))
        case 2:  // a splice: this input's start, another's end
            let other = pool[random.below(pool.count)]
            input = Array(input.prefix(random.below(input.count + 1))) + other.suffix(random.below(other.count + 1))
        case 3: input[random.below(input.count)] ^= UInt8(1) << UInt8(random.below(8))
        case 4: input[random.below(input.count)] = UInt8(truncatingIfNeeded: random.next())
        case 5:
            let start = random.below(input.count)
            input.removeSubrange(start..<min(input.count, start + 1 + random.below(16)))
        case 6:  // a range repeated
            let start = random.below(input.count)
            let piece = input[start..<min(input.count, start + 1 + random.below(32))]
            input.insert(contentsOf: Array(repeating: Array(piece), count: 1 + random.below(4)).joined(), at: random.below(input.count + 1))
        case 7: input.removeLast(random.below(input.count + 1))
        default:  // a digit changed into another number
            guard let digit = input.indices.shuffledFirst(where: { (0x30...0x39).contains(input[$0]) }, random: &random) else { return }
            input.replaceSubrange(digit...digit, with: Array(["0", "9", "65535", "-1", "4294967296"][random.below(5)].utf8))
        }
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// SplitMix64: a small, good sequence from one seed.
struct SplitMix {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A number in 0..<bound (0 when bound is 0).
    mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
}

extension Range where Bound == Int {
    /// An index where `accepts` holds, looked for from a random start.
    func shuffledFirst(where accepts: (Int) -> Bool, random: inout SplitMix) -> Int? {
        guard !isEmpty else { return nil }
        let start = lowerBound + random.below(count)
        return (start..<upperBound).first(where: accepts) ?? (lowerBound..<start).first(where: accepts)
    }
}

/// The input being run, kept where a signal handler reaches it without allocating: on a crash
/// (a Swift trap is SIGILL or SIGTRAP; also SIGSEGV, SIGBUS, SIGFPE, SIGABRT) it is written to
/// the crash file, and the signal is raised again so the process ends by it.
enum CrashKeeper {
    nonisolated(unsafe) static var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: Mutation.maximumLength)
    nonisolated(unsafe) static var length = 0
    nonisolated(unsafe) static var path: UnsafeMutablePointer<CChar>?

    static func install(path file: String) {
        path = strdup(file)
        #if canImport(Glibc)
        for signal in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT] {
            Glibc.signal(signal) { received in
                if let path = CrashKeeper.path {
                    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                    if fd >= 0 {
                        _ = write(fd, CrashKeeper.buffer, CrashKeeper.length)
                        close(fd)
                    }
                }
                Glibc.signal(received, SIG_DFL)
                raise(received)
            }
        }
        #endif
    }

    static func keep(_ input: [UInt8]) {
        let count = min(input.count, Mutation.maximumLength)
        if count > 0 { input.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: count) } }
        length = count
    }
}
