import GeoIndex

/// Which OpenStreetMap features are places, and how their tags become a place's fields: the table of
/// `Seeds/README.md`, in code. `osmiumFilters` and `exportedKeys` are derived from it, so the extract osmium filters
/// and the tags it writes are exactly what this table reads.
public enum OSMPlaceTags {
    /// What every OpenStreetMap place's id starts with: `osm:n123` is node 123, `osm:w456` way 456, `osm:r789` relation 789.
    public static let idPrefix = "osm:"

    /// `amenity` values that are restaurants (anywhere people go to eat or drink).
    static let restaurantAmenities: Set<String> = [
        "restaurant", "cafe", "fast_food", "bar", "pub", "biergarten", "ice_cream", "food_court",
    ]
    /// Keys and the values that make a gem; an empty set takes any value.
    static let gemValues: [(key: String, values: Set<String>)] = [
        ("tourism", ["viewpoint", "artwork", "attraction"]),
        ("historic", []),
        ("leisure", ["park", "garden"]),
        ("natural", ["peak", "waterfall", "beach", "cave_entrance"]),
        ("amenity", ["fountain"]),
    ]
    /// `historic` values that mark a thing beside the road rather than a place to go.
    static let historicNotPlaces: Set<String> = ["milestone", "boundary_stone", "no"]
    /// `memorial` values (of `historic=memorial`) too small to visit: thousands of plaques and Stolpersteine.
    static let memorialsNotPlaces: Set<String> = ["plaque", "stolperstein"]
    /// `access` values that keep people out.
    static let closedAccess: Set<String> = ["private", "no"]
    /// `diet:*` keys and the dietary need each one serves (as the settings' `dietaryNeeds` name them).
    static let diets: [(key: String, need: String)] = [
        ("diet:vegetarian", "vegetarian"), ("diet:vegan", "vegan"), ("diet:halal", "halal"), ("diet:kosher", "kosher"),
        ("diet:gluten_free", "gluten-free"), ("diet:lactose_free", "dairy-free"), ("diet:dairy_free", "dairy-free"),
        ("diet:nut_free", "nut-free"),
    ]

    /// The `osmium tags-filter` expressions that keep the features this table may map (and what their shapes need).
    public static var osmiumFilters: [String] {
        var filters = ["nwr/amenity=" + (restaurantAmenities.sorted() + ["fountain"]).joined(separator: ",")]
        for (key, values) in gemValues where key != "amenity" {
            filters.append(values.isEmpty ? "nwr/\(key)" : "nwr/\(key)=" + values.sorted().joined(separator: ","))
        }
        return filters
    }

    /// The tag keys osmium writes into the export (`include_tags`): everything this table reads, nothing else.
    public static var exportedKeys: [String] {
        ["name", "amenity", "tourism", "historic", "leisure", "natural", "memorial", "access", "cuisine"] + diets.map(\.key)
            + ["opening_hours", "addr:full", "addr:housenumber", "addr:street", "addr:postcode", "addr:city", "website",
               "contact:website", "phone", "contact:phone", "wheelchair", "description", "timezone"]
    }

    /// Why a feature is not a place.
    public enum Skip: String, Error, Sendable, Hashable, CaseIterable, Comparable {
        case withoutName = "without a name"
        case notMapped = "not mapped"
        case closedAccess = "private"
        case invalid = "invalid"

        public static func < (a: Skip, b: Skip) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// A feature's place fields (named as `PlaceDraft` folds them), and whether its `opening_hours` went unread.
    struct Mapped {
        var fields: [String: FieldValue]
        var hoursNotUnderstood: Bool
    }

    /// The place the tags of the feature `id` at `point` describe, or why they describe none.
    static func map(id: String, point: Coordinate, tags: [String: FieldValue]) -> Result<Mapped, Skip> {
        func text(_ key: String) -> String? {
            guard case .text(let value)? = tags[key] else { return nil }
            let trimmed = value.trimmingWhitespace()
            return trimmed.isEmpty ? nil : trimmed
        }
        var placeTags: [String] = []
        func tag(_ value: String) {
            let tag = value.lowercased().replacing("_", with: "-")
            if !tag.isEmpty, tag.count <= PlaceLimits.tagLength, placeTags.count < PlaceLimits.tagCount, !placeTags.contains(tag) {
                placeTags.append(tag)
            }
        }

        // What it is: a restaurant wins over a gem (a historic inn is still somewhere to eat).
        let kind: PlaceKind
        if let amenity = text("amenity"), restaurantAmenities.contains(amenity) {
            kind = .restaurant
            tag(amenity)
        } else {
            var gem = false
            for (key, values) in gemValues {
                guard let value = text(key) else { continue }
                if key == "historic" {
                    if historicNotPlaces.contains(value) { continue }
                    if value == "memorial", let memorial = text("memorial"), memorialsNotPlaces.contains(memorial) { continue }
                    gem = true
                    tag("historic")
                    if value != "yes" { tag(value) }
                } else if values.contains(value) {
                    gem = true
                    tag(value)
                }
            }
            guard gem else { return .failure(.notMapped) }
            kind = .gem
        }
        guard let name = text("name") else { return .failure(.withoutName) }
        if let access = text("access"), closedAccess.contains(access) { return .failure(.closedAccess) }

        var fields: [String: FieldValue] = [
            "id": .text(idPrefix + id),
            "kind": .text(kind.rawValue),
            "name": .text(name),
            "lat": .number(point.latitude),
            "lon": .number(point.longitude),
        ]
        if let cuisine = text("cuisine") {
            let values = cuisine.split(separator: ";").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
            var shown = ""
            for value in values {
                tag(value)
                let words = value.replacing("_", with: " ")
                let next = shown.isEmpty ? words : shown + ", " + words
                if next.count <= PlaceLimits.cuisineLength { shown = next }
            }
            if !shown.isEmpty { fields["cuisine"] = .text(shown) }
        }
        for (key, need) in diets {
            if let value = text(key), value == "yes" || value == "only" { tag(need) }
        }
        switch text("wheelchair") {
        case "yes": tag("wheelchair")
        case "limited": tag("wheelchair-limited")
        default: break
        }
        fields["tags"] = .list(placeTags.map { .text($0) })

        if let full = text("addr:full") {
            fields["address"] = .text(full)
        } else {
            let street = [text("addr:housenumber"), text("addr:street")].compactMap { $0 }.joined(separator: " ")
            let address = [street.isEmpty ? nil : street, text("addr:postcode")].compactMap { $0 }.joined(separator: ", ")
            if !address.isEmpty { fields["address"] = .text(address) }
        }
        if let city = text("addr:city") { fields["city"] = .text(city) }
        if let website = text("website") ?? text("contact:website") { fields["website"] = .text(website) }
        if let phones = text("phone") ?? text("contact:phone"),
            let first = phones.split(separator: ";").first.map({ String($0).trimmingWhitespace() }), !first.isEmpty
        {
            fields["phone"] = .text(first)
        }
        if let description = text("description") { fields["description"] = .text(description) }
        if let zone = text("timezone") { fields["timezone"] = .text(zone) }

        var hoursNotUnderstood = false
        if let hours = text("opening_hours") {
            if let schedule = OSMOpeningHours.parse(hours) {
                fields["openinghours"] = .object(schedule.textDays.mapValues { .list($0.map { .text($0) }) })
            } else {
                hoursNotUnderstood = true
            }
        }
        return .success(Mapped(fields: fields, hoursNotUnderstood: hoursNotUnderstood))
    }
}
