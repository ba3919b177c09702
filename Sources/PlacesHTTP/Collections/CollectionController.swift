import GeoIndex
import Hummingbird
import PlacesCore

/// The `/v1/collections` handlers that read more than a body or a path (`Route.all` answers the rest generically):
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
