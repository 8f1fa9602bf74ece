#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Work started on a thread of its own when made; `wait()` gives its result (to any number of
/// callers). A thread of its own, not a shared pool: work that waits for other work (a check on
/// one thread waiting for its text scan on another) cannot starve a pool of two threads, and it
/// has the main thread's 8 MB of stack.
package final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var result: Value?
    private var thread: pthread_t?
    private var joined = false

    package init(_ work: @escaping @Sendable () -> Value) {
        let box = Unmanaged.passRetained(Job { [self] in result = work() })
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 8 << 20)
        var handle = pthread_t()
        let started = pthread_create(&handle, &attributes, { raw in
            Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
        pthread_attr_destroy(&attributes)
        if started == 0 {
            thread = handle
        } else {
            // No thread to be had: the work is done here and now.
            box.takeRetainedValue().run()
            joined = true
        }
    }

    deinit {
        if let thread, !joined { pthread_detach(thread) }
    }

    /// The work's result, once it is done.
    package func wait() -> Value {
        lock.withLock {
            joinHoldingLock()
            return result!
        }
    }

    /// Waits for the work to be done, leaving its result where it is (or taken).
    package func join() {
        lock.withLock { joinHoldingLock() }
    }

    /// The work's result, once it is done, handed over for one caller: the work keeps no copy
    /// of it, so a large result is freed as soon as the caller lets it go.
    package func take() -> Value {
        lock.withLock {
            joinHoldingLock()
            defer { result = nil }
            return result!
        }
    }

    /// Joins the thread once (the lock held: a second caller waits for the first).
    private func joinHoldingLock() {
        if !joined, let thread {
            pthread_join(thread, nil)
            joined = true
        }
    }
}

private final class Job: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// Large values a caller is done with, let go on a thread of their own: freeing a 100,000-chapter
/// story's strings one by one takes a tenth of a second or more, which the caller's answer need
/// not wait for. A process that exits first simply gives the memory back whole.
package enum LargeValues {
    /// Takes `value` (leaving nil), and frees it elsewhere when it held the last reference.
    package static func release<Value: Sendable>(_ value: inout Value?) {
        ThreadHeaps.mergedAsFreed()
        let box = ReleaseBox(value.take())
        _ = BackgroundWork {
            // At the lowest priority: the freeing runs on a core nothing else wants, not beside
            // the work that goes on (on two cores it took a third of one from it).
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)  // 0: this thread alone, on Linux
            box.empty()
        }
    }
}

extension LargeValues {
    /// From how many values `freeInHalves` uses a second thread.
    package static let halvesFrom = 1_000

    /// Frees `values` now, on two threads, half each, and returns once both halves are freed
    /// (`values` is left empty): for a caller that must have the memory back before it goes on
    /// (freeing it beside what comes next would hold both at once), in about half the time.
    /// The second half is moved out, not copied, and `placeholder` (a value holding nothing)
    /// takes its places until the first half goes. Fewer than `halvesFrom` values are freed
    /// here: a thread costs more than they do.
    package static func freeInHalves<Element: Sendable>(_ values: inout [Element], leaving placeholder: Element) {
        guard values.count >= halvesFrom else { return values = [] }
        ThreadHeaps.mergedAsFreed()
        let middle = values.count / 2
        let later = values.withUnsafeMutableBufferPointer { buffer in
            let part = UnsafeMutableBufferPointer(rebasing: buffer[middle...])
            defer { part.initialize(repeating: placeholder) }
            return Array(MovedOut(part))
        }
        let box = ReleaseBox(later)
        let second = BackgroundWork { box.empty() }
        values = []
        second.join()
    }
}

private final class ReleaseBox<Value: Sendable>: @unchecked Sendable {
    private var value: Value?
    init(_ value: Value?) { self.value = value }
    /// Called once, on the releasing thread.
    func empty() { value = nil }
}

extension Array {
    /// Appends `other`'s elements by moving them, not copying them: a half of a large result made
    /// on another thread joins the first without a retain and a release of every string and
    /// array it holds (each a cache miss in a story's worth of values). `other` is left holding
    /// `placeholder` in each place (a value holding nothing, such as one of empty strings), and
    /// is emptied.
    ///
    /// Inlinable, so that it is made for each element type where it is called: a generic move is a
    /// call through the type's witness table for every element.
    @inlinable package mutating func appendMoving(_ other: inout [Element], leaving placeholder: Element) {
        guard !other.isEmpty else { return }
        reserveCapacity(count + other.count)
        other.withUnsafeMutableBufferPointer { buffer in
            append(contentsOf: MovedOut(buffer))
            buffer.initialize(repeating: placeholder)
        }
        other = []
    }
}

/// Each element of a buffer, moved out as it is taken (the buffer is left uninitialized).
@usableFromInline package struct MovedOut<Element>: Sequence, IteratorProtocol {
    @usableFromInline let buffer: UnsafeMutableBufferPointer<Element>
    @usableFromInline var position = 0
    @inlinable package var underestimatedCount: Int { buffer.count - position }

    @inlinable init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }

    @inlinable package mutating func next() -> Element? {
        guard position < buffer.count else { return nil }
        defer { position += 1 }
        return (buffer.baseAddress! + position).move()
    }
}
