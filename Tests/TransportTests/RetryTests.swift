import Foundation
import TestSupport
import Testing
import Transport

/// Records the waits a retrying GET asks for instead of sleeping them.
final class Waits: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var seconds: [Double] = []
    func record(_ wait: Double) { lock.withLock { seconds.append(wait) } }
}

@Suite("Retries with backoff: 5xx, resets, Retry-After and rate limits")
struct RetryTests {
    let client = HTTPClient()

    @Test("server errors are tried again, honouring Retry-After, until the server answers")
    func serverErrors() throws {
        let server = try TestHTTPServer()
        let waits = Waits()
        let response = try client.get(
            HTTPRequest(url: server.url("/flaky/2/a")), retrying: RetryPolicy(attempts: 4, initialDelay: 0.25), sleep: waits.record)
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "ok")
        #expect(waits.seconds == [0, 0], "Retry-After: 0 says at once")
        #expect(try server.count("/flaky/2/a") == 3)
    }

    @Test("after the last attempt the server's error is the answer")
    func givesUp() throws {
        let server = try TestHTTPServer()
        let response = try client.get(HTTPRequest(url: server.url("/flaky/9/b")), retrying: RetryPolicy(attempts: 3), sleep: { _ in })
        #expect(response.status == 503)
        #expect(try server.count("/flaky/9/b") == 3)
    }

    @Test("a connection closed without an answer is retried with growing waits")
    func resets() throws {
        let server = try TestHTTPServer()
        let waits = Waits()
        let response = try client.get(
            HTTPRequest(url: server.url("/drop/2/c")), retrying: RetryPolicy(attempts: 3, initialDelay: 0.5, maximumDelay: 20), sleep: waits.record)
        #expect(response.status == 200)
        #expect(waits.seconds.count == 2)
        #expect(waits.seconds[0] == 0.5)
        #expect(waits.seconds[1] >= 1.0 && waits.seconds[1] <= 1.25, "doubled, with up to 25% jitter")
    }

    @Test("a Retry-After longer than the policy allows is returned to the caller, not slept through")
    func longRetryAfter() throws {
        let server = try TestHTTPServer()
        let waits = Waits()
        let response = try client.get(HTTPRequest(url: server.url("/slowdown")), retrying: RetryPolicy(attempts: 3, maximumDelay: 20), sleep: waits.record)
        #expect(response.status == 429 && response.retryAfter == 120 && response.isRateLimited)
        #expect(waits.seconds.isEmpty)
        #expect(try server.count("/slowdown") == 1)
    }

    @Test("client errors are not retried")
    func noRetryOn404() throws {
        let server = try TestHTTPServer()
        #expect(try client.get(HTTPRequest(url: server.url("/status/404")), retrying: RetryPolicy(attempts: 3), sleep: { _ in }).status == 404)
        #expect(try server.count("/status/404") == 1)
    }

    @Test("GitHub's rate-limit headers are read")
    func rateLimitHeaders() {
        let response = HTTPResponse(
            status: 403, headers: ["x-ratelimit-remaining": "0", "x-ratelimit-reset": "1790000000"], body: [], url: "http://127.0.0.1/")
        #expect(response.isRateLimited && response.rateLimitRemaining == 0 && response.rateLimitReset == 1_790_000_000)
        let forbidden = HTTPResponse(status: 403, headers: ["x-ratelimit-remaining": "12"], body: [], url: "http://127.0.0.1/")
        #expect(!forbidden.isRateLimited)
    }
}
