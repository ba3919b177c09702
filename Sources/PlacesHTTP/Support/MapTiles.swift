import Foundation
import PlacesCore

/// The page's background of raster tiles: a tile server's URL template and the attribution its terms ask for. There
/// is none by default, and then the page draws a graticule and loads nothing from another host.
public struct MapTiles: Sendable, Equatable {
    /// The URL of one tile, with `{z}`, `{x}` and `{y}` where its zoom and column and row go
    /// (`https://tile.example.org/{z}/{x}/{y}.png`).
    public let template: String
    /// The text shown on the map, as the tile server's terms ask (`© OpenStreetMap contributors`).
    public let attribution: String

    /// The scheme, host and port the tiles come from: what the page's Content-Security-Policy adds to `img-src`.
    public let origin: String

    /// Checks a template and its attribution; an error names the setting at fault (`map-tiles` or
    /// `map-tiles-attribution`).
    public init(template: String, attribution: String) throws {
        guard let url = URL(string: template.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")),
            let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty,
            host.unicodeScalars.allSatisfy({ Self.hostCharacters.contains($0) }), url.user == nil,
            ["{z}", "{x}", "{y}"].allSatisfy(template.contains)
        else {
            throw PlacesError.invalid(
                "map-tiles",
                "a tile URL template is an http or https URL with {z}, {x} and {y} in its path, like https://tile.example.org/{z}/{x}/{y}.png, got \(PlacesError.quoted(template))"
            )
        }
        let text = attribution.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= 300, !text.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw PlacesError.invalid(
                "map-tiles-attribution",
                "a tile server's terms ask for its attribution on the map: give its text (one line, at most 300 characters) with --map-tiles-attribution"
            )
        }
        self.template = template
        self.attribution = text
        // An IPv6 address goes in brackets, as in the template itself.
        let hostText = host.contains(":") ? "[\(host)]" : host.lowercased()
        self.origin = "\(scheme)://\(hostText)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// What a host name or address may hold, so that the origin is one token of the Content-Security-Policy.
    private static let hostCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:")
}
