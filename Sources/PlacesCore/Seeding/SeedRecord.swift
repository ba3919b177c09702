/// One place-shaped record read from a seed file, with the line it starts on (1-based) for error messages.
public struct SeedRecord: Sendable, Hashable {
    /// The line of the file where the record starts.
    public var line: Int
    /// The record's fields, not yet validated.
    public var draft: PlaceDraft
}

/// A record that could not be read or is not a valid place: where, and why.
public struct SeedRowError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path as given.
    public var file: String
    /// The line of the file where the record starts (1-based).
    public var line: Int
    /// Why the record was refused.
    public var reason: String
    /// The field at fault, when one is.
    public var field: String?

    /// `file:line: reason`, the way compilers point at a line.
    public var description: String { "\(file):\(line): \(reason)" }
}

/// The formats `places seed` reads, chosen by file extension.
public enum SeedFormat: String, Sendable, CaseIterable {
    /// Our own format: `{"places": [{...}, ...]}`.
    case json
    /// RFC 4180 CSV with a header row.
    case csv
    /// A GeoJSON FeatureCollection of Point features.
    case geojson

    /// The format of a path by its extension (case-insensitive), or nil for other files.
    public init?(path: String) {
        let lower = path.lowercased()
        if lower.hasSuffix(".geojson") {
            self = .geojson
        } else if lower.hasSuffix(".json") {
            self = .json
        } else if lower.hasSuffix(".csv") {
            self = .csv
        } else {
            return nil
        }
    }
}
