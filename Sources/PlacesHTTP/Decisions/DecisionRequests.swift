import Foundation
import PlacesCore

// Request bodies of /v1/decisions turned into Core's commands: types, unknown fields and required ones are checked
// here, naming the field; the domain's rules (lengths, ranges, who may do what) are DecisionService's.

extension StartDecision: RequestCommand {
    /// The fields `POST /v1/decisions` reads.
    public static let fields: Set<String> = [
        "groupId", "title", "method", "candidates", "participants", "deadline", "visitDate", "visitAt", "weighted",
        "excludeRecentDays", "seed", "scheduled", "swipe",
    ]

    /// The command a `POST /v1/decisions` body asks for.
    public init(body: FieldReader) throws(PlacesError) {
        guard let methodText = try body.rawText("method") else {
            throw .invalid("method", "method is required: random, tiered or manual")
        }
        guard let method = Decision.Method(rawValue: methodText) else {
            throw .invalid("method", "method must be random, tiered or manual")
        }
        guard let source = try body.object("candidates", allowed: ["collectionId", "placeIds", "nearby", "meet"]) else {
            throw .invalid("candidates", "candidates is required: {collectionId}, {placeIds}, {nearby} or {meet}")
        }
        let given = source.fields.filter { $0.value != .null }
        guard given.count == 1 else { throw .invalid("candidates", "give exactly one of collectionId, placeIds, nearby or meet") }
        let candidates: Candidates
        if let collectionID = try source.rawText("collectionId") {
            candidates = .collection(id: collectionID)
        } else if let placeIDs = try source.texts("placeIds", field: "candidates.placeIds", what: "ids") {
            candidates = .places(placeIDs)
        } else if let nearby = try StartDecision.query(source, "nearby", allowed: NearbyCandidates.fields) {
            candidates = .nearby(try NearbyCandidates(body: nearby))
        } else if let meet = try StartDecision.query(source, "meet", allowed: MeetCandidates.fields) {
            candidates = .meet(try MeetCandidates(body: meet))
        } else {
            throw .invalid("candidates", "give exactly one of collectionId, placeIds, nearby or meet")
        }
        self.init(
            method: method,
            candidates: candidates,
            groupId: try body.rawText("groupId"),
            title: try body.rawText("title"),
            participants: try body.texts("participants", field: "participants", what: "usernames"),
            deadline: try body.instant("deadline"),
            visitDate: try body.rawText("visitDate"),
            visitAt: try body.instant("visitAt"),
            weighted: try body.bool("weighted"),
            scheduled: try body.bool("scheduled"),
            excludeRecentDays: try body.wholeNumber("excludeRecentDays"),
            seed: try StartDecision.seed(body),
            swipe: try StartDecision.round(body)
        )
    }

    /// The query object `name` of `candidates`, an unknown field of it named in full (`candidates.meet.radius`).
    static func query(_ source: FieldReader, _ name: String, allowed: Set<String>) throws(PlacesError) -> FieldReader? {
        try PlacesError.within("candidates") { () throws(PlacesError) in try source.object(name, allowed: allowed) }
    }

    /// `swipe`: `{vetoes, minYes, deadline}`, each optional; nil when absent or null.
    static func round(_ body: FieldReader) throws(PlacesError) -> Round? {
        guard let round = try body.object("swipe", allowed: ["vetoes", "minYes", "deadline"]) else { return nil }
        return try PlacesError.within("swipe") { () throws(PlacesError) in
            Round(vetoes: try round.wholeNumber("vetoes"), minYes: try round.wholeNumber("minYes"), deadline: try round.instant("deadline"))
        }
    }

    /// `seed`: a whole number, as JSON's numbers hold them exactly (below 2^53), or a string of digits up to 2^64-1.
    static func seed(_ body: FieldReader) throws(PlacesError) -> UInt64? {
        guard let value = body.fields["seed"], value != .null else { return nil }
        switch value {
        case .text(let text):
            guard let seed = UInt64(text) else { throw .invalid("seed", "seed must be a whole number from 0 to 2^64-1") }
            return seed
        case .number(let number):
            guard number >= 0, number == number.rounded(), number < 9_007_199_254_740_992 else {
                throw .invalid("seed", "a seed above 2^53 must be sent as a string of digits")
            }
            return UInt64(number)
        default:
            throw .invalid("seed", "seed must be a whole number (or a string of digits)")
        }
    }
}

extension StartDecision.NearbyCandidates {
    /// The fields of `candidates.nearby`.
    public static let fields: Set<String> = StartDecision.Filters.fields.union(["lat", "lon", "radius", "limit"])

    /// The query a `candidates.nearby` object asks for.
    public init(body: FieldReader) throws(PlacesError) {
        self = try PlacesError.within("candidates.nearby") { () throws(PlacesError) in
            Self(
                lat: try body.number("lat"),
                lon: try body.number("lon"),
                radiusMiles: try body.number("radius"),
                limit: try body.wholeNumber("limit"),
                filters: try StartDecision.Filters(body: body)
            )
        }
    }
}

extension StartDecision.MeetCandidates {
    /// The fields of `candidates.meet`.
    public static let fields: Set<String> = StartDecision.Filters.fields.union(["at", "fromParticipants", "limit"])

    /// The query a `candidates.meet` object asks for: `at` a list of `{lat, lon}`.
    public init(body: FieldReader) throws(PlacesError) {
        self = try PlacesError.within("candidates.meet") { () throws(PlacesError) in
            Self(at: try Self.origins(body), fromParticipants: try body.bool("fromParticipants"), limit: try body.wholeNumber("limit"), filters: try StartDecision.Filters(body: body))
        }
    }

    /// `at`: each origin an object `{lat, lon}`; nil when absent or null.
    static func origins(_ body: FieldReader) throws(PlacesError) -> [Origin]? {
        guard let value = body.fields["at"], value != .null else { return nil }
        guard case .list(let items) = value else { throw .invalid("at", "at must be a list of {lat, lon}") }
        var origins: [Origin] = []
        for item in items {
            do throws(PlacesError) {
                let point = try FieldReader(item, allowed: ["lat", "lon"])
                origins.append(Origin(lat: try point.number("lat"), lon: try point.number("lon")))
            } catch {
                throw .invalid("at", "each origin must be an object {lat, lon}: \(error.message)")
            }
        }
        return origins
    }
}

extension StartDecision.Filters {
    /// The filter fields of `candidates.nearby` and `candidates.meet`.
    static let fields: Set<String> = ["kind", "tags", "cuisine", "minPrice", "maxPrice", "minRating", "respectNeeds"]

    /// The filters a candidates object gives.
    init(body: FieldReader) throws(PlacesError) {
        self.init(
            kind: try body.rawText("kind"),
            tags: try body.texts("tags", field: "tags", what: "text") ?? [],
            cuisine: try body.rawText("cuisine"),
            minPrice: try body.wholeNumber("minPrice"),
            maxPrice: try body.wholeNumber("maxPrice"),
            minRating: try body.number("minRating"),
            respectNeeds: try body.bool("respectNeeds")
        )
    }
}

extension CastBallot: RequestCommand {
    /// The fields `PUT /v1/decisions/{id}/ballot` reads.
    public static let fields: Set<String> = ["ranking"]

    /// The ballot a body casts.
    public init(body: FieldReader) throws(PlacesError) {
        guard let ranking = try body.texts("ranking", field: "ranking", what: "place ids") else {
            throw .invalid("ranking", "ranking is required: candidate place ids, best first")
        }
        self.init(ranking: ranking)
    }
}

extension SwipeAnswers: RequestCommand {
    /// The fields `PUT /v1/decisions/{id}/swipes` reads.
    public static let fields: Set<String> = ["answers"]

    /// The answers a body gives: `{"answers": [{"placeId", "answer"}, …]}`, at least one.
    public init(body: FieldReader) throws(PlacesError) {
        guard let value = body.fields["answers"], value != .null else {
            throw .invalid("answers", "answers is required: [{\"placeId\": …, \"answer\": \"yes\" | \"no\" | \"veto\"}, …]")
        }
        guard case .list(let items) = value, !items.isEmpty else { throw .invalid("answers", "answers must be a list of at least one answer") }
        var answers: [(placeId: String, answer: SwipeAnswer)] = []
        for item in items {
            let entry: FieldReader
            do {
                entry = try FieldReader(item, allowed: ["placeId", "answer"])
            } catch {
                throw .invalid("answers", "each answer must be an object {placeId, answer}: \(error.message)")
            }
            guard let placeID = try entry.rawText("placeId") else { throw .invalid("answers", "each answer needs its placeId") }
            answers.append((placeID, try SwipeAnswers.answer(entry)))
        }
        self.init(answers: answers)
    }

    /// The answer of `{"answer": "yes" | "no" | "veto"}`.
    static func answer(_ body: FieldReader) throws(PlacesError) -> SwipeAnswer {
        guard let text = try body.rawText("answer") else { throw .invalid("answer", "answer is required: yes, no or veto") }
        guard let answer = SwipeAnswer(rawValue: text) else { throw .invalid("answer", "answer must be yes, no or veto") }
        return answer
    }
}
