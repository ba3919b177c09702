/// A decision as one stream's reader sees it, with its JSON. The streams of one delivery share the JSON of what every
/// reader of a kind sees alike (the kinds: whether they may see the count, and whether they are shown the count so
/// far), encoded once; only what is the reader's own (their ballot, their answers in the swipe round) is encoded for
/// each reader and spliced in. A ballot followed by fifty streams encodes the decision twice, not fifty times.
struct ReaderDecision: Sendable {
    /// The view, for what the events name (the people who voted or answered).
    var view: DecisionView
    /// `view` as JSON, as `PlacesJSON`'s encoder writes it.
    var json: [UInt8]

    /// What is the reader's own in a view: left out of the shared part, and spliced into it for each reader.
    private struct OwnPart: Encodable {
        struct OwnRound: Encodable {
            var mySwipes: [String: SwipeAnswer]?
            var vetoesLeft: Int?
        }
        var myBallot: [String]?
        var swipe: OwnRound?

        init(_ view: DecisionView) {
            myBallot = view.myBallot
            swipe = view.swipe.map { OwnRound(mySwipes: $0.mySwipes, vetoesLeft: $0.vetoesLeft) }
        }

        /// `view` without its reader's own part: the same for every reader of its kind.
        static func removed(from view: DecisionView) -> DecisionView {
            var shared = view
            shared.myBallot = nil
            shared.swipe?.mySwipes = nil
            shared.swipe?.vetoesLeft = nil
            return shared
        }
    }

    /// `view` with its JSON encoded whole.
    init(_ view: DecisionView) throws {
        self.view = view
        json = Array(try PlacesJSON.makeEncoder().encode(view))
    }

    /// `view` with its JSON made from the part its kind of reader shares in `reads` (encoded by the first reader of
    /// the kind) and its own part.
    init(_ view: DecisionView, sharing reads: SharedReads) async throws {
        self.view = view
        let kind = "decision JSON, tally \(view.tallyVisible ? "visible" : "hidden"), \(view.provisional == nil ? "final or none" : "provisional")"
        let shared = try await reads.value(kind) { Array(try PlacesJSON.makeEncoder().encode(OwnPart.removed(from: view))) }
        let own = try PlacesJSON.makeEncoder().encode(OwnPart(view))
        json = try SortedJSONObject.merge(shared[...], Array(own)[...])
        assert(json == (try? ReaderDecision(view).json), "the spliced view differs from the view encoded whole")
    }

    /// The data of an event about the decision: `{"decision": <the view>, …facts}`, as encoding them together would
    /// (every key of the facts sorts after `decision`, so they follow the view as they are).
    func eventData(_ facts: DecisionEvent) throws -> String {
        let encodedFacts = try PlacesJSON.makeEncoder().encode(facts)
        var data = Array(#"{"decision":"#.utf8)
        data.reserveCapacity(data.count + json.count + encodedFacts.count)
        data.append(contentsOf: json)
        // The facts' members after the view's, or the object's end when there are none (`{}`).
        if encodedFacts.count > 2 { data.append(UInt8(ascii: ",")) }
        data.append(contentsOf: encodedFacts.dropFirst())
        return String(decoding: data, as: UTF8.self)
    }
}

/// The data of a decision stream's event, but the decision itself (`ReaderDecision.eventData` adds it).
struct DecisionEvent: Encodable {
    /// The decision's version after the save the event tells of.
    var version: Int64?
    /// Who cast, changed or withdrew a ballot (a `ballot` event).
    var voter: PublicUser?
    /// Who gave, changed or withdrew answers in the swipe round (a `swipe` event): never what, never which place.
    var swiper: PublicUser?
}
