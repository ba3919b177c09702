/// A swipe round counted: the one rule that the server (when a round ends, and in a recount) and `places tally` both
/// apply.
///
/// Each participant answers some or all candidates yes, no or veto, and casts at most `vetoes` vetoes. A candidate
/// survives when nobody vetoed it, at least one participant said yes, more said yes than no, and (when `minYes` is
/// set) at least `minYes` said yes. A candidate nobody answered does not survive. A removed candidate's reason is the
/// first that holds of: vetoed, unanswered, too few yes.
public struct SwipeTally: Sendable, Hashable {
    /// The candidates in ascending id order (UTF-8 byte order).
    public let candidates: [String]
    /// The vetoes each participant may cast.
    public let vetoes: Int
    /// The fewest `yes` a survivor needs, when set.
    public let minYes: Int?
    /// One entry per participant: their answers by candidate id.
    public let answers: [[String: SwipeAnswer]]

    /// A round over `candidates` with these answers. Counting trusts them (the server checked each as it came, and
    /// participants may have left since, below `minYes`); `check` is for answers from elsewhere, a tally file's.
    public init(candidates: [String], vetoes: Int, minYes: Int?, answers: [[String: SwipeAnswer]]) {
        self.candidates = CandidateOrder.sorted(candidates)
        self.vetoes = vetoes
        self.minYes = minYes
        self.answers = answers
    }

    /// Checks answers from outside the server: the rule's ranges, answers that name candidates only, and nobody
    /// casting more vetoes than allowed; `invalid_input` naming where, as `field` (a tally file's `round`).
    public func check(field: String) throws(PlacesError) {
        guard (0...SwipeRule.maximumVetoes).contains(vetoes) else {
            throw .invalid("\(field).vetoes", "vetoes must be a whole number from 0 to \(SwipeRule.maximumVetoes)")
        }
        if let minYes, !(1...max(1, answers.count)).contains(minYes) {
            throw .invalid("\(field).minYes", "minYes must be from 1 to the number of participants (\(answers.count))")
        }
        let known = Set(candidates)
        for (number, given) in answers.enumerated() {
            if let unknown = given.keys.sorted().first(where: { !known.contains($0) }) {
                throw .invalid("\(field).swipes", "swipes[\(number)] names \(PlacesError.quoted(unknown)), which is not a candidate")
            }
            let cast = given.values.filter { $0 == .veto }.count
            guard cast <= vetoes else {
                throw .invalid("\(field).swipes", "swipes[\(number)] casts \(cast) vetoes; each participant may cast \(vetoes)")
            }
        }
    }

    /// The round's result: survivors, counts and reasons, and a paragraph naming places by `names` (by id without).
    public func result(names: [String: String] = [:]) -> RoundResult {
        var counts: [RoundResult.Count] = []
        for id in candidates {
            let given = answers.compactMap { $0[id] }
            let yes = given.filter { $0 == .yes }.count
            let no = given.filter { $0 == .no }.count
            let veto = given.filter { $0 == .veto }.count
            let reason: RoundResult.Reason? =
                if veto > 0 { .vetoed }
                else if given.isEmpty { .unanswered }
                else if yes == 0 || yes <= no || yes < (minYes ?? 0) { .tooFewYes }
                else { nil }
            counts.append(RoundResult.Count(placeId: id, name: names[id], yes: yes, no: no, veto: veto, removedFor: reason))
        }
        let survivors = counts.filter { $0.removedFor == nil }.map(\.placeId)
        return RoundResult(
            survivors: survivors,
            counts: counts,
            vetoes: vetoes,
            minYes: minYes,
            participants: answers.count,
            reasoning: reasoning(counts, survivors: survivors.count, names: names)
        )
    }

    private func reasoning(_ counts: [RoundResult.Count], survivors: Int, names: [String: String]) -> String {
        let rule = [
            "\(vetoes) \(vetoes == 1 ? "veto" : "vetoes") each",
            minYes.map { "at least \($0) yes to stay" },
        ].compactMap { $0 }.joined(separator: ", ")
        let people = "\(answers.count) \(answers.count == 1 ? "participant" : "participants")"
        let kept = survivors == 0 ? "kept none" : "kept \(survivors)"
        var text = "The swipe round (\(people); \(rule)) \(kept) of \(candidates.count) candidates."
        let removed = counts.compactMap { count -> String? in
            let name = count.name ?? names[count.placeId] ?? count.placeId
            switch count.removedFor {
            case nil: return nil
            case .vetoed?: return "\(name) was vetoed"
            case .unanswered?: return "nobody answered \(name)"
            case .tooFewYes?: return "\(name) had too few yes (\(count.yes) yes, \(count.no) no)"
            }
        }
        if !removed.isEmpty { text += " Removed: " + removed.joined(separator: "; ") + "." }
        return text
    }
}
