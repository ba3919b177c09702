import Hummingbird
import PlacesCore

/// `/v1/decisions`: starting a decision, ballots, ending it, and recounting its result.
struct DecisionController: Sendable {
    let decisions: DecisionService

    /// `POST /v1/decisions` → 201; a random decision that is not scheduled comes back drawn.
    @Sendable func create(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let view = try await decisions.create(caller.user, try await StartDecision(request, context: context))
        return try JSONResponse.created(view, at: "/v1/decisions/\(view.id)")
    }

    /// `PUT /v1/decisions/{id}/ballot {ranking}` (participants): casts or replaces the caller's ballot.
    @Sendable func vote(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let ballot = try await CastBallot(request, context: context)
        return try JSONResponse.make(try await decisions.vote(caller.user, id: try context.pathText("id"), ballot))
    }

    /// `POST /v1/decisions/{id}/pick {placeId}` (admins, manual decisions).
    @Sendable func pick(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let body = try await RequestBody.object(request, context: context, allowed: ["placeId"])
        return try JSONResponse.make(try await decisions.pick(caller.user, id: try context.pathText("id"), placeID: try body.rawText("placeId")))
    }
}
