import Foundation

/// One person's stars for one place, with an optional short review.
@PublicInit
public struct Rating: Sendable, Hashable, Encodable {
    /// The place rated.
    public var placeId: String
    /// Who rated it.
    public var userId: String
    /// 1 to 5.
    public var stars: Int
    /// Up to 500 characters.
    public var review: String?
    /// When first given.
    public var createdAt: Date
    /// When last changed.
    public var updatedAt: Date

    /// Longest review, in characters.
    public static let reviewLength = 500
}

/// A place's ratings in aggregate: how many and their sum, from which the average and the score follow.
public struct RatingAggregate: Sendable, Hashable {
    /// The prior the score starts from: the middle of the 1–5 scale.
    public static let priorMean = 3.0
    /// How many ratings the prior counts as.
    public static let priorWeight = 5.0

    /// How many people rated the place.
    public var count: Int
    /// The sum of their stars.
    public var sum: Int

    /// Makes an aggregate.
    public init(count: Int = 0, sum: Int = 0) {
        self.count = count
        self.sum = sum
    }

    /// The plain mean of the stars; nil when nobody rated the place.
    public var average: Double? { count > 0 ? Double(sum) / Double(count) : nil }

    /// The Bayesian-adjusted score: `(priorWeight × priorMean + sum) / (priorWeight + count)`, i.e. the mean of the
    /// ratings after adding five imaginary 3-star ratings. One 5-star rating scores 3.33; fifty 4.6s score 4.45.
    /// An unrated place scores 3.0.
    public var score: Double {
        (RatingAggregate.priorWeight * RatingAggregate.priorMean + Double(sum)) / (RatingAggregate.priorWeight + Double(count))
    }
}
