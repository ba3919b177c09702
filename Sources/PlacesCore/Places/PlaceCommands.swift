/// A place as a person adds it (`POST /v1/places`, `places place add`): typed, not yet checked. `PlaceDraft` checks it
/// as it checks every place on its way in (seed rows too), so the rules and messages are the same.
public struct NewPlace: Sendable, Equatable {
    /// Its fields, spelled as a change of nothing: those set are given; one kept or cleared is absent (null in a new
    /// place's body means none). A place needs a name and a point, the rest is optional.
    public var fields: PlacePatch
    /// Add it even when a place of the same name is within 50 m.
    public var allowDuplicate: Bool

    /// Makes a command.
    public init(fields: PlacePatch, allowDuplicate: Bool = false) {
        self.fields = fields
        self.allowDuplicate = allowDuplicate
    }

    /// The command as a draft's fields.
    var draftFields: [String: FieldValue] {
        fields.changes.filter { $0.value != .null }
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
@PublicInit
public struct RatePlace: Sendable, Equatable {
    public var stars: Int?
    public var review: String?
}
