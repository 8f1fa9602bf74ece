/// "Did you mean" over many candidates (a story's chapter ids), built once and asked once per
/// finding, with the work of each question bounded whatever the number of candidates: 50,000
/// misspelt targets among 100,000 ids must not cost 50,000 x 100,000 comparisons.
///
/// A question is answered from, in order: the same letters ignoring case, '_', '-' and spaces;
/// then the smallest edit distance (at most `KeySuggestion.limit`) among the candidates nearest
/// to the question in sorted order, and in sorted order of the text read backwards. A typo
/// leaves the text before it or the text after it intact, so the right id sorts beside the typo
/// in one of the two orders. Small sets (below `exhaustiveBelow`) are searched whole.
///
/// Candidates are kept folded in one flat byte buffer, so 100,000 ids cost a few megabytes and
/// no allocation each.
public struct SuggestionIndex: Sendable {
    private let candidates: [String]
    /// The folded text of every candidate (lowercased; '_', '-' and ' ' dropped), back to back.
    private let folded: [UInt8]
    private let starts: [Int32]
    /// Candidate positions sorted by folded text, and by folded text read backwards.
    private let forward: [Int32]
    private let backward: [Int32]

    /// Neighbours examined on each side of the question, in each order.
    public static let neighbours = 5
    public static let exhaustiveBelow = 128
    /// Candidates from which the two sorted orders are made on two threads.
    static let parallelFrom = 20_000
    /// Texts longer than this (in bytes, folded) get only the exact match.
    public static let longestFuzzy = 64

    public init(_ candidates: [String]) { self.init(candidates, parallelFrom: Self.parallelFrom) }

    /// - Parameter parallelFrom: candidates from which the two orders are sorted on two threads
    ///   (tests build an index both ways).
    init(_ candidates: [String], parallelFrom: Int) {
        self.candidates = candidates
        var folded: [UInt8] = []
        // Room for ids of 16 bytes or so; longer ones grow it as appending does.
        folded.reserveCapacity(candidates.count * 16)
        var starts: [Int32] = [0]
        starts.reserveCapacity(candidates.count + 1)
        for candidate in candidates {
            Self.fold(candidate, into: &folded)
            starts.append(Int32(folded.count))
        }
        self.folded = folded
        self.starts = starts
        let count = candidates.count
        if count >= max(parallelFrom, Self.exhaustiveBelow) {
            // The two orders at once, one on another core: a story of 100,000 ids sorts twice.
            let (text, ends) = (folded, starts)
            let backwards = BackgroundWork { Self.sorted(count, text, ends, reversed: true) }
            forward = Self.sorted(count, folded, starts, reversed: false)
            backward = backwards.wait()
        } else {
            forward = Self.sorted(count, folded, starts, reversed: false)
            backward = count < Self.exhaustiveBelow ? [] : Self.sorted(count, folded, starts, reversed: true)
        }
    }

    public func nearest(to name: String) -> String? {
        var query: [UInt8] = []
        Self.fold(name, into: &query)
        let order = forward
        // The first candidate not below the question in an order.
        func lowerBound(_ order: [Int32], reversed: Bool) -> Int {
            var low = 0
            var high = order.count
            while low < high {
                let middle = (low + high) / 2
                if Self.compare(slice(Int(order[middle])), query[...], reversed: reversed) < 0 { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let exact = lowerBound(order, reversed: false)
        if exact < order.count, Self.compare(slice(Int(order[exact])), query[...], reversed: false) == 0 {
            // The first in file order among equal folded texts (sorting was stable).
            return candidates[Int(order[exact])]
        }
        let queryScalars = Array(String(decoding: query, as: UTF8.self).unicodeScalars)
        let limit = KeySuggestion.limit(for: queryScalars.count)
        guard limit > 0, query.count <= Self.longestFuzzy else { return nil }
        var best: (position: Int, distance: Int)?
        // One array for every candidate's scalars, refilled: most candidates are ASCII, their
        // bytes their scalars.
        var scalars: [Unicode.Scalar] = []
        func consider(_ position: Int) {
            let candidate = slice(position)
            guard abs(candidate.count - query.count) <= 4 * limit, candidate.count <= 4 * Self.longestFuzzy else { return }
            scalars.removeAll(keepingCapacity: true)
            if candidate.allSatisfy({ $0 < 0x80 }) {
                for byte in candidate { scalars.append(Unicode.Scalar(byte)) }
            } else {
                scalars.append(contentsOf: String(decoding: candidate, as: UTF8.self).unicodeScalars)
            }
            let distance = KeySuggestion.editDistance(queryScalars, scalars, limit: best?.distance ?? limit)
            guard distance <= limit else { return }
            if best == nil || distance < best!.distance || (distance == best!.distance && position < best!.position) {
                best = (position, distance)
            }
        }
        if candidates.count < Self.exhaustiveBelow {
            for position in candidates.indices { consider(position) }
        } else {
            for slot in max(0, exact - Self.neighbours)..<min(order.count, exact + Self.neighbours) { consider(Int(order[slot])) }
            // One edit away is as near as a different text gets.
            if best?.distance == 1 { return candidates[best!.position] }
            let back = lowerBound(backward, reversed: true)
            for slot in max(0, back - Self.neighbours)..<min(backward.count, back + Self.neighbours) { consider(Int(backward[slot])) }
        }
        return best.map { candidates[$0.position] }
    }

    private func slice(_ position: Int) -> ArraySlice<UInt8> { folded[Int(starts[position])..<Int(starts[position + 1])] }

    static func fold(_ text: String, into buffer: inout [UInt8]) {
        // Most ids are ASCII: their bytes folded as they are, without decoding scalars.
        var text = text
        let wasASCII = text.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
            for byte in bytes where byte != UInt8(ascii: "_") && byte != UInt8(ascii: "-") && byte != UInt8(ascii: " ") {
                buffer.append(byte >= 65 && byte <= 90 ? byte + 32 : byte)
            }
            return true
        }
        if wasASCII { return }
        for scalar in text.unicodeScalars where scalar != "_" && scalar != "-" && scalar != " " {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                buffer.append(byte >= 65 && byte <= 90 ? byte + 32 : byte)
            } else {
                buffer.append(contentsOf: String(scalar).lowercased().utf8)
            }
        }
    }

    private static func sorted(_ count: Int, _ folded: [UInt8], _ starts: [Int32], reversed: Bool) -> [Int32] {
        func slice(_ i: Int32) -> ArraySlice<UInt8> { folded[Int(starts[Int(i)])..<Int(starts[Int(i) + 1])] }
        // The first eight bytes (from the end, for the backward order) as one number, so most
        // comparisons are one integer comparison; the texts are compared only on a tie.
        let keys: [UInt64] = (0..<count).map { i in
            let text = slice(Int32(i))
            var key: UInt64 = 0
            for k in 0..<8 {
                let byte: UInt8 = k < text.count ? (reversed ? text[text.endIndex - 1 - k] : text[text.startIndex + k]) : 0
                key = key << 8 | UInt64(byte)
            }
            return key
        }
        // Ties broken by position, so the first candidate in file order comes first.
        return (0..<Int32(count)).sorted { a, b in
            if keys[Int(a)] != keys[Int(b)] { return keys[Int(a)] < keys[Int(b)] }
            let order = compare(slice(a), slice(b), reversed: reversed)
            return order != 0 ? order < 0 : a < b
        }
    }

    static func compare(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>, reversed: Bool) -> Int {
        let count = min(a.count, b.count)
        var i = 0
        while i < count {
            let x = reversed ? a[a.endIndex - 1 - i] : a[a.startIndex + i]
            let y = reversed ? b[b.endIndex - 1 - i] : b[b.startIndex + i]
            if x != y { return x < y ? -1 : 1 }
            i += 1
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
}
