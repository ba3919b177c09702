import Hummingbird
import PlacesCore

/// The `/v1/decisions` handler that reads more than a body or a path (`Route.all` answers the rest generically):
/// picking the place of a manual decision.
struct DecisionController: Sendable {
    let decisions: DecisionService

    /// `POST /v1/decisions/{id}/pick {placeId}` (admins, manual decisions).
    @Sendable func pick(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let body = try await RequestBody.object(request, context: context, allowed: ["placeId"])
        return try JSONResponse.make(try await decisions.pick(caller.user, id: try context.pathText("id"), placeID: try body.rawText("placeId")))
    }
}
