/// A place as a person adds it (`POST /v1/places`, `places place add`): typed, not yet checked. `PlaceDraft` checks it
/// as it checks every place on its way in (seed rows too), so the rules and messages are the same.
public struct NewPlace: Sendable, Equatable {
    public var name: String?
    public var kind: PlaceKind?
    public var lat: Double?
    public var lon: Double?
    public var description: String?
    public var address: String?
    public var city: String?
    public var tags: [String]?
    public var cuisine: String?
    public var priceLevel: Int?
    public var phone: String?
    public var website: String?
    /// Intervals (`08:00-17:00`) by lowercase day name (`mon` … `sun`); a day without intervals is closed.
    public var openingHours: [String: [String]]?
    /// The IANA time zone of the opening hours.
    public var timeZone: String?
    /// Add it even when a place of the same name is within 50 m.
    public var allowDuplicate: Bool

    /// Makes a command; a place needs a name and a point, the rest is optional.
    public init(
        name: String?,
        lat: Double?,
        lon: Double?,
        kind: PlaceKind? = nil,
        description: String? = nil,
        address: String? = nil,
        city: String? = nil,
        tags: [String]? = nil,
        cuisine: String? = nil,
        priceLevel: Int? = nil,
        phone: String? = nil,
        website: String? = nil,
        openingHours: [String: [String]]? = nil,
        timeZone: String? = nil,
        allowDuplicate: Bool = false
    ) {
        self.name = name
        self.lat = lat
        self.lon = lon
        self.kind = kind
        self.description = description
        self.address = address
        self.city = city
        self.tags = tags
        self.cuisine = cuisine
        self.priceLevel = priceLevel
        self.phone = phone
        self.website = website
        self.openingHours = openingHours
        self.timeZone = timeZone
        self.allowDuplicate = allowDuplicate
    }

    /// The place a patch describes: the fields it sets (one it clears is absent, as null is in a new place's body).
    public init(setting patch: PlacePatch, allowDuplicate: Bool = false) {
        self.init(
            name: patch.name.applied(to: nil),
            lat: patch.lat.applied(to: nil),
            lon: patch.lon.applied(to: nil),
            kind: patch.kind.applied(to: nil),
            description: patch.description.applied(to: nil),
            address: patch.address.applied(to: nil),
            city: patch.city.applied(to: nil),
            tags: patch.tags.applied(to: nil),
            cuisine: patch.cuisine.applied(to: nil),
            priceLevel: patch.priceLevel.applied(to: nil),
            phone: patch.phone.applied(to: nil),
            website: patch.website.applied(to: nil),
            openingHours: patch.openingHours.applied(to: nil),
            timeZone: patch.timeZone.applied(to: nil),
            allowDuplicate: allowDuplicate
        )
    }

    /// The command as a draft's fields.
    var draftFields: [String: FieldValue] {
        func set<Value>(_ value: Value?) -> Patch<Value> { value.map(Patch.set) ?? .keep }
        return PlacePatch(
            name: set(name),
            kind: set(kind),
            lat: set(lat),
            lon: set(lon),
            description: set(description),
            address: set(address),
            city: set(city),
            tags: set(tags),
            cuisine: set(cuisine),
            priceLevel: set(priceLevel),
            phone: set(phone),
            website: set(website),
            openingHours: set(openingHours),
            timeZone: set(timeZone)
        ).changes
    }
}

/// A change of a place (`PATCH /v1/places/{id}`, `places place update`): each field kept, cleared or set.
public struct PlacePatch: Sendable, Equatable {
    public var name: Patch<String>
    public var kind: Patch<PlaceKind>
    public var lat: Patch<Double>
    public var lon: Patch<Double>
    public var description: Patch<String>
    public var address: Patch<String>
    public var city: Patch<String>
    public var tags: Patch<[String]>
    public var cuisine: Patch<String>
    public var priceLevel: Patch<Int>
    public var phone: Patch<String>
    public var website: Patch<String>
    public var openingHours: Patch<[String: [String]]>
    public var timeZone: Patch<String>

    /// Makes a patch; every field is kept unless given.
    public init(
        name: Patch<String> = .keep,
        kind: Patch<PlaceKind> = .keep,
        lat: Patch<Double> = .keep,
        lon: Patch<Double> = .keep,
        description: Patch<String> = .keep,
        address: Patch<String> = .keep,
        city: Patch<String> = .keep,
        tags: Patch<[String]> = .keep,
        cuisine: Patch<String> = .keep,
        priceLevel: Patch<Int> = .keep,
        phone: Patch<String> = .keep,
        website: Patch<String> = .keep,
        openingHours: Patch<[String: [String]]> = .keep,
        timeZone: Patch<String> = .keep
    ) {
        self.name = name
        self.kind = kind
        self.lat = lat
        self.lon = lon
        self.description = description
        self.address = address
        self.city = city
        self.tags = tags
        self.cuisine = cuisine
        self.priceLevel = priceLevel
        self.phone = phone
        self.website = website
        self.openingHours = openingHours
        self.timeZone = timeZone
    }

    /// The fields it changes, as a draft spells them (a cleared field is null).
    var changes: [String: FieldValue] {
        var fields: [String: FieldValue] = [:]
        func put<Value>(_ name: String, _ patch: Patch<Value>, _ value: (Value) -> FieldValue) {
            switch patch {
            case .keep: break
            case .clear: fields[name] = .null
            case .set(let given): fields[name] = value(given)
            }
        }
        put("name", name, FieldValue.text)
        put("kind", kind) { .text($0.rawValue) }
        put("lat", lat, FieldValue.number)
        put("lon", lon, FieldValue.number)
        put("description", description, FieldValue.text)
        put("address", address, FieldValue.text)
        put("city", city, FieldValue.text)
        put("tags", tags) { .list($0.map(FieldValue.text)) }
        put("cuisine", cuisine, FieldValue.text)
        put("priceLevel", priceLevel) { .number(Double($0)) }
        put("phone", phone, FieldValue.text)
        put("website", website, FieldValue.text)
        put("openingHours", openingHours) { .object($0.mapValues { .list($0.map(FieldValue.text)) }) }
        put("timeZone", timeZone, FieldValue.text)
        return fields
    }
}

/// A person's rating of a place (`PUT /v1/places/{id}/rating`): 1 to 5 stars and an optional review.
public struct RatePlace: Sendable, Equatable {
    public var stars: Int?
    public var review: String?

    /// Makes a command.
    public init(stars: Int?, review: String? = nil) {
        self.stars = stars
        self.review = review
    }
}
