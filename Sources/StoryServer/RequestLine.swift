// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// What only the request line and the raw fields say, settled before they become HTTPTypes'
/// request (which keeps neither the version nor an absolute target's host):
/// - a connection whose client did not ask to keep it (HTTP/1.0 without `keep-alive`, or any
///   `Connection: close`) says `Connection: close`, so it is closed once answered;
/// - an absolute-form target (`GET http://host/path`) names the request's host, as RFC 9112
///   has it (the Host field is ignored then): the gate refuses a host that is not this server.
/// Two Host fields are left as they came, for the gate to refuse.
final class RequestLine: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if !head.isKeepAlive, head.headers["connection"].first?.lowercased() != "close" {
            head.headers.replaceOrAdd(name: "Connection", value: "close")
        }
        if let (authority, path) = Self.absoluteForm(head.uri), head.headers["host"].count <= 1 {
            head.uri = path
            head.headers.replaceOrAdd(name: "Host", value: authority)
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// The authority and the path of an absolute-form target (`http://host:port/path?query`).
    static func absoluteForm(_ target: String) -> (authority: String, path: String)? {
        let lowered = target.prefix(8).lowercased()
        let schemeLength = lowered.hasPrefix("http://") ? 7 : lowered.hasPrefix("https://") ? 8 : 0
        guard schemeLength > 0 else { return nil }
        let rest = target.dropFirst(schemeLength)
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let path = rest[end...]
        return (String(rest[..<end]), path.isEmpty ? "/" : path.hasPrefix("/") ? String(path) : "/" + path)
    }
}

/// Hummingbird's HTTP/1 channel with `RequestLine` placed where it sees HTTP/1's own request
/// head: after the decoder, before the conversion to HTTPTypes.
struct ReaderChannel: ServerChildChannel {
    let http: HTTP1Channel
    typealias Value = HTTP1Channel.Value

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let codec = try channel.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self)
            try channel.pipeline.syncOperations.addHandler(RequestLine(), position: .before(codec))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http.handle(value: value, logger: logger)
    }
}
#endif
