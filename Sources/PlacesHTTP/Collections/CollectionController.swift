import GeoIndex
import Hummingbird
import PlacesCore

/// `/v1/collections`: personal and group collections of places, kept in the order people give them.
struct CollectionController: Sendable {
    let collections: CollectionService

    func addRoutes(to v1: RouterGroup<PlacesRequestContext>) {
        v1.post("collections", use: create)
        v1.readOnly("collections", use: list)
        v1.readOnly("collections/{id}", use: detail)
        v1.patch("collections/{id}", use: update)
        v1.delete("collections/{id}", use: delete)
        v1.post("collections/{id}/places", use: add)
        v1.delete("collections/{id}/places/{placeId}", use: remove)
        v1.put("collections/{id}/order", use: reorder)
    }

    /// `POST /v1/collections {name, description?, groupId?}` → 201.
    @Sendable func create(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: NewCollection.fields)
        let collection = try await collections.create(caller.user, try NewCollection(body: body))
        var response = try JSONResponse.make(collection, status: .created)
        response.headers[.location] = "/v1/collections/\(collection.id)"
        return response
    }

    /// `GET /v1/collections`: the caller's own and their groups'.
    @Sendable func list(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONResponse.make(try await collections.list(caller.user, page: try PageRequest(request)))
    }

    /// `GET /v1/collections/{id}?lat=&lon=`: the places in order, with distances when a location is given.
    @Sendable func detail(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let parameters = try QueryParameters(request.uri.query)
        var center: Coordinate?
        if parameters["lat"] != nil || parameters["lon"] != nil {
            center = try NearbyQuery.parse(lat: parameters["lat"], lon: parameters["lon"], limit: nil, filter: PlaceFilter()).center
        }
        return try JSONResponse.make(try await collections.detail(caller.user, id: try context.pathText("id"), center: center))
    }

    /// `PATCH /v1/collections/{id} {name?, description?}` (owner; group admins).
    @Sendable func update(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: NewCollection.fields)
        return try JSONResponse.make(try await collections.update(caller.user, id: try context.pathText("id"), try CollectionPatch(body: body)))
    }

    /// `DELETE /v1/collections/{id}` (owner; group admins) → 204.
    @Sendable func delete(request: Request, context: PlacesRequestContext) async throws -> Response {
        try await collections.delete(try context.requireCaller().user, id: try context.pathText("id"))
        return Response(status: .noContent)
    }

    /// `POST /v1/collections/{id}/places {placeId, position?}` → the collection.
    @Sendable func add(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: CollectionAddition.fields)
        return try JSONResponse.make(try await collections.add(caller.user, id: try context.pathText("id"), try CollectionAddition(body: body)))
    }

    /// `DELETE /v1/collections/{id}/places/{placeId}` → 204.
    @Sendable func remove(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        try await collections.remove(caller.user, id: try context.pathText("id"), placeID: try context.pathText("placeId"))
        return Response(status: .noContent)
    }

    /// `PUT /v1/collections/{id}/order {placeIds}` → the collection in its new order.
    @Sendable func reorder(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: ["placeIds"])
        let order = try body.texts("placeIds", field: "placeIds", what: "the collection's place ids in the new order")
        guard let order else { throw PlacesError.invalid("placeIds", "placeIds must be a list of the collection's place ids in the new order") }
        return try JSONResponse.make(try await collections.reorder(caller.user, id: try context.pathText("id"), placeIDs: order))
    }
}
