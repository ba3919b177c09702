import Foundation

/// Answers a participant gives in a decision's swipe round (`PUT /v1/decisions/{id}/swipes` and
/// `…/swipes/{placeId}`, `places decision swipe`), all saved or none: candidate place id and answer, each place once.
@PublicInit
public struct SwipeAnswers: Sendable, Equatable {
    /// Place id and answer, in the order given.
    public var answers: [(placeId: String, answer: SwipeAnswer)]

    public static func == (left: SwipeAnswers, right: SwipeAnswers) -> Bool {
        left.answers.elementsEqual(right.answers) { $0.placeId == $1.placeId && $0.answer == $1.answer }
    }
}
