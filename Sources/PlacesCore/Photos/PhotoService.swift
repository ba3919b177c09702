import Foundation

/// Photos of places and people's pictures: uploads checked and cleaned (`PhotoFile`), stored once per content, listed,
/// served, and removed by whoever may.
///
/// Who may remove a photo: the person who added it, the owner of its place, and for a seeded place (no owner) the
/// operator's CLI. Bounds: `UsageLimits.photosPerPlace` photos of one place per person (409 `limit_reached`) and
/// `photosPerDay` photos a day per person, pictures included (429 `too_many_attempts` with `Retry-After`).
public struct PhotoService: Sendable {
    let repository: any PhotoRepository
    let places: PlaceService
    let limits: UsageLimits
    let clock: @Sendable () -> Date

    /// How many of a place's newest photos a place's answer carries.
    public static let newestShown = 5

    public init(repository: any PhotoRepository, places: PlaceService, limits: UsageLimits, clock: @escaping @Sendable () -> Date) {
        self.repository = repository
        self.places = places
        self.limits = limits
        self.clock = clock
    }

    /// Adds a photo of the live place `placeID`, cleaned of its metadata; the index shows the place's new count and
    /// cover before this returns.
    public func add(_ upload: PhotoUpload, toPlace placeID: String, by user: User) async throws -> Photo {
        try PlaceDraft.checkID(placeID)
        let caption = try PhotoService.caption(upload.caption)
        let now = clock()
        let (photo, content) = try Self.cleaned(upload, placeID: placeID, caption: caption, by: user, at: now)
        let window = RateWindow(allowed: limits.photosPerDay, per: 24 * 60 * 60)
        let rules = PhotoRules(perPlace: limits.photosPerPlace, window: window.limit(at: now))
        switch try await repository.add(photo, content: content, rules: rules) {
        case .added:
            try await places.syncWrite(of: placeID)
            return photo
        case .placeGone:
            throw PlacesError.notFound("no place with id '\(placeID)'")
        case .perPlaceReached:
            throw PlacesError(.limitReached, "you have reached the limit of \(limits.photosPerPlace) photos of one place; delete one first")
        case .tooMany(let oldestCounted):
            throw window.refusal(now: now, oldestCounted: oldestCounted) { seconds in
                "you added \(limits.photosPerDay) photos in the last 24 hours; try again in \(seconds) seconds"
            }
        }
    }

    /// Makes the upload the person's picture, replacing the one they had.
    public func setPicture(_ upload: PhotoUpload, of user: User) async throws -> Photo {
        guard upload.caption == nil else { throw PlacesError.invalid("caption", "a picture has no caption") }
        let (photo, content) = try Self.cleaned(upload, placeID: nil, caption: nil, by: user, at: clock())
        guard try await repository.setPicture(photo, content: content) else { throw PlacesError.unauthorized("the account is gone") }
        return photo
    }

    /// Removes the person's picture (idempotent).
    public func removePicture(of user: User) async throws {
        _ = try await repository.removePicture(userID: user.id)
    }

    /// A live place's photos, newest first.
    public func photos(ofPlace placeID: String, page: PageRequest) async throws -> Page<Photo> {
        _ = try await places.place(id: placeID)
        return try await repository.photos(placeID: placeID, page: page)
    }

    /// The newest photos of a place, as its answer shows them.
    public func newest(ofPlace placeID: String) async throws -> [Photo] {
        try await repository.photos(placeID: placeID, page: PageRequest(limit: PhotoService.newestShown)).items
    }

    /// The photo to serve: `not_found` for an unknown id and for a photo of a deleted place (until it is restored).
    public func photoToServe(id: String) async throws -> StoredPhoto {
        guard Photo.isWellFormedID(id), let stored = try await repository.photo(id: id), !stored.placeDeleted else {
            throw PlacesError.notFound("no photo with id '\(id)'")
        }
        return stored
    }

    /// Chunk `index` of a photo's bytes; `unavailable` when it is missing (the photo went while it was being served).
    public func chunk(of photo: StoredPhoto, index: Int) async throws -> [UInt8] {
        guard let chunk = try await repository.chunk(contentHash: photo.photo.contentHash, index: index) else {
            throw PlacesError(.notFound, "the photo's bytes are gone")
        }
        return chunk
    }

    /// Removes a photo: its adder, the owner of its place, or the operator (for any photo; the CLI without `--as`).
    public func delete(id: String, by editor: PlaceEditor) async throws {
        guard Photo.isWellFormedID(id), let stored = try await repository.photo(id: id) else {
            throw PlacesError.notFound("no photo with id '\(id)'")
        }
        if case .person(let user) = editor {
            if stored.placeDeleted { throw PlacesError.notFound("no photo with id '\(id)'") }
            guard stored.photo.userID == user.id || (stored.placeOwnerID != nil && stored.placeOwnerID == user.id) else {
                throw PlacesError.forbidden(
                    stored.placeOwnerID == nil && stored.photo.placeID != nil
                        ? "only who added this photo may delete it (its place came from a seed file: the operator's CLI may too)"
                        : "only who added this photo, or the owner of its place, may delete it"
                )
            }
        }
        guard try await repository.delete(id: id) else { return }
        if let placeID = stored.photo.placeID { try await places.syncWrite(of: placeID) }
    }

    /// Every photo the person added, their picture too (their export lists them).
    public func photos(addedBy userID: String) async throws -> [Photo] {
        try await repository.photos(userID: userID)
    }

    /// The upload checked and cleaned (`PhotoFile`), as a new photo and the content it stores.
    private static func cleaned(
        _ upload: PhotoUpload,
        placeID: String?,
        caption: String?,
        by user: User,
        at now: Date
    ) throws(PlacesError) -> (Photo, PhotoContent) {
        let file = try PhotoFile.clean(upload.bytes, declaredMediaType: upload.mediaType)
        let content = PhotoContent(file.bytes)
        let photo = Photo(
            id: Photo.makeID(),
            placeID: placeID,
            userID: user.id,
            username: user.username,
            format: file.format,
            width: file.width,
            height: file.height,
            byteCount: file.bytes.count,
            contentHash: content.hash,
            caption: caption,
            createdAt: now
        )
        return (photo, content)
    }

    /// The caption's rules: a title's (1–200 characters, no control characters, nothing that reorders text).
    static func caption(_ raw: String?) throws(PlacesError) -> String? {
        guard let raw else { return nil }
        guard let caption = try TextRules.shownName(raw, field: "caption", limit: 200) else {
            throw .invalid("caption", "caption must not be blank: leave it out instead")
        }
        return caption
    }
}

/// An upload as it arrived: the body's bytes, the type it was declared as, and its caption.
@PublicInit
public struct PhotoUpload: Sendable {
    /// The body.
    public var bytes: [UInt8]
    /// The request's `Content-Type`, nil when it had none.
    public var mediaType: String?
    /// The caption, as sent.
    public var caption: String? = nil
}
