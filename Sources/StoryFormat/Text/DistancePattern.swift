extension KeySuggestion {
    /// A text of at most 64 letters made ready to measure its edit distance to many others, one
    /// bit per letter (the bit-parallel method of Myers, 1999, as Hyyrö wrote it for the whole
    /// text): each letter of the other text costs a dozen word operations, whatever the distance
    /// allowed, where the table costs a row of cells. `editDistance` is the one rule; this gives
    /// the same answers (a test compares the two on random texts).
    struct DistancePattern {
        let count: Int
        /// For each ASCII letter, the places in the text that hold it.
        private let asciiMasks: [UInt64]
        /// The same for every other letter, looked through in order (a text has few of them).
        private let otherMasks: [(scalar: Unicode.Scalar, mask: UInt64)]

        /// Nil when the text is empty or longer than 64 letters.
        init?(_ scalars: [Unicode.Scalar]) {
            guard !scalars.isEmpty, scalars.count <= 64 else { return nil }
            count = scalars.count
            var ascii = [UInt64](repeating: 0, count: 128)
            var others: [(scalar: Unicode.Scalar, mask: UInt64)] = []
            for (place, scalar) in scalars.enumerated() {
                let bit: UInt64 = 1 << UInt64(place)
                if scalar.isASCII {
                    ascii[Int(scalar.value)] |= bit
                } else if let found = others.firstIndex(where: { $0.scalar == scalar }) {
                    others[found].mask |= bit
                } else {
                    others.append((scalar, bit))
                }
            }
            asciiMasks = ascii
            otherMasks = others
        }

        @inline(__always) func mask(_ scalar: Unicode.Scalar) -> UInt64 {
            if scalar.isASCII { return asciiMasks[Int(scalar.value)] }
            for other in otherMasks where other.scalar == scalar { return other.mask }
            return 0
        }

        /// The distance to a text of `length` letters read one at a time by `next`, or `limit + 1`
        /// when it is more than `limit`.
        @inline(__always) func distance(length: Int, limit: Int, next: (Int) -> Unicode.Scalar) -> Int {
            let outside = limit + 1
            if abs(length - count) > limit { return outside }
            if length == 0 { return min(count, outside) }
            // Vertical steps of the table's current column, as +1 and -1 bits; the last row's value.
            var plus: UInt64 = ~0
            var minus: UInt64 = 0
            var score = count
            let last: UInt64 = 1 << UInt64(count - 1)
            for place in 0..<length {
                let equal = mask(next(place))
                let vertical = equal | minus
                let horizontal = (((equal & plus) &+ plus) ^ plus) | equal
                var horizontalPlus = minus | ~(horizontal | plus)
                var horizontalMinus = plus & horizontal
                if horizontalPlus & last != 0 {
                    score += 1
                } else if horizontalMinus & last != 0 {
                    score -= 1
                }
                // Row 0 of the table grows by one a letter: a +1 comes in at the bottom.
                horizontalPlus = horizontalPlus << 1 | 1
                horizontalMinus <<= 1
                plus = horizontalMinus | ~(vertical | horizontalPlus)
                minus = horizontalPlus & vertical
                // The rest of the text can lower the score by at most one a letter.
                if score - (length - 1 - place) > limit { return outside }
            }
            return min(score, outside)
        }

        func distance(to scalars: [Unicode.Scalar], limit: Int) -> Int {
            scalars.withUnsafeBufferPointer { letters in distance(length: letters.count, limit: limit) { letters[$0] } }
        }

        /// The distance to ASCII bytes, each byte a letter.
        func distance(toASCII bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
            distance(length: bytes.count, limit: limit) { Unicode.Scalar(bytes[$0]) }
        }
    }
}
