import Crypto
import Foundation
import Hummingbird

/// Answers that caches may keep and revalidate: a strong `ETag` made from the body itself, so every instance gives
/// the same answer the same tag, and `304 Not Modified` to a request whose `If-None-Match` names it.
enum EntityTag {
    /// How long a shared cache may serve an anonymous map answer without asking again (it then revalidates with the
    /// tag): places change, so only briefly.
    static let cacheControl = "public, max-age=10"

    /// The tag of a body: the first 18 bytes of its SHA-256, base64url, quoted.
    static func of(_ body: some Collection<UInt8>) -> String {
        let digest = SHA256.hash(data: Array(body)).prefix(18)
        let text = Data(digest).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return "\"\(text)\""
    }

    /// True when an `If-None-Match` value names the tag: `*`, or a list holding it (compared weakly, RFC 9110 13.1.2).
    static func matches(_ ifNoneMatch: String, _ tag: String) -> Bool {
        let wanted = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
        for item in ifNoneMatch.split(separator: ",") {
            var candidate = item.trimmingCharacters(in: .whitespaces)
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            if candidate == wanted { return true }
        }
        return false
    }

    /// A 200 with `body` (JSON unless `contentType` says otherwise) and its tag, or a 304 with the tag and no body
    /// when the request already holds it; either way with `Cache-Control` for shared caches (an answer to a request
    /// that sent `Authorization` is made `no-store` on the way out) and `vary`, when given. A body that never changes
    /// (the page's files) passes its `tag`, worked out once.
    static func answer(
        body: [UInt8],
        contentType: String = "application/json",
        tag: String? = nil,
        request: Request,
        vary: String? = nil
    ) -> Response {
        let tag = tag ?? of(body)
        var response: Response
        if let ifNoneMatch = request.headers[.ifNoneMatch], matches(ifNoneMatch, tag) {
            response = Response(status: .notModified)
        } else {
            response = JSONResponse.make(json: body, contentType: contentType)
        }
        response.headers[.eTag] = tag
        response.headers[.cacheControl] = cacheControl
        if let vary { response.headers[.vary] = vary }
        return response
    }
}
