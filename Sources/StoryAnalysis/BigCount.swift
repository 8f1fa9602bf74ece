/// A non-negative whole number of any size, for counting playthroughs: a story of 100,000
/// chapters can have more than 2^64 of them (10^19,883 on our generated one). Only what counting
/// needs: adding, comparing, and writing in decimal. Digits are kept in base 10^18, so adding is
/// one pass with a simple carry and writing the exact decimal costs nothing more than printing.
public struct BigCount: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Base 10^18 digits, least significant first; no trailing zero digits (zero is []).
    private(set) var limbs: [UInt64]
    static let base: UInt64 = 1_000_000_000_000_000_000

    public static let zero = BigCount(limbs: [])
    public static let one = BigCount(1)

    init(limbs: [UInt64]) { self.limbs = limbs }

    public init(_ value: UInt64) {
        limbs = value == 0 ? [] : value < Self.base ? [value] : [value % Self.base, value / Self.base]
    }

    public var isZero: Bool { limbs.isEmpty }

    public static func += (lhs: inout BigCount, rhs: BigCount) {
        if rhs.limbs.count > lhs.limbs.count { lhs.limbs.append(contentsOf: repeatElement(0, count: rhs.limbs.count - lhs.limbs.count)) }
        var carry: UInt64 = 0
        lhs.limbs.withUnsafeMutableBufferPointer { left in
            rhs.limbs.withUnsafeBufferPointer { right in
                var index = 0
                while index < left.count && (index < right.count || carry != 0) {
                    // Each digit is below 10^18, so the sum stays below 2^63.
                    let sum = left[index] + (index < right.count ? right[index] : 0) + carry
                    carry = sum >= base ? 1 : 0
                    left[index] = sum - carry * base
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

    /// The exact decimal digits.
    public var description: String {
        guard let top = limbs.last else { return "0" }
        var text = String(top)
        text.reserveCapacity(text.count + 18 * (limbs.count - 1))
        for limb in limbs.dropLast().reversed() {
            let digits = String(limb)
            text += String(repeating: "0", count: 18 - digits.count) + digits
        }
        return text
    }

    /// How many decimal digits.
    public var digitCount: Int { limbs.isEmpty ? 1 : String(limbs.last!).count + 18 * (limbs.count - 1) }

    /// "12,345" up to 15 digits, else "1.23 × 10^42".
    public var abbreviated: String {
        if digitCount <= 15 {
            let digits = description
            var grouped = ""
            for (offset, character) in digits.enumerated() {
                if offset > 0, (digits.count - offset) % 3 == 0 { grouped += "," }
                grouped.append(character)
            }
            return grouped
        }
        // The leading digits come from the top one or two base-10^18 digits.
        let head = Array((String(limbs[limbs.count - 1]) + String(limbs[limbs.count - 2]).leftPadded(18)).prefix(3))
        return "\(head[0]).\(head[1])\(head[2]) × 10^\(digitCount - 1)"
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}

/// A count being summed from many others, as a story's ways are: BigCount's base-10^18 digits
/// whose carries wait. Sixteen whole numbers' digits add into a UInt64 without overflowing
/// (16 × 10^18 < 2^64), so adding is a pass with no carry from digit to digit (the processor adds
/// several digits at once); carries are made when the digits would have no more room (`settle`).
/// Decimal digits keep printing a count (every ending's, for `stats`) a pass over its digits.
struct PendingCount {
    static let base = BigCount.base
    static let most = 16

    /// Least significant first; after `settle`, each below 10^18 and no zero at the end.
    private(set) var digits: [UInt64] = []
    /// How many settled numbers the digits are the sum of (at most `most`).
    private var terms = 0

    static let one = PendingCount(digits: [1], terms: 1)

    var isZero: Bool { digits.isEmpty }

    /// Adds a count holding at most half the numbers a digit has room for (`readyToPass`).
    mutating func add(_ other: PendingCount) {
        guard !other.digits.isEmpty else { return }
        if digits.isEmpty {
            digits = other.digits
            terms = other.terms
            return
        }
        if terms + other.terms > Self.most { settle() }
        precondition(terms + other.terms <= Self.most, "a count passed on holds too many numbers: settle it first")
        let count = other.digits.count
        if count > digits.count { digits.append(contentsOf: repeatElement(0, count: count - digits.count)) }
        digits.withUnsafeMutableBufferPointer { left in
            other.digits.withUnsafeBufferPointer { right in
                for index in 0..<count { left[index] &+= right[index] }
            }
        }
        terms += other.terms
    }

    /// Settles a sum that holds more than half the numbers a digit has room for, so that it can
    /// be added to others as it is: most sums are passed on unsettled, and carried every few
    /// chapters rather than at each.
    mutating func readyToPass() {
        if terms > Self.most / 2 { settle() }
    }

    /// Makes every carry: each digit below 10^18 again.
    mutating func settle() {
        guard terms > 1 else { return }
        var high: UInt64 = 0
        digits.withUnsafeMutableBufferPointer { digits in
            // Each digit keeps its remainder and takes the quotient of the one below (at most
            // 15); a digit that was near 10^18 can carry again, which is rare and done after.
            var below: UInt64 = 0, over = false
            for index in digits.indices {
                let (quotient, remainder) = digits[index].quotientAndRemainder(dividingBy: Self.base)
                let settled = remainder + below
                digits[index] = settled
                over = over || settled >= Self.base
                below = quotient
            }
            high = below
            if over {
                var carry: UInt64 = 0
                for index in digits.indices {
                    let digit = digits[index] + carry
                    carry = digit >= Self.base ? 1 : 0
                    digits[index] = digit - carry * Self.base
                }
                high += carry
            }
        }
        if high != 0 { digits.append(high) }
        terms = 1
    }

    /// The settled count as a BigCount (the same digits).
    var value: BigCount {
        var copy = self
        copy.settle()
        return BigCount(limbs: copy.digits)
    }
}
