import Foundation

/// Stores photos and their bytes. Bytes are kept once per content hash, in chunks of `PhotoContent.chunkSize`, and go
/// in the transaction that removes their last photo. A place's `photoCount` and cover (its newest photo) change in the
/// transaction that adds or removes one of its photos, so a photo change is a place change on the feed, as a rating is.
public protocol PhotoRepository: Sendable {
    /// Stores a photo of a place and its bytes (unless stored already), in one transaction that first checks that the
    /// place is live and the bounds of `rules` (the person's photos of this place, and their photos in the window).
    func add(_ photo: Photo, content: PhotoContent, rules: PhotoRules) async throws -> PhotoAddition

    /// Makes `photo` (whose `placeID` is nil) its adder's picture, replacing (and removing) the one they had; false when
    /// the account is gone.
    func setPicture(_ photo: Photo, content: PhotoContent) async throws -> Bool

    /// Removes the person's picture; false when they had none.
    func removePicture(userID: String) async throws -> Bool

    /// The photo with this id and what serving or deleting it needs of its place; nil when there is none.
    func photo(id: String) async throws -> StoredPhoto?

    /// Chunk `index` (from 0) of the bytes whose hash is `contentHash`; nil when there is no such chunk.
    func chunk(contentHash: String, index: Int) async throws -> [UInt8]?

    /// A place's photos, newest first (by time, then id).
    func photos(placeID: String, page: PageRequest) async throws -> Page<Photo>

    /// Every photo the person added (of places, and their picture), oldest first: what their export lists.
    func photos(userID: String) async throws -> [Photo]

    /// Removes a photo (and its bytes, when no other photo shows them); false when there was none.
    func delete(id: String) async throws -> Bool
}

/// The bounds an addition is checked against, inside its transaction.
@PublicInit
public struct PhotoRules: Sendable, Hashable {
    /// How many photos of one place one person may have.
    public var perPlace: Int
    /// How many photos one person may add within the window.
    public var window: WindowLimit
}

/// What became of an addition.
public enum PhotoAddition: Sendable, Hashable {
    /// Stored.
    case added
    /// No live place has the id.
    case placeGone
    /// The person has `PhotoRules.perPlace` photos of the place already.
    case perPlaceReached
    /// The person added as many photos as the window allows; the oldest of those counted was added then.
    case tooMany(oldestCounted: Date)
}
