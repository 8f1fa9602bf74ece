#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A story's chapters still to be decoded, shared by the thread that decodes them from the front
/// and a helper on the other core that takes them from the back, a stretch at a time (`help()`),
/// so that the two finish together: a helper that first had work of its own (the scan of every
/// string, which takes about half as long as the decode) takes fewer stretches, one with nothing
/// else to do takes about half. Stretches are decoded on their own and joined in file order, so
/// the story and its findings are those of one pass.
public final class ChapterShare: @unchecked Sendable {
    /// A stretch of chapters the helper decoded, numbered from 0 (`StorySyntax.append` renumbers).
    struct Part {
        var start: Int
        var syntax: StorySyntax
        var diagnostics: [Diagnostic]
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// How many chapters a helper takes at a time.
    let stretch: Int
    private var document: JSONDocument?
    private var elements: [Int] = []
    /// The chapters not yet taken: `front..<back` of `elements`.
    private var front = 0
    private var back = 0
    private var isOpen = false
    private var isOver = false
    /// Stretches taken by the helper and not yet given back.
    private var helping = 0
    private var parts: [Part] = []

    public convenience init() { self.init(stretch: 512) }

    init(stretch: Int) {
        self.stretch = max(1, stretch)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Decodes chapters from the back until none is left; returns how many it decoded. Waits for
    /// the decode to begin (`open`) or for the share to be closed without one (`close`): the
    /// thread that reads the file closes it whatever the file holds.
    @discardableResult public func help() -> Int {
        pthread_mutex_lock(mutex)
        while !isOpen && !isOver { pthread_cond_wait(changed, mutex) }
        var decoded = 0
        while !isOver, back > front, let document {
            let taken = max(front, back - stretch)..<back
            back = taken.lowerBound
            helping += 1
            let elements = self.elements[taken]
            // The stretch's bytes end where the next chapter begins (or with the file).
            let end = taken.upperBound < self.elements.count ? document.range(self.elements[taken.upperBound]).lowerBound : document.bytes.count
            pthread_mutex_unlock(mutex)
            var part = StorySyntax(document: document)
            var reader = ObjectReader(document: document)
            var sweep = document.bytes.sweep(from: document.range(elements[taken.lowerBound]).lowerBound)
            StoryDecoder.decodeChapters(elements, from: taken.lowerBound, into: &part, reader: &reader) { sweep.release(upTo: $0) }
            sweep.end(at: end)
            decoded += taken.count
            pthread_mutex_lock(mutex)
            parts.append(Part(start: taken.lowerBound, syntax: part, diagnostics: reader.diagnostics))
            helping -= 1
            pthread_cond_broadcast(changed)
        }
        pthread_mutex_unlock(mutex)
        return decoded
    }

    /// The decode begins: `elements` (the chapters array's elements) are there to be taken.
    func open(_ document: JSONDocument, elements: [Int]) {
        locked {
            guard !isOver else { return }
            self.document = document
            self.elements = elements
            front = 0
            back = elements.count
            isOpen = true
            pthread_cond_broadcast(changed)
        }
    }

    /// The next stretch for the thread decoding from the front (larger than the helper's: it
    /// takes the lock less often), or nil when every chapter has been taken.
    func takeFront() -> Range<Int>? {
        locked {
            guard back > front else { return nil }
            let taken = front..<min(back, front + stretch * 2)
            front = taken.upperBound
            return taken
        }
    }

    /// Every chapter has been taken: waits for the helper's last stretch and gives the helper's
    /// stretches in file order. The share is closed.
    func finish() -> [Part] {
        pthread_mutex_lock(mutex)
        isOver = true
        pthread_cond_broadcast(changed)
        while helping > 0 { pthread_cond_wait(changed, mutex) }
        let done = parts.sorted { $0.start < $1.start }
        parts = []
        elements = []
        document = nil
        pthread_mutex_unlock(mutex)
        return done
    }

    /// No decode (or no more of it): a helper waiting for one goes back to its own work.
    public func close() {
        locked {
            isOver = true
            pthread_cond_broadcast(changed)
        }
    }
}
