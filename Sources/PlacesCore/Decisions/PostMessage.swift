/// A message to post in a decision's conversation, as the request gave it (Core checks the text).
@PublicInit
public struct PostMessage: Sendable, Hashable {
    /// The text: 1 to 500 characters, with a title's rules (no control characters, nothing that reorders or hides
    /// text), trimmed.
    public var text: String?
}
