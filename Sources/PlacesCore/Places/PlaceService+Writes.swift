import Foundation
import GeoIndex

/// The rules a place sent by a person (not a seed file) follows beyond a draft's.
enum PlaceFields {
    /// The fields that are text.
    static let text: Set<String> = ["kind", "name", "description", "address", "city", "cuisine", "phone", "website", "timeZone"]

    /// As the document's patterns say: no control character anywhere in a text field, not even one a trim would
    /// remove (a description may hold tabs and line breaks); and opening hours name days as the document spells them.
    static func check(_ fields: [String: FieldValue]) throws(PlacesError) {
        for name in text.sorted() {
            guard case .text(let raw)? = fields[name] else { continue }
            try PlacesError.checkPrintable(raw, field: name, allowLineBreaks: name == "description")
        }
        if case .object(let days)? = fields["openingHours"] {
            for day in days.keys.sorted() where OpeningHours.Weekday(rawValue: day) == nil {
                throw .invalid("openingHours", "unknown day '\(day)': use mon, tue, wed, thu, fri, sat, sun")
            }
        }
    }
}

extension PlaceDraft {
    /// The draft a stored place would come from, so an edit can overlay some fields and validate the whole again.
    init(place: Place) {
        var fields: [String: FieldValue] = [
            "id": .text(place.id),
            "kind": .text(place.kind.rawValue),
            "name": .text(place.name),
            "description": .text(place.description),
            "lat": .number(place.coordinate.latitude),
            "lon": .number(place.coordinate.longitude),
            "tags": .list(place.tags.map(FieldValue.text)),
        ]
        func set(_ name: String, _ text: String?) { if let text { fields[name] = .text(text) } }
        set("address", place.address)
        set("city", place.city)
        set("cuisine", place.cuisine)
        set("phone", place.phone)
        set("website", place.website)
        set("timezone", place.timeZone)
        if let level = place.priceLevel { fields["pricelevel"] = .number(Double(level)) }
        if let hours = place.openingHours {
            fields["openinghours"] = .object(hours.textDays.mapValues { .list($0.map(FieldValue.text)) })
        }
        self.init(normalisedFields: fields)
    }

    /// This draft with `changes` laid over it (a null clears a field).
    func overlaid(with changes: [String: FieldValue]) -> PlaceDraft {
        var fields = self.fields
        for (name, value) in changes {
            let key = PlaceDraft.normalise(name)
            // Aliases of one field must not survive beside the new value.
            for alias in PlaceDraft.aliases(of: key) { fields.removeValue(forKey: alias) }
            fields[key] = value
        }
        return PlaceDraft(normalisedFields: fields)
    }

    static func aliases(of key: String) -> [String] {
        switch key {
        case "lat", "latitude": ["lat", "latitude"]
        case "lon", "lng", "longitude": ["lon", "lng", "longitude"]
        case "openinghours", "hours": ["openinghours", "hours"]
        default: [key]
        }
    }
}

/// Who is changing a place: a signed-in person (the API) or the operator (the CLI, on the database file).
public enum PlaceEditor: Sendable {
    /// A signed-in person: only their own places.
    case person(User)
    /// The operator, working on the database file with the CLI: any place.
    case operatorCLI
}

extension PlaceService {
    /// How near a same-named place counts as a duplicate.
    public static let duplicateDistanceMeters = 50.0

    /// Adds a place from a request body; the person adding it owns it. A same-named place within 50 m is a
    /// `duplicate_place` unless the body says `allowDuplicate: true`. The index has it before this returns.
    public func create(_ command: NewPlace, owner: User?) async throws -> Place {
        var draftFields = command.draftFields
        try PlaceFields.check(draftFields)
        let allowDuplicate = command.allowDuplicate
        draftFields["id"] = .text(makePlaceID())
        let now = clock()
        let place = try PlaceDraft(fields: draftFields).validated(now: now, ownerID: owner?.id)
        let limit = owner.map { _ in AdditionLimit(allowed: limits.placesPerDay, since: now.addingTimeInterval(-PlaceService.additionWindow)) }
        if !allowDuplicate, let existing = try await duplicate(of: place) {
            // The daily limit answers first, as it would have had the place been new.
            if let owner, let limit { try await checkDailyAdditions(owner, limit, now: now) }
            var error = PlacesError(
                .duplicatePlace,
                "'\(existing.name)' (id \(existing.id)) is already within 50 m; send allowDuplicate: true to add it anyway",
                field: "name"
            )
            error.existingID = existing.id
            throw error
        }
        // The limit is checked in the insert's own statement: one access to the database, not two.
        guard try await repository.insert(place, limit: limit) else {
            if let owner, let limit { try await checkDailyAdditions(owner, limit, now: now) }
            // Reached a moment ago, and no longer: another try will do.
            throw PlaceService.tooManyAdditions(limits.placesPerDay, retryAfter: 1)
        }
        try await syncWrite(of: place.id)
        return place
    }

    /// How far back the daily limit on additions counts.
    static let additionWindow: TimeInterval = 24 * 60 * 60

    /// Refuses (429 `too_many_attempts`, with the seconds until one more is allowed) a person who added as many places
    /// since the limit's moment as it allows.
    private func checkDailyAdditions(_ owner: User, _ limit: AdditionLimit, now: Date) async throws {
        guard let blocking = try await repository.additionBlocking(ownerID: owner.id, since: limit.since, allowed: limit.allowed) else {
            return
        }
        let seconds = max(1, Int((PlaceService.additionWindow - now.timeIntervalSince(blocking)).rounded(.up)))
        throw PlaceService.tooManyAdditions(limit.allowed, retryAfter: seconds)
    }

    static func tooManyAdditions(_ allowed: Int, retryAfter seconds: Int) -> PlacesError {
        var error = PlacesError(.tooManyAttempts, "you added \(allowed) places in the last 24 hours; try again in \(seconds) seconds")
        error.retryAfterSeconds = seconds
        return error
    }

    /// Changes the fields given (null clears one) and keeps the rest; owner only (or the operator).
    public func update(id: String, _ patch: PlacePatch, by editor: PlaceEditor) async throws -> Place {
        let changes = patch.changes
        try PlaceFields.check(changes)
        let stored = try await editablePlace(id: id, by: editor)
        guard stored.deletedAt == nil else { throw PlacesError.notFound("no place with id '\(id)'") }
        var place = try PlaceDraft(place: stored).overlaid(with: changes).validated(now: clock(), ownerID: stored.ownerID)
        place.seedSource = stored.seedSource
        place.createdAt = stored.createdAt
        place.rating = stored.rating
        try await repository.update(place)
        try await syncWrite(of: place.id)
        return place
    }

    /// Soft-deletes a place: it leaves every query at once; owner only (or the operator). Deleting twice is fine.
    public func delete(id: String, by editor: PlaceEditor) async throws {
        var place = try await editablePlace(id: id, by: editor)
        guard place.deletedAt == nil else { return }
        place.deletedAt = clock()
        place.updatedAt = place.deletedAt ?? place.updatedAt
        try await repository.update(place)
        try await syncWrite(of: place.id)
    }

    /// Brings a soft-deleted place back; owner only (or the operator).
    public func restore(id: String, by editor: PlaceEditor) async throws -> Place {
        var place = try await editablePlace(id: id, by: editor)
        guard place.deletedAt != nil else { return place }
        place.deletedAt = nil
        place.updatedAt = clock()
        try await repository.update(place)
        try await syncWrite(of: place.id)
        return place
    }

    /// The stored place (deleted or not) if `editor` may change it: `not_found`, or `forbidden` for someone else's
    /// place or an ownerless (seeded) one.
    private func editablePlace(id: String, by editor: PlaceEditor) async throws -> Place {
        try PlaceDraft.checkID(id)
        guard let place = try await repository.place(id: id) else { throw PlacesError.notFound("no place with id '\(id)'") }
        guard case .person(let user) = editor else { return place }
        guard let owner = place.ownerID else {
            if place.deletedAt != nil { throw PlacesError.notFound("no place with id '\(id)'") }
            throw PlacesError.forbidden("place '\(id)' has no owner (it came from a seed file); only the operator's CLI edits it")
        }
        guard owner == user.id else {
            if place.deletedAt != nil { throw PlacesError.notFound("no place with id '\(id)'") }
            throw PlacesError.forbidden("place '\(id)' belongs to someone else; only its owner may change it")
        }
        return place
    }

    /// A live place with the same name (ignoring case and accents) within 50 m, nearest first.
    func duplicate(of place: Place) async throws -> NearbyPlace? {
        guard
            let query = try? NearbyQuery(
                center: place.coordinate,
                radiusMiles: PlaceService.duplicateDistanceMeters / Geodesy.metersPerMile,
                limit: 500
            )
        else { return nil }
        let name = PlaceService.comparable(place.name)
        return try await nearbyLoadingIndex(query).places.first { $0.id != place.id && PlaceService.comparable($0.name) == name }
    }

    static func comparable(_ name: String) -> String {
        name.folded
    }

    // MARK: - Favourites and ratings

    /// Marks a live place as one of the user's favourites (idempotent).
    public func favorite(placeID: String, user: User) async throws {
        _ = try await place(id: placeID)
        try await repository.setFavorite(userID: user.id, placeID: placeID, favorite: true, now: clock())
    }

    /// Unmarks a favourite (idempotent); `not_found` for an unknown place.
    public func unfavorite(placeID: String, user: User) async throws {
        try PlaceDraft.checkID(placeID)
        guard try await repository.place(id: placeID) != nil else { throw PlacesError.notFound("no place with id '\(placeID)'") }
        try await repository.setFavorite(userID: user.id, placeID: placeID, favorite: false, now: clock())
    }

    /// The user's live favourites: nearest first from `center` when given, else most recently marked first.
    public func favorites(user: User, center: Coordinate?, page: PageRequest) async throws -> Page<FavoritePlace> {
        let marked = try await repository.favorites(userID: user.id)
        let summaries = try await summaries(marked.map { $0.placeID })
        var entries = marked.compactMap { entry -> FavoritePlace? in
            guard let summary = summaries[entry.placeID] else { return nil }
            let distance = center.map { Geodesy.distanceMeters($0, summary.coordinate) }
            return FavoritePlace(summary: summary, favoritedAt: entry.createdAt, distanceMeters: distance)
        }
        if center != nil {
            entries.sort { a, b in (a.place.distanceMeters ?? 0, a.place.id) < (b.place.distanceMeters ?? 0, b.place.id) }
        }
        // Paged by key, as the lists of the repositories are: distance (or, without a centre, the time it was marked, newest
        // first) and id.
        let position: (FavoritePlace) -> (Double, String) = { entry in
            (center == nil ? -entry.details.favoritedAt.timeIntervalSinceReferenceDate : entry.place.distanceMeters ?? 0, entry.place.id)
        }
        if let after = try page.after(parts: 2) {
            let last = (try PageRequest.double(after[0]), after[1])
            entries.removeAll { position($0) <= last }
        }
        return page.page(
            entries.prefix(page.fetchLimit).map { entry in
                let (value, id) = position(entry)
                return (entry, [PageRequest.keyPart(value), id])
            }
        )
    }

    /// Rates a live place (replacing the user's earlier rating) and returns the rating and the place's aggregate.
    public func rate(placeID: String, user: User, _ given: RatePlace) async throws -> (Rating, RatingAggregate) {
        guard let stars = given.stars else { throw PlacesError.invalid("stars", "stars is required: 1 to 5") }
        guard (1...5).contains(stars) else { throw PlacesError.invalid("stars", "stars must be a whole number from 1 to 5") }
        let review = try TextRules.text(given.review, field: "review", limit: Rating.reviewLength, allowLineBreaks: true)
        try PlaceDraft.checkID(placeID)
        let now = clock()
        let rating = Rating(placeId: placeID, userId: user.id, stars: stars, review: review, createdAt: now, updatedAt: now)
        let aggregate = try await repository.save(rating)
        try await syncWrite(of: placeID)
        return (rating, aggregate)
    }

    /// Removes the user's rating of a place and returns the place's aggregate, whether or not they had one (idempotent,
    /// as `unfavorite` is: a retried delete answers as the first did); `not_found` for an unknown place.
    public func unrate(placeID: String, user: User) async throws -> RatingAggregate {
        try PlaceDraft.checkID(placeID)
        guard let aggregate = try await repository.deleteRating(userID: user.id, placeID: placeID) else {
            guard let place = try await repository.place(id: placeID) else { throw PlacesError.notFound("no place with id '\(placeID)'") }
            return place.rating
        }
        try await syncWrite(of: placeID)
        return aggregate
    }

    // MARK: - Search

    /// Full-text search over name, description, tags and cuisine; by relevance, then distance, then id. Answered
    /// from the index's postings (loaded first if nothing has loaded it yet), as nearby is.
    public func search(_ query: PlaceSearchQuery) async throws -> Page<PlaceSearchHit> {
        try await loadedIndex().search(query)
    }
}
