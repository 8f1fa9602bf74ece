import Foundation
import TestSupport
import Testing
import Transport

@Suite("HTTP through libcurl, against a real server on 127.0.0.1")
struct HTTPClientTests {
    let client = HTTPClient()

    @Test("a GET returns status, headers and body, and names the project")
    func get() throws {
        let server = try TestHTTPServer()
        let response = try client.get(HTTPRequest(url: server.url("/picture.png")))
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "image/png")
        #expect(response.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try server.count("/picture.png") == 1)
    }

    @Test("redirects are followed up to the limit, and no further")
    func redirects() throws {
        let server = try TestHTTPServer()
        var request = HTTPRequest(url: server.url("/redirect/3"))
        #expect(try client.get(request).url.hasSuffix("/picture.png"))
        request = HTTPRequest(url: server.url("/redirect/9"))
        request.maximumRedirects = 5
        #expect(throws: HTTPError.tooManyRedirects(5)) { try client.get(request) }
    }

    @Test("an error status is a response, not a failure")
    func status() throws {
        let server = try TestHTTPServer()
        #expect(try client.get(HTTPRequest(url: server.url("/status/404"))).status == 404)
    }

    @Test("a body over the size limit is refused")
    func sizeLimit() throws {
        let server = try TestHTTPServer()
        var request = HTTPRequest(url: server.url("/big/100000"))
        request.maximumBytes = 10_000
        #expect(throws: HTTPError.tooLarge(limit: 10_000)) { try client.get(request) }
    }

    @Test("a stalled transfer ends at the timeout")
    func stall() throws {
        let server = try TestHTTPServer()
        var request = HTTPRequest(url: server.url("/stall/20"))
        request.totalTimeout = 2
        let started = Date()
        #expect(throws: HTTPError.self) { try client.get(request) }
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test("https-only requests refuse http")
    func httpsOnly() throws {
        var request = HTTPRequest(url: "http://127.0.0.1:9/picture.png")
        request.httpsOnly = true
        #expect(throws: HTTPError.refusedScheme("http://127.0.0.1:9/picture.png")) { try client.get(request) }
    }

    @Test("https with a certificate authority given by the caller")
    func tls() throws {
        let certificate = try TestCertificate()
        let server = try TestHTTPServer(tls: certificate)
        var request = HTTPRequest(url: server.url("/picture.png"))
        request.httpsOnly = true
        request.certificateAuthorities = certificate.certificate
        #expect(try client.get(request).status == 200)
        request.certificateAuthorities = nil
        #expect(throws: HTTPError.self) { try client.get(request) }
    }
}
