import Hummingbird
import PlacesCore

/// `GET /`: the page a person opens in a browser (places found by search, a place's panel), with its script, style
/// and icon. Compiled into the binary, as the API's document is, so a copied `places` executable serves it; written
/// for this project in plain HTML, CSS and JavaScript modules, with no build step.
///
/// The page's Content-Security-Policy lets it load and connect to its own origin only (no inline script, no other
/// host), and load images from the tile server when one is configured.
struct WebController: Sendable {
    /// The background of raster tiles, if any: the page reads it from its `<meta name="map-tiles">` and
    /// `<meta name="map-attribution">`.
    let tiles: MapTiles?
    /// What the page may load and connect to.
    let contentSecurityPolicy: String
    /// The page, with the tiles' settings written into it.
    let page: File

    init(tiles: MapTiles? = nil) {
        self.tiles = tiles
        contentSecurityPolicy =
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:\(tiles.map { " \($0.origin)" } ?? ""); "
            + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        let html = String(decoding: PackageResources.index_html, as: UTF8.self)
            .replacingOccurrences(of: "{{map-tiles}}", with: Self.attributeText(tiles?.template ?? ""))
            .replacingOccurrences(of: "{{map-attribution}}", with: Self.attributeText(tiles?.attribution ?? ""))
        page = File(bytes: Array(html.utf8), contentType: "text/html; charset=utf-8")
    }

    /// Text made safe inside a double-quoted HTML attribute.
    static func attributeText(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// One file of the page: its bytes, their media type, and their tag (worked out once: the binary's files never
    /// change).
    struct File: Sendable {
        let bytes: [UInt8]
        let contentType: String
        let tag: String

        init(bytes: [UInt8], contentType: String) {
            self.bytes = bytes
            self.contentType = contentType
            tag = EntityTag.of(bytes)
        }
    }

    /// The page's icon.
    static let iconFile = File(bytes: PackageResources.favicon_svg, contentType: "image/svg+xml")

    /// The page's files by the name its HTML and its modules ask for them under `/web/`.
    static let files: [String: File] = {
        let script = "text/javascript; charset=utf-8"
        let scripts: [(String, [UInt8])] = [
            ("app.js", PackageResources.app_js), ("api.js", PackageResources.api_js), ("dom.js", PackageResources.dom_js),
            ("geo.js", PackageResources.geo_js), ("map.js", PackageResources.map_js), ("map-input.js", PackageResources.map_input_js),
            ("map-markers.js", PackageResources.map_markers_js), ("basemap.js", PackageResources.basemap_js),
            ("results.js", PackageResources.results_js), ("search.js", PackageResources.search_js), ("place.js", PackageResources.place_js),
            ("account.js", PackageResources.account_js), ("stream.js", PackageResources.stream_js),
            ("notifications.js", PackageResources.notifications_js), ("groups.js", PackageResources.groups_js),
            ("decisions.js", PackageResources.decisions_js), ("decision-start.js", PackageResources.decision_start_js),
            ("swipe.js", PackageResources.swipe_js), ("conversation.js", PackageResources.conversation_js),
            ("meet.js", PackageResources.meet_js), ("settings.js", PackageResources.settings_js), ("people.js", PackageResources.people_js),
            ("photos.js", PackageResources.photos_js), ("picture.js", PackageResources.picture_js),
        ]
        var files = Dictionary(uniqueKeysWithValues: scripts.map { ($0.0, File(bytes: $0.1, contentType: script)) })
        files["style.css"] = File(bytes: PackageResources.style_css, contentType: "text/css; charset=utf-8")
        // Natural Earth's countries (public domain), made by Tests/tools/make-basemap.py: the map's offline background.
        files["basemap.json"] = File(bytes: PackageResources.basemap_json, contentType: "application/json")
        return files
    }()

    var routes: [Route] {
        [
            Route(.get, "", query: .ignored, use: servePage),
            Route(.get, "favicon.svg", query: .ignored, use: icon),
            Route(.get, "web/{file}", query: .ignored, use: file),
        ]
    }

    /// `GET /`: the page.
    @Sendable func servePage(request: Request, context: PlacesRequestContext) async throws -> Response {
        answer(page, request: request)
    }

    /// `GET /favicon.svg`: the page's icon (so a browser's console stays quiet).
    @Sendable func icon(request: Request, context: PlacesRequestContext) async throws -> Response {
        answer(Self.iconFile, request: request)
    }

    /// `GET /web/{file}`: the page's script or style; 404 `not_found` for any other name.
    @Sendable func file(request: Request, context: PlacesRequestContext) async throws -> Response {
        let name = try context.pathText("file")
        guard let file = Self.files[name] else { throw PlacesError(.notFound, "no file \(PlacesError.quoted(name)) in the page") }
        return answer(file, request: request)
    }

    /// The file with its tag (a browser revalidates it, and gets 304 while the binary is the same) and the page's
    /// policy.
    private func answer(_ file: File, request: Request) -> Response {
        var response = EntityTag.answer(body: file.bytes, contentType: file.contentType, tag: file.tag, request: request)
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[.cacheControl] = "no-cache"
        return response
    }
}
