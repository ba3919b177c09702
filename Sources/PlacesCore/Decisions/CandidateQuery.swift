import Foundation
import GeoIndex

/// A nearby query that picks a decision's candidates: a point, a radius of at most 20 miles, the filters of
/// `GET /v1/places/nearby`, and how many of the nearest places to take.
struct CandidateQuery {
    var query: NearbyQuery

    /// What everyone taking part can eat and pay: the places kept must carry every need as a tag, and be priced at
    /// most the lowest `maxPrice` (those without a price level stay).
    struct Needs: Equatable {
        var tags: [String] = []
        var budget: Int?

        /// The needs of all of `settings`.
        init(_ settings: [UserSettings]) {
            tags = DietaryNeed.allCases.filter { need in settings.contains { $0.dietaryNeeds.contains(need) } }.map(\.rawValue)
            budget = settings.compactMap(\.maxPrice).min()
        }
    }

    /// The query with everyone's needs applied.
    func respecting(_ needs: Needs) -> CandidateQuery {
        var respected = self
        for tag in needs.tags where !respected.query.filter.tags.contains(tag) { respected.query.filter.tags.append(tag) }
        respected.query.filter.budget = needs.budget
        return respected
    }

    /// Checks the command's nearby query; a radius above 20 miles is refused rather than capped, so a group never
    /// votes over other places than it asked for.
    static func parse(_ asked: StartDecision.NearbyCandidates) throws(PlacesError) -> CandidateQuery {
        let field = "candidates.nearby"
        guard let lat = asked.lat else { throw .invalid("\(field).lat", "lat is required") }
        guard let lon = asked.lon else { throw .invalid("\(field).lon", "lon is required") }
        let radius = asked.radiusMiles ?? NearbyQuery.defaultRadiusMiles
        guard radius > 0, radius <= NearbyQuery.maximumRadiusMiles else {
            throw .invalid("\(field).radius", "radius must be more than 0 and at most 20 miles")
        }
        let limit = asked.limit ?? 10
        guard (1...DecisionService.maximumCandidates).contains(limit) else {
            throw .invalid("\(field).limit", "limit must be a whole number from 1 to \(DecisionService.maximumCandidates)")
        }
        // A filter given blank is refused, not dropped: `kind: ""` filtering nothing would vote over places not asked for.
        func text(_ value: String?, _ name: String) throws(PlacesError) -> String? {
            try TextRules.nonBlankText(value, field: name, limit: 100, blank: "\(name) must not be blank; leave it out to filter nothing")
        }
        func price(_ value: Int?, _ name: String) throws(PlacesError) -> String? {
            guard let value else { return nil }
            guard (1...4).contains(value) else { throw .invalid(name, "\(name) must be a whole number from 1 to 4") }
            return String(value)
        }
        do {
            let filter = try PlaceFilter.parse(
                kind: try text(asked.kind, "kind"),
                tags: asked.tags,
                cuisine: try text(asked.cuisine, "cuisine"),
                minPrice: try price(asked.minPrice, "minPrice"),
                maxPrice: try price(asked.maxPrice, "maxPrice"),
                minRating: asked.minRating.map { String($0) },
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
