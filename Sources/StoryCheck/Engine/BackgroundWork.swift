import Dispatch

/// Work started on another thread when made, its result taken with `wait()` (by any number of
/// callers). The semaphore orders the worker's write of the result before a waiter's read.
package final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private var result: Value?

    package init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async {
            self.result = work()
            self.finished.signal()
        }
    }

    /// The work's result, once it is done.
    package func wait() -> Value {
        finished.wait()
        finished.signal()  // a second wait returns at once
        return result!
    }
}

