import Foundation

/// The highest unit a maker on another thread has reached, for tests of work made ahead (how
/// far the makers of pieces and batches run before the taker asks).
final class HighestUnit: @unchecked Sendable {
    private let lock = NSLock()
    private var highest = -1

    /// The maker has reached unit `n`.
    func reached(_ n: Int) { lock.withLock { highest = max(highest, n) } }

    /// The highest unit reached so far; -1 before any.
    var value: Int { lock.withLock { highest } }
}
