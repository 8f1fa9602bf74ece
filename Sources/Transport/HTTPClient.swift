import CCurl

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One GET request and the limits it runs under.
public struct HTTPRequest: Sendable {
    public var url: String
    public var headers: [(String, String)] = []
    /// Seconds to establish the connection.
    public var connectTimeout: Int = 10
    /// Seconds for the whole transfer.
    public var totalTimeout: Int = 60
    /// A transfer slower than `lowSpeedBytes` per second for `lowSpeedSeconds` is abandoned.
    public var lowSpeedBytes: Int = 512
    public var lowSpeedSeconds: Int = 15
    public var maximumRedirects: Int = 5
    /// Refuse anything but https, redirects included.
    public var httpsOnly: Bool = false
    /// Largest body accepted, in bytes.
    public var maximumBytes: Int = 16 * 1024 * 1024
    /// Sent as If-None-Match / If-Modified-Since, for conditional requests.
    public var etag: String?
    public var lastModified: String?
    /// A PEM file of extra certificate authorities (default: $CURL_CA_BUNDLE or $SSL_CERT_FILE).
    public var certificateAuthorities: String? = HTTPClient.caBundle

    public init(url: String) { self.url = url }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names in lower case; for repeated headers, the last.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The URL after redirects.
    public var url: String

    public var notModified: Bool { status == 304 }

    public init(status: Int, headers: [String: String], body: [UInt8], url: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }
}

public enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    case tooLarge(limit: Int)
    case timedOut(String)
    case tooManyRedirects(Int)
    case refusedScheme(String)
    /// The connection failed or broke off (refused, reset, nothing received): worth retrying.
    case connection(String)
    case failed(String)

    public var description: String {
        switch self {
        case .tooLarge(let limit): "the response is larger than the limit of \(limit) bytes"
        case .timedOut(let detail): "timed out (\(detail))"
        case .tooManyRedirects(let limit): "more than \(limit) redirects"
        case .refusedScheme(let url): "refused a non-https URL (\(url))"
        case .connection(let detail): detail
        case .failed(let detail): detail
        }
    }
}

/// HTTP GET through libcurl: timeouts, a size limit, bounded redirects, proxies from the
/// environment (http_proxy, https_proxy, no_proxy), extra CA certificates from CURL_CA_BUNDLE or
/// SSL_CERT_FILE, and a User-Agent naming the project. One handle per request, so it is safe
/// to use from any thread.
public struct HTTPClient: Sendable {
    public var userAgent: String

    public init(userAgent: String = "ChooseYourDestiny-cyd/0.1 (+https://github.com/ChooseYourDestiny)") {
        self.userAgent = userAgent
    }

    public func get(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        if request.httpsOnly, !request.url.lowercased().hasPrefix("https://") { throw .refusedScheme(request.url) }
        guard ccurl_load() == 1 else { throw .failed(String(cString: ccurl_load_error())) }
        guard let handle = ccurl_easy_init() else { throw .failed("cannot start libcurl") }
        defer { ccurl_easy_cleanup(handle) }
        let sink = ResponseSink(limit: request.maximumBytes)
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }

        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { ccurl_slist_free_all(headerList) }
        var headers = request.headers
        if let etag = request.etag { headers.append(("If-None-Match", etag)) }
        if let lastModified = request.lastModified { headers.append(("If-Modified-Since", lastModified)) }
        for (name, value) in headers { headerList = ccurl_slist_append(headerList, "\(name): \(value)") }

        ccurl_setopt_string(handle, CURLOPT_URL, request.url)
        ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        ccurl_setopt_long(handle, CURLOPT_MAXREDIRS, request.maximumRedirects)
        ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, request.connectTimeout)
        ccurl_setopt_long(handle, CURLOPT_TIMEOUT, request.totalTimeout)
        ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, request.lowSpeedBytes)
        ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, request.lowSpeedSeconds)
        ccurl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maximumBytes))
        ccurl_setopt_string(handle, CURLOPT_USERAGENT, userAgent)
        ccurl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        let protocols = request.httpsOnly ? "https" : "http,https"
        ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, protocols)
        ccurl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, protocols)
        if let bundle = request.certificateAuthorities { ccurl_setopt_string(handle, CURLOPT_CAINFO, bundle) }
        if headerList != nil { ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList) }
        ccurl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let sink = Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue()
            return sink.body(data, size * count) ? size * count : 0
        }
        ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque())
        ccurl_setopt_write_function(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let sink = Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue()
            sink.header(data, size * count)
            return size * count
        }
        ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context.toOpaque())

        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code = errorBuffer.withUnsafeMutableBufferPointer { buffer -> CURLcode in
            ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            let code = ccurl_easy_perform(handle)
            ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil)
            return code
        }
        if sink.overflowed || code == CURLE_FILESIZE_EXCEEDED { throw .tooLarge(limit: request.maximumBytes) }
        guard code == CURLE_OK else {
            let message = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            let detail = message.isEmpty ? String(cString: ccurl_easy_strerror(code)) : message
            switch code {
            case CURLE_OPERATION_TIMEDOUT: throw .timedOut(detail)
            case CURLE_TOO_MANY_REDIRECTS: throw .tooManyRedirects(request.maximumRedirects)
            case CURLE_UNSUPPORTED_PROTOCOL: throw request.httpsOnly ? .refusedScheme(detail) : .failed(detail)
            case CURLE_COULDNT_CONNECT, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
                throw .connection(detail)
            default: throw .failed(detail)
            }
        }
        var status = 0
        ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafeMutablePointer<CChar>?
        ccurl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
        return HTTPResponse(
            status: status, headers: sink.headers, body: sink.data, url: effective.map { String(cString: $0) } ?? request.url)
    }

    public static var caBundle: String? {
        for name in ["CURL_CA_BUNDLE", "SSL_CERT_FILE"] {
            if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty { return value }
        }
        return nil
    }
}

/// Collects a response; refuses to grow past the limit.
private final class ResponseSink {
    let limit: Int
    var data: [UInt8] = []
    var headers: [String: String] = [:]
    var overflowed = false

    init(limit: Int) { self.limit = limit }

    func body(_ bytes: UnsafeMutablePointer<CChar>?, _ count: Int) -> Bool {
        guard data.count + count <= limit else {
            overflowed = true
            return false
        }
        if let bytes, count > 0 {
            bytes.withMemoryRebound(to: UInt8.self, capacity: count) { data.append(contentsOf: UnsafeBufferPointer(start: $0, count: count)) }
        }
        return true
    }

    func header(_ bytes: UnsafeMutablePointer<CChar>?, _ count: Int) {
        guard let bytes, count > 0 else { return }
        let line = bytes.withMemoryRebound(to: UInt8.self, capacity: count) { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) }
        if line.hasPrefix("HTTP/") { headers = [:] }  // a new response after a redirect
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t\r\n")
        headers[name] = value
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        return String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
