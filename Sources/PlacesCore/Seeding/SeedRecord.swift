/// One place-shaped record read from a seed file, with the line it starts on (1-based) for error messages.
public struct SeedRecord: Sendable, Hashable {
    /// The line of the file where the record starts.
    public var line: Int
    /// The record's fields, not yet validated.
    public var draft: PlaceDraft
    /// True for a record from a source the operator cannot mend (OpenStreetMap): a value the place's rules refuse is
    /// left out, and a record that still is no place is skipped and counted, never stopping its file.
    public var forgiving = false
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
    /// OpenStreetMap features as osmium exports them: a GeoJSON text sequence (RFC 8142), one feature a line.
    case geojsonSequence
    /// An OpenStreetMap extract (`.osm.pbf`, `.osm`, `.osm.bz2`, `.osm.gz`), read through osmium.
    case openStreetMap

    /// True for the formats whose features are OpenStreetMap's.
    public var isOpenStreetMap: Bool { self == .geojsonSequence || self == .openStreetMap }

    /// The format of a path by its extension (case-insensitive), or nil for other files.
    public init?(path: String) {
        let lower = path.lowercased()
        if lower.hasSuffix(".geojsonseq") {
            self = .geojsonSequence
        } else if [".osm", ".osm.pbf", ".osm.bz2", ".osm.gz", ".pbf"].contains(where: lower.hasSuffix) {
            self = .openStreetMap
        } else if lower.hasSuffix(".geojson") {
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
