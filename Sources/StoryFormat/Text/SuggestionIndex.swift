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
        // The question made ready once for its distance to each candidate (at most 64 letters).
        guard let pattern = KeySuggestion.DistancePattern(queryScalars) else { return nil }
        // One array for the scalars of a candidate that is not ASCII, refilled.
        var scalars: [Unicode.Scalar] = []
        func consider(_ position: Int) {
            let (start, end) = (Int(starts[position]), Int(starts[position + 1]))
            guard abs((end - start) - query.count) <= 4 * limit, end - start <= 4 * Self.longestFuzzy else { return }
            let allowed = best?.distance ?? limit
            let distance = folded.withUnsafeBufferPointer { all in
                let candidate = UnsafeBufferPointer(rebasing: all[start..<end])
                // Most candidates are ASCII: their bytes are their letters.
                if !candidate.contains(where: { $0 >= 0x80 }) { return pattern.distance(toASCII: candidate, limit: allowed) }
                scalars.removeAll(keepingCapacity: true)
                scalars.append(contentsOf: String(decoding: candidate, as: UTF8.self).unicodeScalars)
                return pattern.distance(to: scalars, limit: allowed)
            }
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
        // Most ids are ASCII: their bytes copied in at once and folded where they lie, without
        // decoding scalars or growing the buffer a byte at a time (and without temporary room:
        // this runs on the suggestion threads, see `RadixSorter.counts`).
        var text = text
        let start = buffer.count
        let wasASCII = text.withUTF8 { bytes in
            buffer.append(contentsOf: bytes)
            let kept = buffer.withUnsafeMutableBufferPointer { all -> Int? in
                var kept = start
                for index in start..<all.count {
                    let byte = all[index]
                    if byte >= 0x80 { return nil }
                    if byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ") { continue }
                    all[kept] = byte >= 65 && byte <= 90 ? byte + 32 : byte
                    kept += 1
                }
                return kept
            }
            buffer.removeLast(buffer.count - (kept ?? start))
            return kept != nil
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

    /// The candidates' positions in the order of their folded texts (read backwards when
    /// `reversed`), equal texts in file order.
    static func sorted(_ count: Int, _ folded: [UInt8], _ starts: [Int32], reversed: Bool) -> [Int32] {
        var order = (0..<Int32(count)).map { $0 }
        folded.withUnsafeBufferPointer { text in
            starts.withUnsafeBufferPointer { ends in
                order.withUnsafeMutableBufferPointer { order in
                    let sorter = RadixSorter(text: text, ends: ends, reversed: reversed, count: count)
                    defer { sorter.deallocate() }
                    sorter.sort(order, depth: 0)
                }
            }
        }
        return order
    }

    /// Sorts texts eight bytes at a time: the eight bytes at a depth as one number, put in order
    /// a byte at a time from the last (which keeps equal numbers in file order), then each run
    /// of equal numbers by the next eight bytes. Bytes every text of a run shares are skipped
    /// first: ids such as 'chapter-00017' all start with the same eight.
    private struct RadixSorter {
        let text: UnsafeBufferPointer<UInt8>
        let ends: UnsafeBufferPointer<Int32>
        let reversed: Bool
        /// Room for a run's numbers, and for the numbers and positions as a pass moves them.
        let keys: UnsafeMutableBufferPointer<UInt64>
        let spareKeys: UnsafeMutableBufferPointer<UInt64>
        let spareOrder: UnsafeMutableBufferPointer<Int32>
        /// The counts of each byte value at each of the eight places of the numbers. Allocated,
        /// not temporary room: 16 KB of `withUnsafeTemporaryAllocation` here corrupted the heap
        /// in the release build, on the suggestion threads (cause not found).
        let counts: UnsafeMutableBufferPointer<Int>

        init(text: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<Int32>, reversed: Bool, count: Int) {
            self.text = text
            self.ends = ends
            self.reversed = reversed
            keys = .allocate(capacity: max(1, count))
            spareKeys = .allocate(capacity: max(1, count))
            spareOrder = .allocate(capacity: max(1, count))
            counts = .allocate(capacity: 8 * 256)
        }

        func deallocate() {
            keys.deallocate()
            spareKeys.deallocate()
            spareOrder.deallocate()
            counts.deallocate()
        }

        @inline(__always) func length(_ i: Int32) -> Int { Int(ends[Int(i) + 1] - ends[Int(i)]) }

        /// The k-th byte of a text from its start (from its end, when reversed); k < its length.
        @inline(__always) func byte(_ i: Int32, _ k: Int) -> UInt8 {
            reversed ? text[Int(ends[Int(i) + 1]) - 1 - k] : text[Int(ends[Int(i)]) + k]
        }

        /// The eight bytes of a text from `depth` as one number, the first the highest (zeros
        /// past the text's end); `available` is the text's length less `depth`.
        @inline(__always) func key(_ position: Int32, depth: Int, available: Int) -> UInt64 {
            guard available >= 8 else {
                var key: UInt64 = 0
                for k in 0..<8 { key = key << 8 | UInt64(k < available ? byte(position, depth + k) : 0) }
                return key
            }
            // One load: read forwards, the first byte in memory is the highest; backwards, the
            // last byte is.
            let raw = UnsafeRawPointer(text.baseAddress!)
            if reversed {
                return UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: Int(ends[Int(position) + 1]) - depth - 8, as: UInt64.self))
            }
            return UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: Int(ends[Int(position)]) + depth, as: UInt64.self))
        }

        /// Sorts a run of positions whose texts agree in their first `depth` bytes.
        func sort(_ run: UnsafeMutableBufferPointer<Int32>, depth start: Int) {
            let count = run.count
            guard count > 1 else { return }
            // The bytes every text of the run shares.
            var depth = start
            let first = run[0]
            var shared = length(first) - depth
            for i in 1..<count where shared > 0 {
                let other = run[i]
                let most = min(shared, length(other) - depth)
                // Eight bytes at a time: the equal bytes before the first that differs.
                var k = 0
                while k < most {
                    let mine = key(other, depth: depth + k, available: length(other) - depth - k)
                    let theirs = key(first, depth: depth + k, available: length(first) - depth - k)
                    let same = mine == theirs ? 8 : (mine ^ theirs).leadingZeroBitCount / 8
                    k += same
                    if same < 8 { break }
                }
                shared = min(k, most)
            }
            depth += max(0, shared)
            var longer = false
            for i in 0..<count {
                let position = run[i]
                let available = length(position) - depth
                if available > 8 { longer = true }
                keys[i] = key(position, depth: depth, available: available)
            }
            radixSort(run)
            // Runs of equal numbers (found before any is sorted: sorting one reuses the keys'
            // room): by the next eight bytes, or, when no text goes on past them (texts such
            // as "ab" and "ab" followed by a zero byte), by the whole text.
            var ties: [Range<Int>] = []
            var from = 0
            while from < count {
                var end = from + 1
                let key = keys[from]
                while end < count, keys[end] == key { end += 1 }
                if end - from > 1 { ties.append(from..<end) }
                from = end
            }
            for tie in ties {
                var tied = UnsafeMutableBufferPointer(rebasing: run[tie])
                if longer {
                    sort(tied, depth: depth + 8)
                } else {
                    let (text, ends, reversed) = (text, ends, reversed)
                    func whole(_ i: Int32) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: text[Int(ends[Int(i)])..<Int(ends[Int(i) + 1])]) }
                    tied.sort { a, b in
                        let compared = SuggestionIndex.compare(whole(a), whole(b), reversed: reversed)
                        return compared != 0 ? compared < 0 : a < b
                    }
                }
            }
        }

        /// Orders `run` by `keys[0..<run.count]` (kept beside it), a byte at a time from the last.
        private func radixSort(_ run: UnsafeMutableBufferPointer<Int32>) {
            let count = run.count
            // Numbers already in order (ids numbered in reading order) need no pass at all.
            var ordered = true
            for i in 1..<max(1, count) where keys[i - 1] > keys[i] {
                ordered = false
                break
            }
            if ordered { return }
            var inRun = true
            // The counts of all eight bytes in one reading of the numbers.
            do {
                counts.update(repeating: 0)
                for i in 0..<count {
                    var key = keys[i]
                    for byte in 0..<8 {
                        counts[byte &* 256 &+ Int(key & 0xFF)] &+= 1
                        key >>= 8
                    }
                }
                var (fromKeys, toKeys) = (keys.baseAddress!, spareKeys.baseAddress!)
                var (fromOrder, toOrder) = (run.baseAddress!, spareOrder.baseAddress!)
                for byte in 0..<8 {
                    let shift = UInt64(byte * 8)
                    let starts = UnsafeMutableBufferPointer(rebasing: counts[(byte * 256)..<(byte * 256 + 256)])
                    // A byte that is the same in every number moves nothing.
                    if starts[Int((fromKeys[0] >> shift) & 0xFF)] == count { continue }
                    var total = 0
                    for bucket in 0..<256 { (starts[bucket], total) = (total, total + starts[bucket]) }
                    for i in 0..<count {
                        let bucket = Int((fromKeys[i] >> shift) & 0xFF)
                        toKeys[starts[bucket]] = fromKeys[i]
                        toOrder[starts[bucket]] = fromOrder[i]
                        starts[bucket] += 1
                    }
                    swap(&fromKeys, &toKeys)
                    swap(&fromOrder, &toOrder)
                    inRun.toggle()
                }
                // The last pass may have left the result in the spare room.
                if !inRun {
                    keys.baseAddress!.update(from: fromKeys, count: count)
                    run.baseAddress!.update(from: fromOrder, count: count)
                }
            }
        }
    }

    /// Two folded texts in byte order, read from the start (from the end when `reversed`); the
    /// shorter first when one is the other's start: -1, 0 or 1.
    static func compare<Text: RandomAccessCollection<UInt8>>(_ a: Text, _ b: Text, reversed: Bool) -> Int where Text.Index == Int {
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
