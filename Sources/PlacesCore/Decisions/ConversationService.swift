import Foundation

/// A decision's conversation: its participants and its starter post messages on the decision while it is active, and
/// read them at any time. Nobody else sees them, in an answer or on a stream.
public struct ConversationService: Sendable {
    /// The longest message, in characters.
    public static let maximumLength = 500

    let repository: any MessageRepository
    let decisions: DecisionService
    let limits: UsageLimits
    let clock: @Sendable () -> Date

    /// A conversation service over `repository`, reading decisions through `decisions`.
    public init(repository: any MessageRepository, decisions: DecisionService, limits: UsageLimits, clock: @escaping @Sendable () -> Date) {
        self.repository = repository
        self.decisions = decisions
        self.limits = limits
        self.clock = clock
    }

    /// Posts a message: `forbidden` unless the caller talks in the decision, 409 `conflict` once it ended, 429
    /// `too_many_attempts` (with the seconds to wait) past `limits.messagesPerMinute` in a minute.
    public func post(_ caller: User, decisionID: String, _ command: PostMessage) async throws -> DecisionMessage {
        guard let text = try TextRules.shownName(command.text, field: "text", limit: ConversationService.maximumLength) else {
            throw PlacesError.invalid("text", "text is required: 1 to \(ConversationService.maximumLength) characters")
        }
        let state = try await talking(caller, decisionID: decisionID)
        guard state.decision.status == .active else { throw ConversationService.ended(state.decision.status) }
        let now = clock()
        let message = NewMessage(id: RandomID.make("m-"), decisionId: decisionID, authorId: caller.id, text: text, createdAt: now)
        let window = RateWindow(allowed: limits.messagesPerMinute, per: 60)
        switch try await repository.insert(message, limit: window.limit(at: now)) {
        case .stored:
            return DecisionMessage(id: message.id, decisionId: decisionID, author: PublicUser(caller), text: text, createdAt: now)
        case .decisionEnded:
            throw ConversationService.ended(nil)
        case .tooMany(let oldestCounted):
            throw window.refusal(now: now, oldestCounted: oldestCounted) { seconds in
                "you posted \(limits.messagesPerMinute) messages in the last minute; try again in \(seconds) seconds"
            }
        }
    }

    /// A page of the decision's messages, newest first, but those of people the caller blocks: `forbidden` unless the
    /// caller talks in the decision.
    public func messages(_ caller: User, decisionID: String, page: PageRequest) async throws -> Page<DecisionMessage> {
        _ = try await talking(caller, decisionID: decisionID)
        return try await repository.messages(decisionID: decisionID, readerID: caller.id, page: page)
    }

    /// The messages with these ids of a decision read already (the reader may read it), for a stream of it, but those
    /// of people the reader blocks: none when the reader does not talk in it.
    func messages(_ reader: User, of state: DecisionState, ids: [String]) async throws -> [DecisionMessage] {
        guard !ids.isEmpty, ConversationService.talks(reader.id, in: state) else { return [] }
        return try await repository.messages(ids: ids, decisionID: state.decision.id, readerID: reader.id)
    }

    /// True when the person talks in the decision: a participant (still a member of its group) or its starter.
    public static func talks(_ userID: String, in state: DecisionState) -> Bool {
        let decision = state.decision
        return decision.createdBy == userID || (decision.participants.contains(userID) && !state.formerMembers.contains(userID))
    }

    /// The decision, when the caller may read it and talks in it.
    private func talking(_ caller: User, decisionID: String) async throws -> DecisionState {
        let state = try await decisions.readable(caller, decisions.existing(decisionID))
        guard ConversationService.talks(caller.id, in: state) else {
            throw PlacesError.forbidden("only the decision's participants and its starter take part in its conversation")
        }
        return state
    }

    private static func ended(_ status: Decision.Status?) -> PlacesError {
        let how = status.map { " (it is \($0.rawValue))" } ?? ""
        return PlacesError(.conflict, "the decision has ended\(how): its conversation can be read, not added to")
    }
}
