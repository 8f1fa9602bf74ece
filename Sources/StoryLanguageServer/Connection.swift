#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// JSON-RPC over a pair of file descriptors with LSP's `Content-Length` framing.
final class Connection {
    enum Incoming {
        case message(JSONValue)
        /// A body that is not JSON: answered with a parse error.
        case malformed
    }

    /// The largest message accepted; a larger one is skipped (the editor hears why) so one
    /// runaway message cannot take all memory.
    static let maximumMessageBytes = 256 << 20

    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes of an oversized message still to be thrown away.
    private var skipping = 0
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

    /// Reads what is available (one read) into the buffer; sets `reachedEnd` at end of input.
    func readAvailable() {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR || errno == EAGAIN { return }
        if count <= 0 {
            reachedEnd = true
            return
        }
        var bytes = chunk[0..<count]
        if skipping > 0 {
            let dropped = min(skipping, bytes.count)
            skipping -= dropped
            bytes = bytes.dropFirst(dropped)
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete message in the buffer, if there is one.
    func nextMessage() -> Incoming? {
        while true {
            guard let headerEnd = find([13, 10, 13, 10], from: start) else { return nil }
            let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
            var length: Int?
            for line in header.split(separator: "\r\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == "content-length" {
                    length = Int(parts[1].trimmingCharacters(in: " \t"))
                }
            }
            let bodyStart = headerEnd + 4
            guard let length, length >= 0 else {
                // No usable length: skip the header and answer with a parse error.
                start = bodyStart
                compact()
                return .malformed
            }
            if length > Self.maximumMessageBytes {
                let available = buffer.count - bodyStart
                skipping = max(0, length - available)
                start = min(buffer.count, bodyStart + length)
                oversized.append(length)
                compact()
                continue
            }
            guard buffer.count - bodyStart >= length else { return nil }
            let body = Array(buffer[bodyStart..<bodyStart + length])
            start = bodyStart + length
            compact()
            if let value = JSONValue.parse(body) { return .message(value) }
            return .malformed
        }
    }

    private func find(_ pattern: [UInt8], from: Int) -> Int? {
        guard buffer.count - from >= pattern.count else { return nil }
        var index = from
        while index + pattern.count <= buffer.count {
            if buffer[index] == pattern[0], buffer[index + 1] == pattern[1], buffer[index + 2] == pattern[2], buffer[index + 3] == pattern[3] {
                return index
            }
            index += 1
        }
        return nil
    }

    private func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.count < 1 << 20)
            start = 0
        } else if start > 1 << 20, start > buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
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
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
