/// The offline tally file `places tally` reads: candidates, ballots, (for a random draw) weights, and a swipe round.
///
/// `{"candidates": ["id", ...], "ballots": [["id", ...], ...], "weights": {"id": number}}`: ids are non-empty
/// strings, unique among the candidates; each ballot is a ranking, best first, of some or all candidates, none
/// twice; `ballots` may be left out (a random draw ignores them) and `weights`, for a random draw only, gives every
/// candidate a number greater than 0. `round`, when given, is a swipe round counted first:
/// `{"vetoes": 0–10, "minYes": n or absent, "swipes": [{"yes": [...], "no": [...], "veto": [...]}, ...]}`, one entry
/// per participant (an id in at most one of an entry's lists); the method then runs on its survivors. Every mistake is
/// an `invalid_input` error naming where it is.
public struct TallyFile: Sendable, Hashable {
    /// The candidate ids, as listed.
    public var candidates: [String]
    /// The ballots, each a ranking best first.
    public var ballots: [[String]]
    /// Weights by id for a random draw; nil when the file gives none.
    public var weights: [String: Double]?
    /// The swipe round counted before the method; nil when the file gives none.
    public var round: SwipeTally?

    /// Parses and checks a tally file's bytes.
    public static func parse(_ bytes: [UInt8]) throws(PlacesError) -> TallyFile {
        guard !bytes.isEmpty else { throw .invalid("file", "the tally file is empty; expected a JSON object") }
        let value: FieldValue
        do {
            value = try JSONText.parse(bytes: bytes)
        } catch {
            throw .invalid("file", "the tally file is not valid JSON: \(error)")
        }
        guard case .object(let fields) = value else {
            throw .invalid("file", #"the tally file must be a JSON object: {"candidates": [...], "ballots": [[...], ...]}"#)
        }
        let allowed = ["ballots", "candidates", "round", "weights"]
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .invalid(unknown, "unknown field \(PlacesError.quoted(unknown)); expected one of: \(allowed.joined(separator: ", "))")
        }

        guard let candidateValue = fields["candidates"], candidateValue != .null else {
            throw .invalid("candidates", "the tally file has no candidates; give \"candidates\": [\"id\", ...]")
        }
        guard case .list(let candidateList) = candidateValue else { throw .invalid("candidates", "candidates must be a list of ids") }
        guard !candidateList.isEmpty else { throw .invalid("candidates", "candidates is empty; a tally needs at least one") }
        var candidates: [String] = []
        var known: Set<String> = []
        for (index, item) in candidateList.enumerated() {
            let id = try identifier(item, at: "candidates[\(index)]", field: "candidates")
            guard known.insert(id).inserted else {
                throw .invalid("candidates", "candidate \(PlacesError.quoted(id)) is listed twice (again at candidates[\(index)])")
            }
            candidates.append(id)
        }

        var ballots: [[String]] = []
        switch fields["ballots"] {
        case nil, .null?:
            break
        case .list(let ballotList)?:
            for (number, ballotValue) in ballotList.enumerated() {
                guard case .list(let items) = ballotValue else {
                    throw .invalid("ballots", "ballots[\(number)] must be a list of ids, best first")
                }
                var ballot: [String] = []
                var seen: Set<String> = []
                for (position, item) in items.enumerated() {
                    let id = try identifier(item, at: "ballots[\(number)][\(position)]", field: "ballots")
                    guard known.contains(id) else {
                        throw .invalid("ballots", "ballots[\(number)] names \(PlacesError.quoted(id)), which is not a candidate")
                    }
                    guard seen.insert(id).inserted else {
                        throw .invalid("ballots", "ballots[\(number)] names \(PlacesError.quoted(id)) more than once")
                    }
                    ballot.append(id)
                }
                ballots.append(ballot)
            }
        case _?:
            throw .invalid("ballots", "ballots must be a list of rankings, each a list of ids")
        }

        var weights: [String: Double]?
        switch fields["weights"] {
        case nil, .null?:
            break
        case .object(let entries)?:
            var parsed: [String: Double] = [:]
            for id in CandidateOrder.sorted(entries.keys) {
                guard known.contains(id) else { throw .invalid("weights", "weight for \(PlacesError.quoted(id)), which is not a candidate") }
                guard case .number(let weight)? = entries[id], weight.isFinite else {
                    throw .invalid("weights", "the weight of \(PlacesError.quoted(id)) must be a number")
                }
                guard weight > 0 else { throw .invalid("weights", "the weight of \(PlacesError.quoted(id)) must be greater than 0") }
                parsed[id] = weight
            }
            weights = parsed
        case _?:
            throw .invalid("weights", "weights must be an object of numbers by candidate id")
        }
        let round = try fields["round"].flatMap { value throws(PlacesError) in try TallyFile.round(value, candidates: candidates) }
        return TallyFile(candidates: candidates, ballots: ballots, weights: weights, round: round)
    }

    /// The swipe round of `value`, checked: nil when it is null.
    private static func round(_ value: FieldValue, candidates: [String]) throws(PlacesError) -> SwipeTally? {
        if value == .null { return nil }
        guard case .object(let fields) = value else { throw .invalid("round", #"round must be an object: {"vetoes": 1, "swipes": [...]}"#) }
        if let unknown = fields.keys.sorted().first(where: { !["minYes", "swipes", "vetoes"].contains($0) }) {
            throw .invalid("round.\(unknown)", "unknown field \(PlacesError.quoted(unknown)) in round; expected vetoes, minYes, swipes")
        }
        func whole(_ name: String) throws(PlacesError) -> Int? {
            guard let value = fields[name], value != .null else { return nil }
            guard case .number(let number) = value, number == number.rounded(), abs(number) < 1e9 else {
                throw .invalid("round.\(name)", "round.\(name) must be a whole number")
            }
            return Int(number)
        }
        guard case .list(let entries)? = fields["swipes"] else {
            throw .invalid("round.swipes", #"round.swipes must be a list, one entry per participant: {"yes": [...], "no": [...], "veto": [...]}"#)
        }
        var answers: [[String: SwipeAnswer]] = []
        for (number, entry) in entries.enumerated() {
            guard case .object(let lists) = entry else { throw .invalid("round.swipes", "swipes[\(number)] must be an object of yes, no and veto lists") }
            var given: [String: SwipeAnswer] = [:]
            for (name, listed) in lists.sorted(by: { $0.key < $1.key }) {
                guard let answer = SwipeAnswer(rawValue: name) else {
                    throw .invalid("round.swipes", "swipes[\(number)] has \(PlacesError.quoted(name)); expected yes, no and veto")
                }
                guard case .list(let items) = listed else { throw .invalid("round.swipes", "swipes[\(number)].\(name) must be a list of ids") }
                for (position, item) in items.enumerated() {
                    let id = try identifier(item, at: "swipes[\(number)].\(name)[\(position)]", field: "round.swipes")
                    guard given.updateValue(answer, forKey: id) == nil else {
                        throw .invalid("round.swipes", "swipes[\(number)] answers \(PlacesError.quoted(id)) more than once")
                    }
                }
            }
            answers.append(given)
        }
        let round = SwipeTally(candidates: candidates, vetoes: try whole("vetoes") ?? SwipeRule.defaultVetoes, minYes: try whole("minYes"), answers: answers)
        try round.check(field: "round")
        return round
    }

    /// The string `value` at `path`, non-empty.
    private static func identifier(_ value: FieldValue, at path: String, field: String) throws(PlacesError) -> String {
        guard case .text(let id) = value else { throw .invalid(field, "\(path) must be a place id (a string)") }
        guard !id.isEmpty else { throw .invalid(field, "\(path) is an empty id") }
        return id
    }
}
