import GeoIndex
import Hummingbird
import PlacesCore

/// The `/v1/collections` handlers that read more than a body or a path (the generic `Route`s of `routes` answer the rest):
/// a collection with distances, removing a place, and a new order.
struct CollectionController: Sendable {
    let collections: CollectionService

    /// `GET /v1/collections/{id}?lat=&lon=`: the places in order, with distances when a location is given.
    @Sendable func detail(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let parameters = context.query
        var center: Coordinate?
        if parameters["lat"] != nil || parameters["lon"] != nil {
            center = try NearbyQuery.parse(lat: parameters["lat"], lon: parameters["lon"], limit: nil, filter: PlaceFilter()).center
        }
        return try JSONResponse.make(try await collections.detail(caller.user, id: try context.pathText("id"), center: center))
    }

    /// `DELETE /v1/collections/{id}/places/{placeId}` → 204.
    @Sendable func remove(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try await collections.remove(caller.user, id: try context.pathText("id"), placeID: try context.pathText("placeId"))
        return Response(status: .noContent)
    }

    /// `PUT /v1/collections/{id}/order {placeIds}` → the collection in its new order.
    @Sendable func reorder(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let body = try await RequestBody.object(request, context: context, allowed: ["placeIds"])
        let order = try body.texts("placeIds", field: "placeIds", what: "the collection's place ids in the new order")
        guard let order else { throw PlacesError.invalid("placeIds", "placeIds must be a list of the collection's place ids in the new order") }
        return try JSONResponse.make(try await collections.reorder(caller.user, id: try context.pathText("id"), placeIDs: order))
    }
}

extension CollectionController {
    /// The routes of /v1/collections, in the order their paths' `Allow` headers name their methods.
    var routes: [Route] {
        [
            Route(.get, "v1/collections", list: collections.list),
            Route(.post, "v1/collections", create: collections.create),
            Route(.get, "v1/collections/{id}", query: ["lat", "lon"], signedIn: detail),
            Route(.patch, "v1/collections/{id}", change: collections.update),
            Route(.delete, "v1/collections/{id}", act: collections.delete),
            Route(.post, "v1/collections/{id}/places", change: collections.add),
            Route(.delete, "v1/collections/{id}/places/{placeId}", signedIn: remove),
            Route(.put, "v1/collections/{id}/order", signedIn: reorder),
        ]
    }
}
