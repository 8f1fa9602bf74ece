/// A non-negative whole number of any size, for counting playthroughs: a story of 100,000
/// chapters can have more than 2^64 of them (10^19,883 on our generated one). Only what counting
/// needs: adding, comparing, and writing in decimal.
public struct BigCount: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Base 2^64 digits, least significant first; no trailing zero digits (zero is []). Binary
    /// digits add with the processor's carry, which counting a large story's ways is made of;
    /// decimal digits are made only to be shown.
    private(set) var limbs: [UInt64]

    public static let zero = BigCount(limbs: [])
    public static let one = BigCount(1)

    init(limbs: [UInt64]) { self.limbs = limbs }

    public init(_ value: UInt64) {
        limbs = value == 0 ? [] : [value]
    }

    public var isZero: Bool { limbs.isEmpty }

    public static func += (lhs: inout BigCount, rhs: BigCount) {
        let count = rhs.limbs.count
        guard count > 0 else { return }
        if count > lhs.limbs.count { lhs.limbs.append(contentsOf: repeatElement(0, count: count - lhs.limbs.count)) }
        var carry: UInt64 = 0
        lhs.limbs.withUnsafeMutableBufferPointer { left in
            rhs.limbs.withUnsafeBufferPointer { right in
                var index = 0
                while index < count {
                    let (partial, first) = left[index].addingReportingOverflow(right[index])
                    let (sum, second) = partial.addingReportingOverflow(carry)
                    left[index] = sum
                    carry = (first || second) ? 1 : 0
                    index += 1
                }
                while carry != 0, index < left.count {
                    (left[index], carry) = left[index] == .max ? (0, 1) : (left[index] + 1, 0)
                    index += 1
                }
            }
        }
        if carry != 0 { lhs.limbs.append(carry) }
    }

    public static func + (lhs: BigCount, rhs: BigCount) -> BigCount {
        var sum = lhs
        sum += rhs
        return sum
    }

    public static func < (lhs: BigCount, rhs: BigCount) -> Bool {
        if lhs.limbs.count != rhs.limbs.count { return lhs.limbs.count < rhs.limbs.count }
        for index in lhs.limbs.indices.reversed() where lhs.limbs[index] != rhs.limbs[index] {
            return lhs.limbs[index] < rhs.limbs[index]
        }
        return false
    }

    /// The number in base 10^19 digits, least significant first (schoolbook division: quadratic
    /// in the digits, and done only to show a number).
    private var decimalLimbs: [UInt64] {
        let base: UInt64 = 10_000_000_000_000_000_000
        var rest = limbs
        var digits: [UInt64] = []
        digits.reserveCapacity(limbs.count + limbs.count / 5 + 1)
        while !rest.isEmpty {
            var remainder: UInt64 = 0
            for index in rest.indices.reversed() {
                (rest[index], remainder) = base.dividingFullWidth((remainder, rest[index]))
            }
            digits.append(remainder)
            while rest.last == 0 { rest.removeLast() }
        }
        return digits
    }

    /// The exact decimal digits.
    public var description: String {
        let digits = decimalLimbs
        guard let top = digits.last else { return "0" }
        var text = String(top)
        text.reserveCapacity(text.utf8.count + 19 * (digits.count - 1))
        for limb in digits.dropLast().reversed() {
            let part = String(limb)
            text += String(repeating: "0", count: 19 - part.utf8.count) + part
        }
        return text
    }

    /// How many decimal digits.
    public var digitCount: Int { description.utf8.count }

    /// "12,345" up to 15 digits, else "1.23 × 10^42".
    public var abbreviated: String {
        let digits = description
        if digits.utf8.count <= 15 {
            var grouped = ""
            for (offset, character) in digits.enumerated() {
                if offset > 0, (digits.count - offset) % 3 == 0 { grouped += "," }
                grouped.append(character)
            }
            return grouped
        }
        let head = Array(digits.prefix(3))
        return "\(head[0]).\(head[1])\(head[2]) × 10^\(digits.utf8.count - 1)"
    }
}

/// A count being summed from many others, as a story's ways are: base 2^62 digits whose carries
/// wait. Up to four whole numbers' digits add into a UInt64 without overflowing, so adding is a
/// pass with no carry from digit to digit (the processor adds several digits at once); carries
/// are made once, when the sum is complete (`settle`) or a fifth number comes.
struct PendingCount {
    static let digitBits: UInt64 = 62
    static let mask: UInt64 = (1 << 62) - 1

    /// Least significant first; after `settle`, each below 2^62 and no zero at the end.
    private(set) var digits: [UInt64] = []
    /// How many settled numbers the digits are the sum of (at most 4).
    private var terms = 0

    static let one = PendingCount(digits: [1], terms: 1)

    var isZero: Bool { digits.isEmpty }

    /// Adds a settled count.
    mutating func add(_ other: PendingCount) {
        guard !other.digits.isEmpty else { return }
        if digits.isEmpty {
            digits = other.digits
            terms = 1
            return
        }
        if terms == 4 { settle() }
        let count = other.digits.count
        if count > digits.count { digits.append(contentsOf: repeatElement(0, count: count - digits.count)) }
        digits.withUnsafeMutableBufferPointer { left in
            other.digits.withUnsafeBufferPointer { right in
                for index in 0..<count { left[index] &+= right[index] }
            }
        }
        terms += 1
    }

    /// Makes every carry: each digit below 2^62 again.
    mutating func settle() {
        guard terms > 1 else { return }
        var high: UInt64 = 0
        digits.withUnsafeMutableBufferPointer { digits in
            // Each digit keeps its low 62 bits and takes the one below's high bits (at most 3);
            // a digit that was near 2^62 can carry again, which is rare and done after.
            var below: UInt64 = 0, any: UInt64 = 0
            for index in digits.indices {
                let digit = digits[index]
                let settled = (digit & Self.mask) &+ below
                digits[index] = settled
                any |= settled
                below = digit >> Self.digitBits
            }
            high = below
            if any > Self.mask {
                var carry: UInt64 = 0
                for index in digits.indices {
                    let digit = digits[index] &+ carry
                    digits[index] = digit & Self.mask
                    carry = digit >> Self.digitBits
                }
                high &+= carry
            }
        }
        if high != 0 { digits.append(high) }
        terms = 1
    }

    /// The settled count as a BigCount (base 2^64).
    var value: BigCount {
        var copy = self
        copy.settle()
        var limbs: [UInt64] = []
        limbs.reserveCapacity(copy.digits.count)
        var word: UInt64 = 0
        var filled: UInt64 = 0  // bits of `word` in use, below 64
        for digit in copy.digits {
            word |= digit << filled
            let placed = 64 - filled
            if placed <= Self.digitBits {
                limbs.append(word)
                word = digit >> placed
                filled = Self.digitBits - placed
            } else {
                filled += Self.digitBits
            }
        }
        limbs.append(word)
        while limbs.last == 0 { limbs.removeLast() }
        return BigCount(limbs: limbs)
    }
}
