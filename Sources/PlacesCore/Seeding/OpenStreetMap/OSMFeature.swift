import GeoIndex

/// One feature of osmium's GeoJSON export: its OpenStreetMap object, the point that stands for its shape, the box
/// its shape covers, and its tags.
struct OSMFeature {
    /// The object as `n123`, `w456` or `r789` (its type's letter and its id).
    var object: String
    /// Where the place goes: a node's position, an area's interior point, a line's middle.
    var point: Coordinate
    /// The box the shape covers (west, south, east, north).
    var extent: GeoBox
    /// The feature's tags (its `properties`), keys as OpenStreetMap spells them.
    var tags: [String: FieldValue]

    /// Reads one feature, or says why it is not one.
    static func read(_ value: FieldValue) -> Result<OSMFeature, FeatureError> {
        guard case .object(let feature) = value, feature["type"] == .text("Feature") else {
            return .failure(FeatureError("expected a GeoJSON Feature"))
        }
        guard let object = objectName(feature["id"]) else {
            return .failure(FeatureError(#"a feature needs its OpenStreetMap id ("n123", "w456", "r789"; osmium export --add-unique-id=type_id)"#))
        }
        guard case .object(let geometry)? = feature["geometry"], case .text(let type)? = geometry["type"],
            let coordinates = geometry["coordinates"]
        else {
            return .failure(FeatureError("\(object): the feature has no geometry"))
        }
        var extent = Extent()
        let point: Coordinate?
        switch type {
        case "Point":
            point = position(coordinates).map { extent.add($0); return Coordinate(latitude: $0.y, longitude: $0.x) }
        case "LineString":
            let line = positions(coordinates, into: &extent)
            point = line.flatMap(InteriorPoint.ofLine)
        case "Polygon":
            point = rings(coordinates, into: &extent).flatMap { InteriorPoint.ofArea([$0]) }
        case "MultiPolygon":
            guard case .list(let polygons) = coordinates else { return .failure(FeatureError("\(object): bad MultiPolygon coordinates")) }
            var shapes: [[InteriorPoint.Ring]] = []
            for polygon in polygons {
                guard let polygonRings = rings(polygon, into: &extent) else { return .failure(FeatureError("\(object): bad MultiPolygon coordinates")) }
                shapes.append(polygonRings)
            }
            point = InteriorPoint.ofArea(shapes)
        default:
            return .failure(FeatureError("\(object): a \(type) is not a shape a place is taken from"))
        }
        guard let point, let box = extent.box else { return .failure(FeatureError("\(object): the \(type)'s coordinates are not positions")) }
        var tags: [String: FieldValue] = [:]
        if case .object(let properties)? = feature["properties"] { tags = properties }
        return .success(OSMFeature(object: object, point: point, extent: box, tags: tags))
    }

    /// Why a line of the export is not a feature.
    struct FeatureError: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The object a feature id names: osmium's `type_id` ids (`n123`, `w456`, `r789`; an area as `a` and twice its
    /// way's id, or twice its relation's plus one) and Overpass's (`node/123`, `way/456`, `relation/789`).
    static func objectName(_ id: FieldValue?) -> String? {
        guard case .text(let text)? = id, let first = text.first else { return nil }
        func number(_ digits: Substring) -> UInt64? {
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return UInt64(digits)
        }
        if let slash = text.firstIndex(of: "/") {
            guard let id = number(text[text.index(after: slash)...]) else { return nil }
            switch text[..<slash] {
            case "node": return "n\(id)"
            case "way": return "w\(id)"
            case "relation": return "r\(id)"
            default: return nil
            }
        }
        guard let id = number(text.dropFirst()) else { return nil }
        switch first {
        case "n", "w", "r": return "\(first)\(id)"
        case "a": return id % 2 == 0 ? "w\(id / 2)" : "r\(id / 2)"
        default: return nil
        }
    }

    /// The box of the positions seen.
    struct Extent {
        var west = Double.infinity, south = Double.infinity, east = -Double.infinity, north = -Double.infinity
        mutating func add(_ position: InteriorPoint.Position) {
            west = min(west, position.x)
            east = max(east, position.x)
            south = min(south, position.y)
            north = max(north, position.y)
        }
        var box: GeoBox? { west <= east ? GeoBox(west: west, south: south, east: east, north: north) : nil }
    }

    private static func position(_ value: FieldValue) -> InteriorPoint.Position? {
        guard case .list(let numbers) = value, numbers.count >= 2, case .number(let x) = numbers[0], case .number(let y) = numbers[1],
            Coordinate(latitude: y, longitude: x).isValid
        else { return nil }
        return (x, y)
    }

    private static func positions(_ value: FieldValue, into extent: inout Extent) -> [InteriorPoint.Position]? {
        guard case .list(let items) = value, !items.isEmpty else { return nil }
        var result: [InteriorPoint.Position] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard let position = position(item) else { return nil }
            extent.add(position)
            result.append(position)
        }
        return result
    }

    private static func rings(_ value: FieldValue, into extent: inout Extent) -> [InteriorPoint.Ring]? {
        guard case .list(let items) = value, !items.isEmpty else { return nil }
        var result: [InteriorPoint.Ring] = []
        for item in items {
            guard let ring = positions(item, into: &extent) else { return nil }
            result.append(ring)
        }
        return result
    }
}
