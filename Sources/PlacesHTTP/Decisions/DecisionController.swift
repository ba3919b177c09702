import Hummingbird
import PlacesCore

/// `/v1/decisions`: starting a decision, ballots, ending it, and recounting its result.
struct DecisionController: Sendable {
    let decisions: DecisionService

    func addRoutes(to v1: RouterGroup<PlacesRequestContext>) {
        v1.post("decisions", use: create)
        v1.readOnly("decisions", use: list)
        v1.readOnly("decisions/{id}", use: decision)
        v1.put("decisions/{id}/ballot", use: vote)
        v1.post("decisions/{id}/close", use: close)
        v1.post("decisions/{id}/cancel", use: cancel)
        v1.post("decisions/{id}/pick", use: pick)
        v1.readOnly("decisions/{id}/recount", use: recount)
    }

    /// `POST /v1/decisions` → 201; a random decision that is not scheduled comes back drawn.
    @Sendable func create(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: StartDecision.fields)
        let view = try await decisions.create(caller.user, try StartDecision(body: body))
        var response = try JSONResponse.make(view, status: .created)
        response.headers[.location] = "/v1/decisions/\(view.id)"
        return response
    }

    /// `GET /v1/decisions`: those the caller takes part in, started, or whose group they belong to.
    @Sendable func list(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONResponse.make(try await decisions.list(caller.user, page: try PageRequest(request)))
    }

    /// `GET /v1/decisions/{id}`
    @Sendable func decision(request: Request, context: PlacesRequestContext) async throws -> Response {
        try JSONResponse.make(try await decisions.view(try context.requireCaller().user, id: try context.pathText("id")))
    }

    /// `PUT /v1/decisions/{id}/ballot {ranking}` (participants): casts or replaces the caller's ballot.
    @Sendable func vote(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: CastBallot.fields)
        return try JSONResponse.make(try await decisions.vote(caller.user, id: try context.pathText("id"), try CastBallot(body: body)))
    }

    /// `POST /v1/decisions/{id}/close` (admins): count now, or draw a scheduled random decision.
    @Sendable func close(request: Request, context: PlacesRequestContext) async throws -> Response {
        try JSONResponse.make(try await decisions.close(try context.requireCaller().user, id: try context.pathText("id")))
    }

    /// `POST /v1/decisions/{id}/cancel` (admins): end without a result.
    @Sendable func cancel(request: Request, context: PlacesRequestContext) async throws -> Response {
        try JSONResponse.make(try await decisions.cancel(try context.requireCaller().user, id: try context.pathText("id")))
    }

    /// `POST /v1/decisions/{id}/pick {placeId}` (admins, manual decisions).
    @Sendable func pick(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: ["placeId"])
        return try JSONResponse.make(try await decisions.pick(caller.user, id: try context.pathText("id"), placeID: try body.rawText("placeId")))
    }

    /// `GET /v1/decisions/{id}/recount`: the result recomputed from the stored ballots and seed.
    @Sendable func recount(request: Request, context: PlacesRequestContext) async throws -> Response {
        try JSONResponse.make(try await decisions.recount(try context.requireCaller().user, id: try context.pathText("id")))
    }
}
