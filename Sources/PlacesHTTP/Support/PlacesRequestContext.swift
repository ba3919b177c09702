import Foundation
import Hummingbird
import NIOCore
import PlacesCore

/// The request context of every Places route.
public struct PlacesRequestContext: RequestContext {
    /// Hummingbird's own per-request state.
    public var coreContext: CoreRequestContextStorage
    /// The address of the peer that connected (a proxy's, when one is in front).
    public let peerAddress: String?
    /// The connection the request arrived on.
    let channel: any Channel
    /// The bearer token the request carried, in its right form but not yet checked against the sessions: that waits
    /// until a handler needs the caller (`caller()`), so a route that answers everyone reads no session.
    var bearer: BearerToken?
    /// The caller, once a signed-in route resolved it.
    var resolvedCaller: Caller?
    /// The client's address as the login throttle counts it (see `ClientAddress`).
    public var clientAddress = "unknown"
    /// The request's query parameters, read with the names its route declares (see `Route`).
    var query = QueryParameters()

    /// Makes a context for one request.
    public init(source: Source) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
        channel = source.channel
    }

    /// Bodies above 1 MiB are refused with 413.
    public var maxUploadSize: Int { 1_048_576 }

    /// The path parameter `name`, percent-decoded (an id may arrive as `a%3Ab` for `a:b`); a NUL (`%00`) is refused.
    func pathText(_ name: String) throws -> String {
        let raw = try parameters.require(name)
        guard let text = raw.removingPercentEncoding else {
            throw PlacesError.invalid(name, "\(name) holds a malformed percent-encoding")
        }
        try TextRules.checkNoNUL(text, field: name)
        return text
    }

    /// `response` with `Connection: close`, the connection closed once it is written: the rest of the request's body
    /// is never read.
    func closingConnection(after response: Response) -> Response {
        var response = response
        response.headers[.connection] = "close"
        let body = response.body
        let channel = channel
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            try await body.write(writer)
            // Half-close first, so the answer is flushed and followed by FIN before the socket goes.
            try? await channel.close(mode: .output)
            try? await channel.close(mode: .all)
        }
        return response
    }

    /// The signed-in caller when the request carried a bearer token, read from its session now (401 `unauthorized`
    /// when the token is unknown, revoked or expired); nil without a token.
    func caller() async throws -> Caller? {
        if let resolvedCaller { return resolvedCaller }
        guard let bearer else { return nil }
        return try await bearer.accounts.authenticate(token: bearer.token)
    }

    /// The signed-in caller, or 401 `unauthorized`.
    func requireCaller() async throws -> Caller {
        guard let caller = try await caller() else { throw PlacesError.unauthorized() }
        return caller
    }
}

/// A bearer token as a request carried it, and the accounts that know its session.
struct BearerToken: Sendable {
    let token: String
    let accounts: AccountService
}

/// Which address a request comes from: the peer's, unless the peer is a trusted proxy, in which case the
/// right-most address of `X-Forwarded-For` that is not itself a trusted proxy.
enum ClientAddress {
    static func resolve(peer: String?, forwardedFor: String?, trustedProxies: Set<String>) -> String {
        guard let peer else { return "unknown" }
        guard trustedProxies.contains(peer), let forwardedFor else { return peer }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for hop in hops.reversed() where !trustedProxies.contains(hop) {
            return String(hop.prefix(64))
        }
        return peer
    }
}
