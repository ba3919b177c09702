import Hummingbird
import PlacesCore

/// `/v1/decisions/{id}/messages`: a decision's conversation, for its participants and its starter.
struct ConversationController: Sendable {
    let conversations: ConversationService

    /// `GET /v1/decisions/{id}/messages?limit&cursor`: a page of its messages, newest first.
    @Sendable func list(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let page = try PageRequest(context.query)
        return try JSONResponse.make(try await conversations.messages(caller.user, decisionID: try context.pathText("id"), page: page))
    }

    /// `POST /v1/decisions/{id}/messages {text}`: 201 with the message (while the decision is active).
    @Sendable func post(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let command = try await PostMessage(request, context: context)
        let message = try await conversations.post(caller.user, decisionID: try context.pathText("id"), command)
        return try JSONResponse.make(message, status: .created)
    }
}

extension ConversationController {
    /// The routes of a decision's conversation.
    var routes: [Route] {
        [
            Route(.get, "v1/decisions/{id}/messages", query: .page, signedIn: list),
            Route(.post, "v1/decisions/{id}/messages", signedIn: post),
        ]
    }
}

extension PostMessage: RequestCommand {
    /// The fields `POST /v1/decisions/{id}/messages` reads.
    public static let fields: Set<String> = ["text"]

    /// The message a body gives: `{"text": …}`.
    public init(body: FieldReader) throws(PlacesError) {
        self.init(text: try body.rawText("text"))
    }
}
