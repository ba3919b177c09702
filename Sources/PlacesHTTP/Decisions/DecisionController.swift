import Hummingbird
import PlacesCore

/// The `/v1/decisions` handlers that read more than a body or a path (the generic `Route`s of `routes` answer the rest):
/// picking the place of a manual decision, and one answer in a swipe round.
struct DecisionController: Sendable {
    let decisions: DecisionService

    /// `POST /v1/decisions/{id}/pick {placeId}` (admins, manual decisions).
    @Sendable func pick(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let body = try await RequestBody.object(request, context: context, allowed: ["placeId"])
        return try JSONResponse.make(try await decisions.pick(caller.user, id: try context.pathText("id"), placeID: try body.rawText("placeId")))
    }

    /// `PUT /v1/decisions/{id}/swipes/{placeId} {answer}` (participants, while the round is open).
    @Sendable func swipe(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let body = try await RequestBody.object(request, context: context, allowed: ["answer"])
        let answer = try SwipeAnswers.answer(body)
        return try JSONResponse.make(
            try await decisions.swipe(caller.user, id: try context.pathText("id"), placeID: try context.pathText("placeId"), answer: answer)
        )
    }
}

extension DecisionController {
    /// The routes of /v1/decisions, in the order their paths' `Allow` headers name their methods.
    var routes: [Route] {
        [
            Route(.get, "v1/decisions", list: decisions.list),
            Route(.post, "v1/decisions", create: decisions.create),
            Route(.get, "v1/decisions/{id}", answer: decisions.view),
            Route(.put, "v1/decisions/{id}/swipes", change: decisions.swipe),
            Route(.put, "v1/decisions/{id}/swipes/{placeId}", signedIn: swipe),
            Route(.put, "v1/decisions/{id}/ballot", change: decisions.vote),
            Route(.post, "v1/decisions/{id}/close", answer: decisions.close),
            Route(.post, "v1/decisions/{id}/cancel", answer: decisions.cancel),
            Route(.post, "v1/decisions/{id}/pick", signedIn: pick),
            Route(.get, "v1/decisions/{id}/recount", answer: decisions.recount),
        ]
    }
}
