/// Whether `url` is plain http to this machine (127.0.0.1, localhost, [::1]): the one place
/// plain http is accepted, since nothing on the way can read or change it.
public func isLoopbackHTTP(_ url: String) -> Bool {
    url.lowercased().wholeMatch(of: /http:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::[0-9]+)?\/\S*/) != nil
}
