import Synchronization

/// Whether `url` is plain http to this machine (127.0.0.1, localhost, [::1]): the one place
/// plain http is accepted, since nothing on the way can read or change it.
public func isLoopbackHTTP(_ url: String) -> Bool {
    let lowered = url.lowercased()
    return loopbackHTTP.withLock { lowered.wholeMatch(of: $0) != nil }
}

/// Made once (a regex literal is parsed each time it is evaluated); not Sendable, so callers on
/// several threads take turns with it.
private let loopbackHTTP = Mutex(/http:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::[0-9]+)?\/\S*/)
