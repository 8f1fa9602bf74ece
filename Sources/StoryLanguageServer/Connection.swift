#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StoryFormat

/// LSP's `Content-Length` framing over a byte stream, with no I/O of its own: bytes go in as
/// they arrive, messages come out. Bounded: a header is at most `maximumHeaderBytes` (one that
/// never ends cannot grow without limit, nor be searched again from its start on every read),
/// a body at most `maximumMessageBytes` (a larger one is skipped, and said).
public struct MessageFraming: Sendable {
    public enum Incoming: Sendable, Equatable {
        /// A complete body (not yet parsed).
        case body([UInt8])
        /// A header with no usable Content-Length: answered with a parse error.
        case malformed
        /// A body over the limit, skipped.
        case oversized(length: Int)
        /// A header longer than the limit: the stream can no longer be followed.
        case headerTooLong
    }

    public static let maximumMessageBytes = 256 << 20
    public static let maximumHeaderBytes = 8 << 10

    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the end of the current header resumes.
    private var searchedUpTo = 0
    /// Bytes of an oversized message still to be thrown away.
    private var skipping = 0
    private var broken = false

    public init() {}

    public mutating func append(_ bytes: some Collection<UInt8>) {
        guard !broken else { return }
        var bytes = bytes[...]
        if skipping > 0 {
            let dropped = min(skipping, bytes.count)
            skipping -= dropped
            bytes = bytes.dropFirst(dropped)
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete message in what has arrived, if there is one.
    public mutating func next() -> Incoming? {
        guard !broken else { return nil }
        guard let headerEnd = findHeaderEnd() else {
            if buffer.count - start > Self.maximumHeaderBytes {
                broken = true
                buffer = []
                start = 0
                return .headerTooLong
            }
            return nil
        }
        let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
        var length: Int?
        for line in header.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                let digits = parts[1].trimmingCharacters(in: " \t")
                length = digits.count <= 18 ? Int(digits) : nil
            }
        }
        let bodyStart = headerEnd + 4
        guard let length, length >= 0 else {
            // No usable length: skip the header and answer with a parse error.
            advance(to: bodyStart)
            return .malformed
        }
        if length > Self.maximumMessageBytes {
            let available = buffer.count - bodyStart
            skipping = max(0, length - available)
            advance(to: min(buffer.count, bodyStart + length))
            return .oversized(length: length)
        }
        guard buffer.count - bodyStart >= length else { return nil }
        let body = Array(buffer[bodyStart..<bodyStart + length])
        advance(to: bodyStart + length)
        return .body(body)
    }

    /// The end of the header that starts at `start`, searched only in bytes not searched before.
    private mutating func findHeaderEnd() -> Int? {
        var index = max(start, searchedUpTo - 3)
        let limit = min(buffer.count, start + Self.maximumHeaderBytes + 4)
        while index + 4 <= limit {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 { return index }
            index += 1
        }
        searchedUpTo = max(start, index)
        return nil
    }

    private mutating func advance(to offset: Int) {
        start = offset
        searchedUpTo = offset
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.count < 1 << 20)
            start = 0
            searchedUpTo = 0
        } else if start > 1 << 20, start > buffer.count / 2 {
            buffer.removeFirst(start)
            searchedUpTo -= start
            start = 0
        }
    }
}

/// JSON-RPC over a pair of file descriptors with LSP's `Content-Length` framing.
final class Connection {
    enum Incoming {
        case message(JSONValue)
        /// A body that is not JSON: answered with a parse error.
        case malformed
        /// A header longer than the limit: the connection is closed.
        case headerTooLong
    }

    static let maximumMessageBytes = MessageFraming.maximumMessageBytes

    private let input: Int32
    private let output: Int32
    private var framing = MessageFraming()
    private(set) var reachedEnd = false
    var oversized: [Int] = []

    init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// Waits up to `milliseconds` (forever when negative) for input; false when none came.
    func waitForInput(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            return ready > 0
        }
    }

    /// Reads what is available (one read); sets `reachedEnd` at end of input.
    func readAvailable() {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR || errno == EAGAIN { return }
        if count <= 0 {
            reachedEnd = true
            return
        }
        framing.append(chunk[0..<count])
    }

    /// The next complete message in what has arrived, if there is one.
    func nextMessage() -> Incoming? {
        while let incoming = framing.next() {
            switch incoming {
            case .body(let body):
                if let value = JSONValue.parse(body) { return .message(value) }
                return .malformed
            case .malformed: return .malformed
            case .oversized(let length): oversized.append(length)
            case .headerTooLong: return .headerTooLong
            }
        }
        return nil
    }

    func send(_ message: JSONValue) {
        let body = message.bytes
        let bytes = Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        bytes.withUnsafeBytes { raw in
            var written = 0
            while written < raw.count {
                let count = write(output, raw.baseAddress! + written, raw.count - written)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return }
                written += count
            }
        }
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String { trimmingScalars { set.unicodeScalars.contains($0) } }
}
