/// Which step of the tie-break cascade finally left one winner (`none` when there was nothing to break).
public enum TieBreakStep: String, Sendable, Hashable, Codable, CaseIterable {
    /// One Schulze winner (or a random draw): no tie to break.
    case none
    /// The larger sum of head-to-head margins against every other candidate.
    case marginSum
    /// The higher Borda score.
    case borda
    /// More ballots ranking the candidate first.
    case firstChoices
    /// The smaller SHA-256 of the lot seed followed by the candidate id.
    case lot

    /// The step in words, for a reasoning paragraph.
    public var phrase: String {
        switch self {
        case .none: "no tie-break"
        case .marginSum: "the sum of head-to-head margins"
        case .borda: "the Borda score"
        case .firstChoices: "the number of first choices"
        case .lot: "the lot"
        }
    }
}
