import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import Testing

@testable import PlacesHTTP

/// The page served at `/`: HTML, its script, style and icon from the binary, each with its media type, a tag a
/// browser revalidates, and a policy that lets the page load from its own origin only.
@Suite("The web page")
struct WebPageTests {
    @Test func thePageItsFilesAndItsIconAreServedWithThePolicy() async throws {
        try await TestApp.withClient([]) { client in
            for (path, type) in [
                ("/", "text/html; charset=utf-8"), ("/web/app.js", "text/javascript; charset=utf-8"),
                ("/web/style.css", "text/css; charset=utf-8"), ("/favicon.svg", "image/svg+xml"),
            ] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentType] == type, "\(path)")
                    #expect(response.headers[.contentSecurityPolicy] == WebController().contentSecurityPolicy, "\(path)")
                    #expect(response.headers[.cacheControl] == "no-cache", "\(path)")
                    let tag = try #require(response.headers[.eTag], "\(path)")
                    try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: tag]) { again in
                        #expect(again.status == .notModified, "\(path)")
                    }
                }
            }
            try await client.execute(uri: "/", method: .get) { response in
                let html = String(buffer: response.body)
                // What the page loads is what the server serves, and nothing inline (the policy forbids it).
                #expect(html.contains(#"<script type="module" src="/web/app.js"></script>"#))
                #expect(html.contains(#"href="/web/style.css""#) && html.contains(#"href="/favicon.svg""#))
                #expect(!html.contains("<script>") && !html.contains("style="))
                #expect(html.contains(#"<label for="search-words""#), "the search box has a label for screen readers")
                // Without tiles the page says so, and draws its graticule.
                #expect(html.contains(#"<meta name="map-tiles" content="">"#))
            }
            // A shared link's query string is the sharer's, not the page's: the page and its files ignore it, as every web
            // page does, while the API still refuses a name it does not read.
            for path in ["/?utm_source=share", "/?map=3&x=%zz", "/web/app.js?v=2", "/favicon.svg?x=1"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentSecurityPolicy] == WebController().contentSecurityPolicy, "\(path)")
                }
            }
            #expect(try await client.error(.get, "/v1/places/search?q=cafe&utm_source=share", expect: .badRequest).field == "utm_source")
            let missing = try await client.error(.get, "/web/secrets.txt", expect: .notFound)
            #expect(missing.code == "not_found")
            try await client.execute(uri: "/", method: .post) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, HEAD")
            }
        }
    }

    /// Every module the page imports, from app.js on, is one the server serves, and it serves no module nothing imports:
    /// a module added to `Web/` needs its line in `Package.swift`'s resources and in `WebController.files`.
    @Test func everyModuleThePageImportsIsServed() throws {
        var waiting = ["app.js"]
        var imported: Set<String> = []
        while let name = waiting.popLast() {
            guard imported.insert(name).inserted else { continue }
            let module = try #require(WebController.files[name], "\(name) is imported but not served")
            let text = String(decoding: module.bytes, as: UTF8.self)
            waiting += text.matches(of: #/\bfrom "\./([a-z-]+\.js)"/#).map { String($0.output.1) }
        }
        let served = Set(WebController.files.keys.filter { $0.hasSuffix(".js") })
        #expect(imported == served, "served but not imported: \(served.subtracting(imported).sorted())")
        #expect(imported.isSuperset(of: ["photos.js", "picture.js", "place.js"]))
    }

    @Test func thePolicyAllowsTheOwnOriginOnly() {
        let policy = WebController().contentSecurityPolicy
        #expect(policy.hasPrefix("default-src 'none'"))
        // img-src 'self': a place's photos and a person's picture are served by the API, on the page's own origin.
        for directive in ["script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"] {
            #expect(policy.contains(directive))
        }
        #expect(!policy.contains("unsafe-inline") && !policy.contains("http"))
    }

    /// With a tile server configured, the page reads its template and attribution from the HTML, and its policy lets
    /// images come from that one origin too, and nothing else from it.
    @Test func tilesAddTheirOriginToImagesOnly() async throws {
        let tiles = try MapTiles(
            template: "https://tiles.example.org:8443/{z}/{x}/{y}.png?style=\"plain\"&v=2",
            attribution: "© Example <Maps> & friends"
        )
        #expect(tiles.origin == "https://tiles.example.org:8443")
        #expect(try MapTiles(template: "http://[::1]:9000/{z}/{x}/{y}.png", attribution: "mine").origin == "http://[::1]:9000")
        #expect(try MapTiles(template: "HTTPS://Tiles.Example.org/{z}/{x}/{y}.png", attribution: "mine").origin == "https://tiles.example.org")
        let web = WebController(tiles: tiles)
        #expect(web.contentSecurityPolicy.contains("img-src 'self' data: https://tiles.example.org:8443;"))
        #expect(web.contentSecurityPolicy.contains("connect-src 'self';"))
        let html = String(decoding: web.page.bytes, as: UTF8.self)
        #expect(html.contains(#"content="https://tiles.example.org:8443/{z}/{x}/{y}.png?style=&quot;plain&quot;&amp;v=2""#))
        #expect(html.contains(#"content="© Example &lt;Maps&gt; &amp; friends""#))
    }

    /// A template the page could not use, or one without its attribution, stops the server with the setting named.
    @Test func aTileTemplateIsCheckedWithItsAttribution() {
        for template in [
            "tiles.example.org/{z}/{x}/{y}.png", "ftp://tiles.example.org/{z}/{x}/{y}.png", "https://tiles.example.org/{z}/{x}.png",
            "https://{s}.tiles.example.org/{z}/{x}/{y}.png", "https:///{z}/{x}/{y}.png",
        ] {
            #expect(throws: PlacesError.self, "\(template)") { try MapTiles(template: template, attribution: "© Example") }
            #expect((try? MapTiles(template: template, attribution: "© Example")) == nil, "\(template)")
        }
        for attribution in ["", "  ", "two\nlines", String(repeating: "a", count: 301)] {
            do {
                _ = try MapTiles(template: "https://tiles.example.org/{z}/{x}/{y}.png", attribution: attribution)
                Issue.record("the attribution \(attribution.debugDescription) was taken")
            } catch let error as PlacesError {
                #expect(error.field == "map-tiles-attribution")
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
