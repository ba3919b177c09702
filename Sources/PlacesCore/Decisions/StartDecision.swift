import Foundation

/// Starting a decision (`POST /v1/decisions`, `places decision start`): what was asked, typed but not yet checked
/// against the domain's rules, which `DecisionService.create` applies.
@PublicInit
public struct StartDecision: Sendable, Equatable {
    /// Where the candidate places come from.
    public enum Candidates: Sendable, Equatable {
        /// The places of a collection the caller can read.
        case collection(id: String)
        /// These places, by id, each once.
        case places([String])
        /// The nearest places a query finds.
        case nearby(NearbyCandidates)
        /// The places fairest to several origins.
        case meet(MeetCandidates)
    }

    /// A nearby query that picks candidates: a point, a radius in miles (at most 20, refused rather than capped, so a
    /// group never votes over other places than it asked for), how many to take, and the filters of nearby. Only the
    /// point is required.
    @PublicInit
    public struct NearbyCandidates: Sendable, Equatable {
        public var lat: Double?
        public var lon: Double?
        public var radiusMiles: Double?
        public var limit: Int?
        public var filters: Filters = Filters()
    }

    /// A meet query that picks candidates: the places within 20 miles of every origin, the fairest first. The origins
    /// are given (`at`), or are the saved default locations of the participants who share theirs for meeting
    /// (`fromParticipants`), each snapped to its 1 km cell; exactly one of the two.
    @PublicInit
    public struct MeetCandidates: Sendable, Equatable {
        /// A point as a body spells it, checked by the service.
        @PublicInit
        public struct Origin: Sendable, Equatable {
            public var lat: Double?
            public var lon: Double?
        }

        public var at: [Origin]?
        public var fromParticipants: Bool?
        public var limit: Int?
        public var filters: Filters = Filters()
    }

    /// The filters of nearby a candidates query may add, and whether to respect everyone's needs.
    @PublicInit
    public struct Filters: Sendable, Equatable {
        public var kind: String?
        public var tags: [String] = []
        public var cuisine: String?
        public var minPrice: Int?
        public var maxPrice: Int?
        public var minRating: Double?
        /// Keep only places that serve every participant's dietary needs (as tags) and fit every participant's
        /// `maxPrice` (places without a price level stay).
        public var respectNeeds: Bool?
    }

    /// A swipe round before the method, as asked: every field optional (`vetoes` defaults to 1).
    @PublicInit
    public struct Round: Sendable, Equatable {
        public var vetoes: Int?
        public var minYes: Int?
        public var deadline: Date?
    }

    /// How it is decided.
    public var method: Decision.Method
    /// The candidates.
    public var candidates: Candidates
    /// The group it belongs to; without one, it is among the caller and their friends.
    public var groupId: String?
    /// A title people see.
    public var title: String?
    /// Usernames of those who take part; nil means every member of the group, or the caller alone.
    public var participants: [String]?
    /// When voting ends.
    public var deadline: Date?
    /// The day of the visit (`2026-12-24`).
    public var visitDate: String?
    /// When the group means to go, instead of `visitDate`: candidates from nearby or meet are then open at that time.
    public var visitAt: Date? = nil
    /// Random only: weight the draw by the candidates' ratings.
    public var weighted: Bool?
    /// Random only: draw at `close` rather than at once.
    public var scheduled: Bool?
    /// Random only: leave out the places won in this many past days.
    public var excludeRecentDays: Int?
    /// The seed of the draw and of tie-breaks (a new one when nil).
    public var seed: UInt64?
    /// A swipe round before the method, when asked.
    public var swipe: Round? = nil
}
