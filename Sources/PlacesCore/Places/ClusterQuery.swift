import GeoIndex

/// "What is in my viewport at this zoom?", as clusters: a box, a zoom of the map's grid, and nearby's filters.
public struct ClusterQuery: Sendable, Hashable {
    /// The most cells one answer may span (a 4K screen at 64 pixels a cell spans about 2,000).
    public static let maximumCells = 10_000

    /// The box; a west edge east of the east edge crosses the antimeridian.
    public var box: GeoBox
    /// The zoom, 0 through 20: its grid has 2^(zoom+2) cells a side.
    public var zoom: Int
    /// What the places must be. `kind` alone is answered from the counts kept per cell; other filters scan the box.
    public var filter: PlaceFilter

    /// Makes a query; `invalid_input` naming `bbox` for an invalid box or one spanning more than `maximumCells` cells at
    /// the zoom, `zoom` for a zoom out of range.
    public init(box: GeoBox, zoom: Int, filter: PlaceFilter = PlaceFilter()) throws(PlacesError) {
        guard box.isValid else { throw .invalid("bbox", "bbox must hold valid edges, its south edge not north of its north edge") }
        guard MapGrid.zooms.contains(zoom) else {
            throw .invalid("zoom", "zoom must be a whole number from \(MapGrid.zooms.lowerBound) to \(MapGrid.zooms.upperBound)")
        }
        let cells = MapGrid.cellCount(in: box, zoom: zoom)
        guard cells <= ClusterQuery.maximumCells else {
            throw .invalid(
                "bbox",
                "at zoom \(zoom) this box spans \(cells) cells of the map's grid, more than \(ClusterQuery.maximumCells): zoom out or ask for a smaller box"
            )
        }
        self.box = box
        self.zoom = zoom
        self.filter = filter
    }

    /// Parses a query as a URL query string spells it: `bbox=WEST,SOUTH,EAST,NORTH`, `zoom`.
    public static func parse(bbox: String?, zoom: String?, filter: PlaceFilter) throws(PlacesError) -> ClusterQuery {
        let box = try GeoBox.parse(bbox)
        guard let zoom, !zoom.isEmpty else { throw .invalid("zoom", "zoom is required: a whole number from 0 to 20") }
        guard let value = Int(zoom), zoom.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw .invalid("zoom", "zoom must be a whole number from 0 to 20, got \(PlacesError.quoted(zoom))")
        }
        return try ClusterQuery(box: box, zoom: value, filter: filter)
    }
}

/// One feature of a cluster answer: a cluster of places, or a single place.
enum MapFeature: Sendable {
    /// Places of one cell: how many, their mean position (on the sphere), their bounding box, and one of them.
    case cluster(cell: MapGrid.Cell, count: Int, center: Coordinate, bounds: GeoBox, memberID: String)
    /// A cell holding one place: the place.
    case place(IndexedPlace)

    /// How many places it stands for.
    var count: Int {
        switch self {
        case .cluster(_, let count, _, _, _): return count
        case .place: return 1
        }
    }
}

/// The clusters and single places of a viewport at a zoom, as a GeoJSON FeatureCollection.
public struct ClusterAnswer: Sendable {
    /// The box asked about.
    public var box: GeoBox
    /// The zoom asked about.
    public var zoom: Int
    /// Clusters and single places, by cell (north to south, west to east).
    var features: [MapFeature]

    /// How many features the answer holds.
    public var featureCount: Int { features.count }

    /// How many places the features stand for: every place in the box that passes the filter, exactly once.
    public var count: Int { features.reduce(0) { $0 + $1.count } }

    /// The answer as GeoJSON (RFC 7946), keys sorted: `bbox` (the box asked about), `count`, `features`, `type`, `zoom`.
    /// A cluster is a Point feature whose properties are `bbox` (its members' box), `cluster: true`, `count` and
    /// `memberId`; a single place is a place feature as nearby's GeoJSON writes it (without distances).
    public func geoJSON() -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + features.count * 320)
        writer.object { writer in
            writer.key("bbox")
            writer.array { writer in
                for edge in [box.west, box.south, box.east, box.north] { writer.number(edge) }
            }
            writer.key("count")
            writer.number(count)
            writer.key("features")
            writer.array { writer in
                for feature in features {
                    switch feature {
                    case .place(let place):
                        place.writeFeature(to: &writer, distance: nil, openStatus: nil)
                    case .cluster(let cell, let count, let center, let bounds, let memberID):
                        writer.object { writer in
                            writer.key("geometry")
                            writer.object { writer in
                                writer.key("coordinates")
                                writer.array { writer in
                                    writer.number(center.longitude)
                                    writer.number(center.latitude)
                                }
                                writer.key("type")
                                writer.string("Point")
                            }
                            writer.key("id")
                            writer.string("cluster/\(cell.zoom)/\(cell.row)/\(cell.column)")
                            writer.key("properties")
                            writer.object { writer in
                                writer.key("bbox")
                                writer.array { writer in
                                    for edge in [bounds.west, bounds.south, bounds.east, bounds.north] { writer.number(edge) }
                                }
                                writer.key("cluster")
                                writer.bool(true)
                                writer.key("count")
                                writer.number(count)
                                writer.key("memberId")
                                writer.string(memberID)
                            }
                            writer.key("type")
                            writer.string("Feature")
                        }
                    }
                }
            }
            writer.key("type")
            writer.string("FeatureCollection")
            writer.key("zoom")
            writer.number(zoom)
        }
        return writer.bytes
    }
}
