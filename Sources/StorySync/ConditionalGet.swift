#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StoryStore
import Transport

extension HTTPClient {
    /// A GET that sends the validators (ETag, Last-Modified) of the answer `cache` holds for the
    /// URL. A 304 comes back as that cached answer, status 200, with the Link header stored with
    /// it when the 304 does not repeat it; a 2xx answer that carries validators is cached. Any
    /// other answer comes back as it is.
    func getConditionally(_ request: HTTPRequest, cache: StoryLibrary, retrying policy: RetryPolicy) throws(HTTPError) -> HTTPResponse {
        var request = request
        let cached = try? cache.cachedResponse(url: request.url)
        request.etag = cached?.etag
        request.lastModified = cached?.lastModified
        var response = try get(request, retrying: policy)
        if response.notModified, let cached {
            if response.headers["link"] == nil, let link = cached.link { response.headers["link"] = link }
            response.status = 200
            response.body = cached.body
            return response
        }
        if (200..<300).contains(response.status), response.headers["etag"] != nil || response.headers["last-modified"] != nil {
            try? cache.storeResponse(
                url: request.url,
                CachedResponse(
                    etag: response.headers["etag"], lastModified: response.headers["last-modified"], link: response.headers["link"],
                    body: response.body),
                at: Date().timeIntervalSince1970)
        }
        return response
    }
}
