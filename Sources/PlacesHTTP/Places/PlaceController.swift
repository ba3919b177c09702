import Foundation
import Hummingbird
import PlacesCore

/// `/v1/places`: what is near a point, full-text search, one place's details, and the places people add,
/// favourite and rate.
struct PlaceController: Sendable {
    let service: PlaceService
    let accounts: AccountService
    let photos: PhotoService

    /// The query parameters `nearby` reads; `tag` may be given more than once.
    static let nearbyQuery = QueryParameters.Names(
        ["lat", "lon", "radius", "radiusKm", "limit", "sort", "kind", "tag", "cuisine", "minPrice", "maxPrice", "minRating", "openAt", "format"],
        repeatable: ["tag"]
    )

    /// `GET /v1/places/nearby?lat=&lon=&radius=|radiusKm=&limit=&sort=&kind=&tag=&cuisine=&minPrice=&maxPrice=&minRating=&openAt=&format=`
    ///
    /// A signed-in caller's default location and radius fill in what the request leaves out.
    @Sendable func nearby(request: Request, context: PlacesRequestContext) async throws -> Response {
        let parameters = context.query
        let filter = try Self.filter(parameters)
        // Settings are read only for what the request leaves out: a request naming its centre and radius reads none.
        let complete = parameters["lat"] != nil && parameters["lon"] != nil && (parameters["radius"] != nil || parameters["radiusKm"] != nil)
        var defaults: NearbyQuery.Defaults?
        if !complete, let caller = try await context.caller() {
            let settings = try await accounts.settings(userID: caller.user.id)
            defaults = NearbyQuery.Defaults(center: settings.defaultLocation?.coordinate, radiusMiles: settings.defaultRadiusMiles)
        }
        let query = try NearbyQuery.parse(
            lat: parameters["lat"],
            lon: parameters["lon"],
            radius: parameters["radius"],
            radiusKm: parameters["radiusKm"],
            limit: parameters["limit"],
            sort: parameters["sort"],
            filter: filter,
            defaults: defaults
        )
        let format = try ResponseFormat.negotiate(format: parameters["format"], accept: request.headers[.accept])
        let answer = service.nearby(query)
        var response =
            format == .geoJSON
            ? JSONResponse.make(json: answer.geoJSON(), contentType: ResponseFormat.geoJSONMediaType)
            : JSONResponse.make(json: answer.json())
        // The same address answers JSON or GeoJSON by the Accept header: a cache must keep them apart.
        response.headers[.vary] = "Accept"
        return response
    }

    /// The query parameters `meet` reads: its origins (repeated), a limit, and nearby's filters.
    static let meetQuery = QueryParameters.Names(
        ["at", "limit", "kind", "tag", "cuisine", "minPrice", "maxPrice", "minRating", "openAt"],
        repeatable: ["at", "tag"]
    )

    /// `GET /v1/places/meet?at=LAT,LON&at=LAT,LON…&limit=` and nearby's filters: the places within 20 miles of every
    /// origin, the fairest first (the least distance from the farthest origin, then the least sum, then by id). From
    /// the index alone, as nearby is.
    @Sendable func meet(request: Request, context: PlacesRequestContext) async throws -> Response {
        let parameters = context.query
        let query = try MeetQuery.parse(at: parameters.all("at"), limit: parameters["limit"], filter: try Self.filter(parameters))
        return JSONResponse.make(json: service.meet(query).json())
    }

    /// The query parameters `within` reads: the box, a page, and nearby's filters.
    static let viewportQuery = QueryParameters.Names(
        ["bbox", "limit", "cursor", "kind", "tag", "cuisine", "minPrice", "maxPrice", "minRating", "openAt", "format"],
        repeatable: ["tag"]
    )

    /// `GET /v1/places/within?bbox=WEST,SOUTH,EAST,NORTH&limit=&cursor=` and nearby's filters: the places in a map's
    /// viewport, best score first, then by id.
    @Sendable func within(request: Request, context: PlacesRequestContext) async throws -> Response {
        let parameters = context.query
        let query = try ViewportQuery.parse(
            bbox: parameters["bbox"],
            limit: parameters["limit"],
            cursor: parameters["cursor"],
            filter: try Self.filter(parameters)
        )
        let format = try ResponseFormat.negotiate(format: parameters["format"], accept: request.headers[.accept])
        let answer = service.within(query)
        // The same for everyone who asks: tagged, and kept apart by Accept (JSON or GeoJSON).
        return format == .geoJSON
            ? EntityTag.answer(body: answer.geoJSON(), contentType: ResponseFormat.geoJSONMediaType, request: request, vary: "Accept")
            : EntityTag.answer(body: answer.json(), request: request, vary: "Accept")
    }

    /// The query parameters `clusters` reads: the box, the zoom, and nearby's filters.
    static let clusterQuery = QueryParameters.Names(
        ["bbox", "zoom", "kind", "tag", "cuisine", "minPrice", "maxPrice", "minRating", "openAt"],
        repeatable: ["tag"]
    )

    /// `GET /v1/places/clusters?bbox=WEST,SOUTH,EAST,NORTH&zoom=Z` and nearby's filters: the viewport's clusters and
    /// single places at a zoom, as GeoJSON; the counts add up to the places in the box.
    @Sendable func clusters(request: Request, context: PlacesRequestContext) async throws -> Response {
        let parameters = context.query
        let query = try ClusterQuery.parse(bbox: parameters["bbox"], zoom: parameters["zoom"], filter: try Self.filter(parameters))
        // The same for everyone who asks, whatever the request's headers: tagged.
        return EntityTag.answer(body: service.clusters(query).geoJSON(), contentType: ResponseFormat.geoJSONMediaType, request: request)
    }

    /// The filters nearby and the map's queries share.
    private static func filter(_ parameters: QueryParameters) throws(PlacesError) -> PlaceFilter {
        try PlaceFilter.parse(
            kind: parameters["kind"],
            tags: parameters.all("tag"),
            cuisine: parameters["cuisine"],
            minPrice: parameters["minPrice"],
            maxPrice: parameters["maxPrice"],
            minRating: parameters["minRating"],
            openAt: parameters["openAt"]
        )
    }

    /// `GET /v1/places/search?q=&lat=&lon=&radius=&near=&limit=&cursor=`
    @Sendable func search(request: Request, context: PlacesRequestContext) async throws -> Response {
        let parameters = context.query
        let page = try PageRequest.parse(limit: parameters["limit"], cursor: parameters["cursor"])
        let query = try PlaceSearchQuery.parse(
            q: parameters["q"],
            lat: parameters["lat"],
            lon: parameters["lon"],
            radius: parameters["radius"],
            near: parameters["near"],
            page: page
        )
        return try JSONResponse.make(try await service.search(query))
    }

    /// `GET /v1/places/{id}?from=LAT,LON&openAt=TIME`: the place and its five newest photos, with directions to it from
    /// `from` or, when it is left out, from a signed-in caller's default location, and whether it is open at `openAt`
    /// on its own clock.
    /// Tagged for caches; `If-None-Match` with its tag answers 304.
    @Sendable func place(request: Request, context: PlacesRequestContext) async throws -> Response {
        let id = try context.pathText("id")
        var origin = try context.query["from"].map { text throws(PlacesError) in try Directions.parseOrigin(text) }
        let openAt = try context.query["openAt"].map { text throws(PlacesError) in try ISO8601Time.openAt(text) }
        let place = try await service.place(id: id)
        if origin == nil, let caller = try await context.caller() {
            origin = try await accounts.settings(userID: caller.user.id).defaultLocation?.coordinate
        }
        var answer = PlaceResponse(place, directions: origin.map { Directions(from: $0, to: place.coordinate) })
        answer.openStatus = openAt.map(place.openStatus(at:))
        answer.photos = place.photoCount > 0 ? try await photos.newest(ofPlace: place.id) : []
        // A signed-in caller's default location changes the answer: a cache keys it by Authorization too.
        return EntityTag.answer(body: Array(try JSONResponse.encoder.encode(answer)), request: request, vary: "Authorization")
    }

    /// `POST /v1/places` (signed in) → 201; the caller owns the new place.
    @Sendable func create(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let place = try await service.create(try await NewPlace(request, context: context), owner: caller.user)
        return try JSONResponse.created(PlaceResponse(place), at: "/v1/places/\(place.id)")
    }

    /// `PATCH /v1/places/{id}` (owner): the fields given change, null clears one.
    @Sendable func update(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let id = try context.pathText("id")
        let patch = try await PlacePatch(request, context: context)
        return try JSONResponse.make(PlaceResponse(try await service.update(id: id, patch, by: .person(caller.user))))
    }

    /// `DELETE /v1/places/{id}` (owner) → 204; the place leaves every query at once.
    @Sendable func delete(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try await service.delete(id: try context.pathText("id"), by: .person(caller.user))
        return Response(status: .noContent)
    }

    /// `POST /v1/places/{id}/restore` (owner): brings a deleted place back.
    @Sendable func restore(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try JSONResponse.make(PlaceResponse(try await service.restore(id: try context.pathText("id"), by: .person(caller.user))))
    }

    /// `PUT /v1/places/{id}/favorite` → 204.
    @Sendable func favorite(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try await service.favorite(placeID: try context.pathText("id"), user: caller.user)
        return Response(status: .noContent)
    }

    /// `DELETE /v1/places/{id}/favorite` → 204.
    @Sendable func unfavorite(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try await service.unfavorite(placeID: try context.pathText("id"), user: caller.user)
        return Response(status: .noContent)
    }

    /// `PUT /v1/places/{id}/rating` with `{stars, review?}` → the rating and the place's new aggregate.
    @Sendable func rate(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let id = try context.pathText("id")
        let (rating, aggregate) = try await service.rate(placeID: id, user: caller.user, try await RatePlace(request, context: context))
        return try JSONResponse.make(RatingResponse(rating: rating, aggregate: aggregate))
    }

    /// `DELETE /v1/places/{id}/rating` → the place's new aggregate.
    @Sendable func unrate(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let aggregate = try await service.unrate(placeID: try context.pathText("id"), user: caller.user)
        return try JSONResponse.make(RatingResponse.Aggregate(aggregate))
    }
}

/// A rating and the aggregate of its place after it.
struct RatingResponse: Encodable {
    struct Aggregate: Encodable {
        var ratingAverage: Double?
        var ratingCount: Int
        var score: Double

        init(_ aggregate: RatingAggregate) {
            ratingAverage = aggregate.average
            ratingCount = aggregate.count
            score = aggregate.score
        }
    }

    var rating: Rating
    var place: Aggregate

    init(rating: Rating, aggregate: RatingAggregate) {
        self.rating = rating
        place = Aggregate(aggregate)
    }
}

/// JSON or GeoJSON, chosen by `format=` or the `Accept` header.
enum ResponseFormat: Equatable {
    case json
    case geoJSON

    static let geoJSONMediaType = "application/geo+json"

    /// `format=` wins; otherwise GeoJSON when `Accept` prefers `application/geo+json` (by its q-values) over JSON.
    static func negotiate(format: String?, accept: String?) throws(PlacesError) -> ResponseFormat {
        if let format {
            switch format {
            case "json": return .json
            case "geojson": return .geoJSON
            default: throw .invalid("format", "format must be json or geojson")
            }
        }
        guard let accept else { return .json }
        var geoJSON = 0.0
        var json = 0.0
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            switch type {
            case geoJSONMediaType: geoJSON = max(geoJSON, quality)
            case "application/json", "application/*", "*/*": json = max(json, quality)
            default: continue
            }
        }
        return geoJSON > 0 && geoJSON >= json ? .geoJSON : .json
    }
}

extension PlaceController {
    /// The routes of /v1/places, in the order their paths' `Allow` headers name their methods.
    var routes: [Route] {
        [
            Route(.post, "v1/places", signedIn: create),
            Route(.get, "v1/places/nearby", query: PlaceController.nearbyQuery, use: nearby),
            Route(.get, "v1/places/meet", query: PlaceController.meetQuery, use: meet),
            Route(.get, "v1/places/within", query: PlaceController.viewportQuery, use: within),
            Route(.get, "v1/places/clusters", query: PlaceController.clusterQuery, use: clusters),
            Route(.get, "v1/places/search", query: ["q", "lat", "lon", "radius", "near", "limit", "cursor"], use: search),
            Route(.get, "v1/places/{id}", query: ["from", "openAt"], use: place),
            Route(.patch, "v1/places/{id}", signedIn: update),
            Route(.delete, "v1/places/{id}", signedIn: delete),
            Route(.post, "v1/places/{id}/restore", signedIn: restore),
            Route(.put, "v1/places/{id}/favorite", signedIn: favorite),
            Route(.delete, "v1/places/{id}/favorite", signedIn: unfavorite),
            Route(.put, "v1/places/{id}/rating", signedIn: rate),
            Route(.delete, "v1/places/{id}/rating", signedIn: unrate),
        ]
    }
}
