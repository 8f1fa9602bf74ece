#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// When to try a request again: server errors (5xx), 429, and connections that were refused,
/// reset or timed out. The wait doubles from `initialDelay` (with up to 25% jitter), or is what the
/// server asked for in Retry-After, but never more than `maximumDelay`: a server asking for longer
/// gets its answer returned to the caller, who can report when to come back.
public struct RetryPolicy: Sendable {
    public var attempts: Int
    public var initialDelay: Double
    public var maximumDelay: Double

    public init(attempts: Int = 3, initialDelay: Double = 0.5, maximumDelay: Double = 20) {
        self.attempts = attempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    public static let none = RetryPolicy(attempts: 1)
}

extension HTTPResponse {
    /// Retry-After in seconds (delta-seconds; an HTTP date is read as "unknown" and treated as 60 s).
    public var retryAfter: Double? {
        guard let value = headers["retry-after"] else { return nil }
        if let seconds = Double(value[...].trimmingCharacters(in: " ")) { return max(0, seconds) }
        return 60
    }

    /// GitHub's primary rate limit: requests left, and when the window resets (Unix time).
    public var rateLimitRemaining: Int? { headers["x-ratelimit-remaining"].flatMap { Int($0) } }
    public var rateLimitReset: Int? { headers["x-ratelimit-reset"].flatMap { Int($0) } }

    /// Whether the server said "too many requests" rather than "forbidden".
    public var isRateLimited: Bool {
        status == 429 || (status == 403 && (rateLimitRemaining == 0 || retryAfter != nil))
    }
}

extension HTTPClient {
    /// GET with retries under `policy`; `sleep` is how to wait (tests pass a recorder).
    public func get(
        _ request: HTTPRequest, retrying policy: RetryPolicy, sleep: (Double) -> Void = HTTPClient.sleep
    ) throws(HTTPError) -> HTTPResponse {
        var delay = policy.initialDelay
        for attempt in 1...max(1, policy.attempts) {
            let last = attempt >= policy.attempts
            do {
                let response = try get(request)
                let retryable = response.status >= 500 || response.status == 429 || (response.status == 403 && response.retryAfter != nil)
                guard retryable, !last else { return response }
                let wait = response.retryAfter ?? delay
                guard wait <= policy.maximumDelay else { return response }
                sleep(wait)
            } catch {
                switch error {
                case .connection, .timedOut:
                    if last { throw error }
                    sleep(delay)
                default: throw error
                }
            }
            delay = min(policy.maximumDelay, delay * 2 * Double.random(in: 1...1.25))
        }
        throw .failed("unreachable")
    }

    public static func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var left = timespec()
        while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
    }
}
