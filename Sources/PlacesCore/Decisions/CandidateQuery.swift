import Foundation
import GeoIndex

/// A nearby query that picks a decision's candidates: a point, a radius of at most 20 miles, the filters of
/// `GET /v1/places/nearby`, and how many of the nearest places to take.
struct CandidateQuery {
    static let fields: Set<String> = ["lat", "lon", "radius", "limit", "kind", "tags", "cuisine", "minPrice", "maxPrice", "minRating"]

    var query: NearbyQuery

    /// Reads the body's `nearby` object; a radius above 20 miles is refused rather than capped, so a group never
    /// votes over other places than it asked for.
    static func parse(_ reader: FieldReader) throws(PlacesError) -> CandidateQuery {
        let field = "candidates.nearby"
        guard let lat = try reader.number("lat") else { throw .invalid("\(field).lat", "lat is required") }
        guard let lon = try reader.number("lon") else { throw .invalid("\(field).lon", "lon is required") }
        let radius = try reader.number("radius") ?? NearbyQuery.defaultRadiusMiles
        guard radius > 0, radius <= NearbyQuery.maximumRadiusMiles else {
            throw .invalid("\(field).radius", "radius must be more than 0 and at most 20 miles")
        }
        let limit = try reader.integer("limit", in: 1...DecisionService.maximumCandidates) ?? 10
        var tags: [String] = []
        if case .list(let values)? = reader.fields["tags"] {
            for value in values {
                guard case .text(let tag) = value else { throw .invalid("\(field).tags", "tags must be text") }
                tags.append(tag)
            }
        } else if reader.has("tags") && !reader.isNull("tags") {
            throw .invalid("\(field).tags", "tags must be a list")
        }
        func text(_ name: String) throws(PlacesError) -> String? { try reader.text(name, limit: 100) }
        func integer(_ name: String) throws(PlacesError) -> String? { try reader.integer(name, in: 1...4).map(String.init) }
        do {
            let filter = try PlaceFilter.parse(
                kind: try text("kind"),
                tags: tags,
                cuisine: try text("cuisine"),
                minPrice: try integer("minPrice"),
                maxPrice: try integer("maxPrice"),
                minRating: try reader.number("minRating").map { String($0) },
                openAt: nil
            )
            let query = try NearbyQuery(center: Coordinate(latitude: lat, longitude: lon), radiusMiles: radius, limit: limit, filter: filter)
            return CandidateQuery(query: query)
        } catch {
            throw PlacesError(error.code, error.message, field: error.field.map { "\(field).\($0)" })
        }
    }

    /// The ids of the nearest matching places, nearest first.
    func places(in service: PlaceService) async throws -> [String] {
        try await service.nearbyLoadingIndex(query).places.map(\.id)
    }
}
