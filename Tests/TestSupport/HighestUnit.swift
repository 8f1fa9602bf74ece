import StoryFormat

/// The highest unit a maker on another thread has reached, for tests of work made ahead (how
/// far the makers of pieces and batches run before the taker asks).
public final class HighestUnit: @unchecked Sendable {
    private let lock = Lock()
    private var highest = -1

    public init() {}

    /// The maker has reached unit `n`.
    public func reached(_ n: Int) { lock.withLock { highest = max(highest, n) } }

    /// The highest unit reached so far; -1 before any.
    public var value: Int { lock.withLock { highest } }
}
