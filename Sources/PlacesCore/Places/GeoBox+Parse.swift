import GeoIndex

extension GeoBox {
    /// Parses a box as a query string spells it, `WEST,SOUTH,EAST,NORTH` in degrees; `invalid_input` naming `field`
    /// for a missing or malformed box, an edge out of range (or NaN), or a south edge north of the north edge.
    ///
    /// A west edge east of the east edge crosses the antimeridian. A latitude of ±90 reaches the pole: a map at Web
    /// Mercator's edge (±85.05°) asks for less.
    public static func parse(_ text: String?, field: String = "bbox") throws(PlacesError) -> GeoBox {
        guard let text, !text.isEmpty else {
            throw .invalid(field, "\(field) is required: WEST,SOUTH,EAST,NORTH in degrees")
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard text.utf8.count <= 200, parts.count == 4 else {
            throw .invalid(field, "\(field) must be four numbers WEST,SOUTH,EAST,NORTH, got \(PlacesError.quoted(text))")
        }
        var edges: [Double] = []
        for part in parts {
            guard let value = DecimalText.number(String(part)) else {
                throw .invalid(field, "\(field) must be four numbers WEST,SOUTH,EAST,NORTH, got \(PlacesError.quoted(text))")
            }
            edges.append(value)
        }
        let box = GeoBox(west: edges[0], south: edges[1], east: edges[2], north: edges[3])
        guard (-90...90).contains(box.south), (-90...90).contains(box.north) else {
            throw .invalid(field, "\(field)'s south and north must be latitudes from -90 to 90 (±90 reaches the pole)")
        }
        guard (-180...180).contains(box.west), (-180...180).contains(box.east) else {
            throw .invalid(field, "\(field)'s west and east must be longitudes from -180 to 180 (west east of east crosses the antimeridian)")
        }
        guard box.south <= box.north else { throw .invalid(field, "\(field)'s south edge is north of its north edge") }
        return box
    }
}
