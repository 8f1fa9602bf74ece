#if canImport(Glibc)
import Glibc
#endif
import StoryFormat

/// Runs `body` for every index in `0..<count` on `jobs` threads of their own (not a shared pool:
/// each job spends its time waiting on the network). Returns when every index is done.
func runConcurrently(jobs: Int, count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    guard count > 0 else { return }
    let next = Counter()
    let work: @Sendable () -> Void = {
        while let index = next.take(below: count) { body(index) }
    }
    let threads = min(max(1, jobs), count)
    var handles: [pthread_t] = []
    for _ in 1..<threads {
        let box = Unmanaged.passRetained(WorkBox(work))
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 1 << 20)
        let started = pthread_create(&thread, &attributes, { raw in
            let box = Unmanaged<WorkBox>.fromOpaque(raw!).takeRetainedValue()
            box.work()
            return nil
        }, box.toOpaque())
        pthread_attr_destroy(&attributes)
        if started == 0 { handles.append(thread) } else { box.release() }
    }
    work()  // the calling thread is one of the jobs
    for thread in handles { pthread_join(thread, nil) }
}

private final class WorkBox: @unchecked Sendable {
    let work: @Sendable () -> Void
    init(_ work: @escaping @Sendable () -> Void) { self.work = work }
}

private final class Counter: @unchecked Sendable {
    private let lock = Lock()
    private var value = 0

    func take(below limit: Int) -> Int? {
        lock.withLock {
            guard value < limit else { return nil }
            defer { value += 1 }
            return value
        }
    }
}
