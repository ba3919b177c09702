/// The `id:` of a live stream's event: an opaque string to clients, a position of the change feed to the server, with
/// the database's generation, so that an id from a database since replaced is known for what it is.
public struct EventID: Sendable, Hashable, CustomStringConvertible {
    /// The first characters of the database's generation.
    public var generation: String
    /// Where the event is in the feed.
    public var position: FeedPosition
    /// True for a decision's `ended` event, the last a decision's stream writes: a client resuming from it has seen
    /// everything there is.
    public var final: Bool

    /// The id of the event at `position` of the database with `generation`.
    public init(_ position: FeedPosition, generation: String, final: Bool = false) {
        self.generation = EventID.tag(generation)
        self.position = position
        self.final = final
    }

    /// The longest `Last-Event-ID` read (the document's bound; the server's ids are far shorter).
    public static let maximumLength = 100

    /// Reads an id a client sends back in `Last-Event-ID`: letters and digits (the generation), a dash, digits, a dash,
    /// digits, and `-end` on the last id of a decision's stream. `invalid_input` naming the header when it is not in
    /// that form. A number past the largest position reads as that position: ahead of any feed, which a stream answers
    /// with a snapshot, and nothing adds to it.
    public init(parsing text: String) throws(PlacesError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count <= EventID.maximumLength, parts.count == 3 || (parts.count == 4 && parts[3] == "end"),
            let transaction = EventID.number(parts[1]), let row = EventID.number(parts[2]),
            parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }), !parts[0].isEmpty
        else {
            throw PlacesError.invalid("Last-Event-ID", "Last-Event-ID is not the id of an event of this stream; connect without it")
        }
        generation = String(parts[0])
        position = FeedPosition(transaction: transaction, row: row)
        final = parts.count == 4
    }

    /// A position's number: ASCII digits only (no sign, no space), Int64.max for any past it; nil when not digits.
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int64(text) ?? Int64.max
    }

    /// True when the id was made by the database of `generation`.
    public func isOf(generation other: String) -> Bool {
        generation == EventID.tag(other)
    }

    public var description: String { "\(generation)-\(position.transaction)-\(position.row)" + (final ? "-end" : "") }

    /// Up to eight letters and digits of a generation (a generation is random: eight of them tell two apart).
    static func tag(_ generation: String) -> String {
        let tag = String(generation.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(8)).lowercased()
        return tag.isEmpty ? "0" : tag
    }
}
