import Dispatch
import Testing

#if canImport(Glibc)
import Glibc
#endif

@testable import Transport

/// libgit2 is loaded on first use, or ahead of it on another thread for a command that knows it
/// will need it after other work.
@Suite("Loading libgit2")
struct GitLoadingTests {
    final class Seen: @unchecked Sendable {
        var thread: pthread_t?
        var problem: GitError?
    }

    @Test("loading ahead happens on another thread and says it loaded; the calling thread goes on")
    func loadsOnAnotherThread() {
        let seen = Seen()
        let done = DispatchSemaphore(value: 0)
        GitRepository.loadInBackground { problem in
            (seen.thread, seen.problem) = (pthread_self(), problem)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(seen.problem == nil, "libgit2 is installed here")
        #expect(seen.thread.map { pthread_equal($0, pthread_self()) == 0 } == true, "not the caller's thread")
        #expect(GitRepository.unavailable == nil)
    }
}
