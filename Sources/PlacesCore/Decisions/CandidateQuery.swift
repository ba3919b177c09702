import Foundation
import GeoIndex

/// A query that picks a decision's candidates: nearby's (a point, a radius of at most 20 miles) or meet's (several
/// origins), the filters of `GET /v1/places/nearby`, and how many places to take.
struct CandidateQuery {
    /// Where the places are looked for.
    enum Area {
        /// Within `radiusMiles` of a point, nearest first.
        case circle(Coordinate, radiusMiles: Double)
        /// Within 20 miles of every origin, the fairest first.
        case meet([Coordinate])
    }

    var area: Area
    var filter: PlaceFilter
    var limit: Int

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
        for tag in needs.tags where !respected.filter.tags.contains(tag) { respected.filter.tags.append(tag) }
        respected.filter.budget = needs.budget
        return respected
    }

    /// The query keeping only places open at `instant` in their own time zone (places without hours stay).
    func open(at instant: Date?) -> CandidateQuery {
        var open = self
        open.filter.openAt = instant
        return open
    }

    /// The ids of the matching places: nearest first, or the fairest first.
    func places(in service: PlaceService) async throws -> [String] {
        switch area {
        case .circle(let center, let radiusMiles):
            let query = try NearbyQuery(center: center, radiusMiles: radiusMiles, limit: limit, filter: filter)
            return try await service.nearbyLoadingIndex(query).places.map(\.id)
        case .meet(let origins):
            return try await service.meetLoadingIndex(MeetQuery(origins: origins, filter: filter, limit: limit)).places.map(\.id)
        }
    }

    // MARK: - Parsing

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
        let center = Coordinate(latitude: lat, longitude: lon)
        try PlacesError.within(field) { () throws(PlacesError) in try center.check() }
        return CandidateQuery(
            area: .circle(center, radiusMiles: radius),
            filter: try filter(asked.filters, field: field),
            limit: try limit(asked.limit, field: field)
        )
    }

    /// Checks the command's meet query given its origins (`at`, or the participants' snapped locations).
    static func parse(_ asked: StartDecision.MeetCandidates, origins: [Coordinate]) throws(PlacesError) -> CandidateQuery {
        let field = "candidates.meet"
        return CandidateQuery(area: .meet(origins), filter: try filter(asked.filters, field: field), limit: try limit(asked.limit, field: field))
    }

    /// The origins `at` names: 2 to 20 points.
    static func origins(_ at: [StartDecision.MeetCandidates.Origin]) throws(PlacesError) -> [Coordinate] {
        let field = "candidates.meet.at"
        guard (MeetQuery.minimumOrigins...MeetQuery.maximumOrigins).contains(at.count) else {
            throw .invalid(field, "give from \(MeetQuery.minimumOrigins) to \(MeetQuery.maximumOrigins) origins, got \(at.count)")
        }
        var origins: [Coordinate] = []
        for origin in at {
            guard let lat = origin.lat, let lon = origin.lon else { throw .invalid(field, "each origin needs lat and lon") }
            let point = Coordinate(latitude: lat, longitude: lon)
            do {
                try point.check()
            } catch {
                throw .invalid(field, error.message)
            }
            origins.append(point)
        }
        return origins
    }

    private static func limit(_ asked: Int?, field: String) throws(PlacesError) -> Int {
        let limit = asked ?? 10
        guard (1...DecisionService.maximumCandidates).contains(limit) else {
            throw .invalid("\(field).limit", "limit must be a whole number from 1 to \(DecisionService.maximumCandidates)")
        }
        return limit
    }

    private static func filter(_ asked: StartDecision.Filters, field: String) throws(PlacesError) -> PlaceFilter {
        // A filter given blank is refused, not dropped: `kind: ""` filtering nothing would vote over places not asked for.
        func text(_ value: String?, _ name: String) throws(PlacesError) -> String? {
            try TextRules.nonBlankText(value, field: name, limit: 100, blank: "\(name) must not be blank; leave it out to filter nothing")
        }
        func price(_ value: Int?, _ name: String) throws(PlacesError) -> String? {
            guard let value else { return nil }
            guard (1...4).contains(value) else { throw .invalid(name, "\(name) must be a whole number from 1 to 4") }
            return String(value)
        }
        return try PlacesError.within(field) { () throws(PlacesError) in
            try PlaceFilter.parse(
                kind: try text(asked.kind, "kind"),
                tags: asked.tags,
                cuisine: try text(asked.cuisine, "cuisine"),
                minPrice: try price(asked.minPrice, "minPrice"),
                maxPrice: try price(asked.maxPrice, "maxPrice"),
                minRating: asked.minRating.map { String($0) },
                openAt: nil
            )
        }
    }
}
