import Foundation

/// What a nearby query keeps of the places in its circle, checked in memory beside the grid index.
public struct PlaceFilter: Sendable, Hashable {
    /// Only this kind.
    public var kind: PlaceKind?
    /// Every one of these tags (lowercase, as tags are stored).
    public var tags: [String] = []
    /// This cuisine, compared without regard to case.
    public var cuisine: String?
    /// At least this price level (1–4); places without one are left out.
    public var minPrice: Int?
    /// At most this price level (1–4); places without one are left out.
    public var maxPrice: Int?
    /// A group's budget: at most this price level (1–4), and places without one stay (most gems have none).
    public var budget: Int?
    /// At least this average rating (1–5); unrated places are left out.
    public var minRating: Double?
    /// Open at this instant, in each place's own time zone; places without hours stay, marked `unknown`.
    public var openAt: Date?

    /// No filter.
    public init(kind: PlaceKind? = nil) {
        self.kind = kind
    }

    /// True when nothing is filtered.
    public var isEmpty: Bool { self == PlaceFilter() }

    /// Parses the filters as a query string spells them.
    public static func parse(
        kind: String?,
        tags: [String],
        cuisine: String?,
        minPrice: String?,
        maxPrice: String?,
        minRating: String?,
        openAt: String?
    ) throws(PlacesError) -> PlaceFilter {
        var filter = PlaceFilter()
        if let kind {
            guard let parsed = PlaceKind(rawValue: kind) else {
                throw .invalid("kind", "kind must be gem or restaurant, got \(PlacesError.quoted(kind))")
            }
            filter.kind = parsed
        }
        guard tags.count <= PlaceLimits.tagCount else { throw .invalid("tag", "at most \(PlaceLimits.tagCount) tags") }
        for tag in tags {
            let text = tag.trimmingWhitespace().nfc.lowercased()
            guard !text.isEmpty, text.count <= PlaceLimits.tagLength, !tag.containsControlCharacter else {
                throw .invalid("tag", "tag must be 1–\(PlaceLimits.tagLength) characters without control characters")
            }
            if !filter.tags.contains(text) { filter.tags.append(text) }
        }
        if let cuisine {
            let text = cuisine.trimmingWhitespace().nfc
            guard !text.isEmpty, text.count <= PlaceLimits.cuisineLength, !cuisine.containsControlCharacter else {
                throw .invalid("cuisine", "cuisine must be 1–\(PlaceLimits.cuisineLength) characters without control characters")
            }
            filter.cuisine = text.lowercased()
        }
        filter.minPrice = try priceLevel(minPrice, field: "minPrice")
        filter.maxPrice = try priceLevel(maxPrice, field: "maxPrice")
        if let low = filter.minPrice, let high = filter.maxPrice, low > high {
            throw .invalid("minPrice", "minPrice must not be above maxPrice")
        }
        if let minRating {
            guard let value = DecimalText.number(minRating), (1...5).contains(value) else {
                throw .invalid("minRating", "minRating must be a number from 1 to 5")
            }
            filter.minRating = value
        }
        if let openAt { filter.openAt = try ISO8601Time.openAt(openAt) }
        return filter
    }

    private static func priceLevel(_ text: String?, field: String) throws(PlacesError) -> Int? {
        guard let text else { return nil }
        guard let level = Int(text), (1...4).contains(level) else {
            throw .invalid(field, "\(field) must be a whole number from 1 to 4")
        }
        return level
    }

    /// A matcher for one query: it works out each time zone's local time once, not once per place.
    func matcher() -> Matcher { Matcher(filter: self) }

    /// Checks summaries against the filter; not thread-safe (one per query).
    final class Matcher {
        let filter: PlaceFilter
        private var localTimes: [String: OpeningHours.LocalTime] = [:]

        init(filter: PlaceFilter) {
            self.filter = filter
        }

        func matches(_ place: PlaceSummary) -> Bool {
            withUnsafePointer(to: place.attributes) { matches($0, cuisine: { place.cuisine }) }
        }

        /// `matches(_:)` of the attributes at `place`, each field read where it lies (a filter that passes few places
        /// reads every place of a circle, and copying the attributes retains and releases each of their fields), and
        /// of the place's cuisine, asked for only when the filter names one.
        func matches(_ place: UnsafePointer<PlaceAttributes>, cuisine placeCuisine: () -> String?) -> Bool {
            if let kind = filter.kind, place.pointee.kind != kind { return false }
            for tag in filter.tags where !place.pointee.tags.contains(tag) { return false }
            if let cuisine = filter.cuisine, placeCuisine()?.lowercased() != cuisine { return false }
            if let low = filter.minPrice {
                guard let level = PlaceAttributes.priceLevel(at: place), level >= low else { return false }
            }
            if let high = filter.maxPrice {
                guard let level = PlaceAttributes.priceLevel(at: place), level <= high else { return false }
            }
            if let budget = filter.budget, let level = PlaceAttributes.priceLevel(at: place), level > budget { return false }
            if let minRating = filter.minRating {
                guard let average = PlaceAttributes.rating(at: place).average, average >= minRating else { return false }
            }
            if filter.openAt != nil, openStatus(place.pointee) == .closed { return false }
            return true
        }

        /// Whether the place is open at `openAt`; `unknown` without hours or a time zone.
        func openStatus(_ place: PlaceSummary) -> OpenStatus {
            openStatus(place.attributes)
        }

        /// `openStatus(_:)` of a place's attributes.
        func openStatus(_ place: PlaceAttributes) -> OpenStatus {
            guard let instant = filter.openAt, let hours = place.openingHours, let zoneName = place.timeZone else { return .unknown }
            let local: OpeningHours.LocalTime
            if let cached = localTimes[zoneName] {
                local = cached
            } else {
                guard let zone = TimeZone(identifier: zoneName) else { return .unknown }
                local = OpeningHours.LocalTime(instant, in: zone)
                localTimes[zoneName] = local
            }
            return hours.isOpen(at: local) ? .open : .closed
        }
    }
}

/// Whether a place is open at the time a query asked about.
public enum OpenStatus: String, Sendable, Hashable, Codable {
    case open, closed, unknown

    /// Whether each of `places` is open at `instant`, in its own time zone (`unknown` without hours).
    static func of(_ places: [String: PlaceSummary], at instant: Date) -> [String: OpenStatus] {
        var filter = PlaceFilter()
        filter.openAt = instant
        let matcher = filter.matcher()
        return places.mapValues { matcher.openStatus($0) }
    }
}

/// ISO-8601 instants as query strings and bodies carry them: with `Z` or an offset, fractional seconds optional.
public enum ISO8601Time {
    /// The instant, or nil when the text is not one.
    public static func date(_ text: String) -> Date? {
        guard text.count <= 40 else { return nil }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }

    /// The instant an `openAt` parameter names (nearby's filter, a place's details); `invalid_input` naming it.
    public static func openAt(_ text: String) throws(PlacesError) -> Date {
        guard let instant = date(text) else {
            throw .invalid("openAt", "openAt must be an ISO-8601 time with its offset, like 2026-11-22T19:30:00Z")
        }
        return instant
    }
}
