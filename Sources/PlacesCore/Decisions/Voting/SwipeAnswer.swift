/// One participant's answer on one candidate in a swipe round.
public enum SwipeAnswer: String, Sendable, Hashable, Codable, CaseIterable {
    /// They would go.
    case yes
    /// They would rather not.
    case no
    /// Not this place: one veto removes it, whatever the others say.
    case veto
}
