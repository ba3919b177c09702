import Hummingbird
import PlacesCore

/// `GET /`: the page a person opens in a browser (places found by search, a place's panel), with its script, style
/// and icon. Compiled into the binary, as the API's document is, so a copied `places` executable serves it; written
/// for this project in plain HTML, CSS and JavaScript modules, with no build step.
///
/// The page's Content-Security-Policy lets it load and connect to its own origin only: no inline script, no other
/// host.
struct WebController: Sendable {
    /// What the page may load and connect to.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// One file of the page: its bytes and their media type.
    struct File: Sendable {
        let bytes: [UInt8]
        let contentType: String
    }

    /// The page's files by the name its HTML asks for them under `/web/`.
    static let files: [String: File] = [
        "app.js": File(bytes: PackageResources.app_js, contentType: "text/javascript; charset=utf-8"),
        "map.js": File(bytes: PackageResources.map_js, contentType: "text/javascript; charset=utf-8"),
        "style.css": File(bytes: PackageResources.style_css, contentType: "text/css; charset=utf-8"),
    ]

    var routes: [Route] {
        [
            Route(.get, "", use: Self.page),
            Route(.get, "favicon.svg", use: Self.icon),
            Route(.get, "web/{file}", use: Self.file),
        ]
    }

    /// `GET /`: the page.
    @Sendable static func page(request: Request, context: PlacesRequestContext) async throws -> Response {
        answer(File(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8"), request: request)
    }

    /// `GET /favicon.svg`: the page's icon (so a browser's console stays quiet).
    @Sendable static func icon(request: Request, context: PlacesRequestContext) async throws -> Response {
        answer(File(bytes: PackageResources.favicon_svg, contentType: "image/svg+xml"), request: request)
    }

    /// `GET /web/{file}`: the page's script or style; 404 `not_found` for any other name.
    @Sendable static func file(request: Request, context: PlacesRequestContext) async throws -> Response {
        let name = try context.pathText("file")
        guard let file = files[name] else { throw PlacesError(.notFound, "no file \(PlacesError.quoted(name)) in the page") }
        return answer(file, request: request)
    }

    /// The file with its tag (a browser revalidates it, and gets 304 while the binary is the same) and the page's
    /// policy.
    private static func answer(_ file: File, request: Request) -> Response {
        var response = EntityTag.answer(body: file.bytes, contentType: file.contentType, request: request)
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[.cacheControl] = "no-cache"
        return response
    }
}
