import Foundation
import GeoIndex

/// A place as some input spelled it (a seed row, a request body): field names and raw values, not yet trusted.
///
/// `validated` is the one gate every place passes on its way in: field aliases, types, ranges,
/// NFC normalisation and length limits live here and nowhere else.
public struct PlaceDraft: Sendable, Hashable {
    /// The fields by normalised name (lowercase, without `_`, `-` or spaces), so `price_level` and `priceLevel` meet.
    public private(set) var fields: [String: FieldValue]

    /// Makes a draft from named fields; names are normalised, unknown names are kept and ignored.
    public init(fields: [String: FieldValue]) {
        // Seed files repeat the same already-folded keys in every record: pass those through untouched.
        if fields.keys.allSatisfy({ PlaceDraft.normalise($0) == $0 }) {
            self.fields = fields
            return
        }
        var normalised: [String: FieldValue] = [:]
        normalised.reserveCapacity(fields.count)
        for (name, value) in fields { normalised[PlaceDraft.normalise(name)] = value }
        self.fields = normalised
    }

    /// Makes a draft from fields whose names are already normalised (a reader that normalised its header once).
    public init(normalisedFields: [String: FieldValue]) {
        self.fields = normalisedFields
    }

    /// True when the draft holds the field (by its normalised name), null or not.
    public func has(_ key: String) -> Bool { fields[key] != nil }

    /// The field's text, when it is text.
    public func text(_ key: String) -> String? {
        guard case .text(let text)? = fields[key] else { return nil }
        return text
    }

    /// The draft with the field (by its normalised name) set to `value`.
    public func setting(_ key: String, to value: FieldValue) -> PlaceDraft {
        var draft = self
        draft.fields[key] = value
        return draft
    }

    /// The draft without the field (by its normalised name).
    public func removing(_ key: String) -> PlaceDraft {
        var draft = self
        draft.fields[key] = nil
        return draft
    }

    /// A field name folded the way drafts compare them: lowercase, without `_`, `-` or spaces.
    public static func normalise(_ name: String) -> String {
        var changes = false
        for byte in name.utf8 {
            if byte >= 0x80 { return normaliseUnicode(name) }
            if isUppercase(byte) || isDropped(byte) { changes = true }
        }
        guard changes else { return name }
        var folded: [UInt8] = []
        folded.reserveCapacity(name.utf8.count)
        for byte in name.utf8 where !isDropped(byte) {
            folded.append(isUppercase(byte) ? byte + 0x20 : byte)
        }
        return String(decoding: folded, as: UTF8.self)
    }

    private static func normaliseUnicode(_ name: String) -> String {
        var result = ""
        result.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars where scalar != "_" && scalar != "-" && scalar != " " {
            result.unicodeScalars.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
        }
        return result
    }

    private static func isUppercase(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }

    private static func isDropped(_ byte: UInt8) -> Bool { byte == 0x5F || byte == 0x2D || byte == 0x20 }

    /// Checks every field and makes the place, or throws `invalid_input` naming the first field at fault.
    ///
    /// - Parameters:
    ///   - now: the time stamped as created and updated.
    ///   - seedSource: the seed file that owns the place, if any.
    ///   - ownerID: the person adding it, if any.
    public func validated(now: Date, seedSource: String? = nil, ownerID: String? = nil) throws(PlacesError) -> Place {
        let name = try requiredText("name", limit: PlaceLimits.nameLength)
        try PlacesError.checkShownName(name, field: "name")
        let latitude = try number(["lat", "latitude"], field: "lat")
        let longitude = try number(["lon", "lng", "longitude"], field: "lon")
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        try coordinate.check()
        let kind = try optionalText("kind", limit: 20).map { text throws(PlacesError) in try PlaceKind.parse(text) } ?? .gem
        let id = try optionalText("id", limit: PlaceLimits.idLength) ?? PlaceDraft.derivedID(name: name, coordinate: coordinate)
        try PlaceDraft.checkID(id)

        var place = Place(
            id: id,
            kind: kind,
            name: name,
            coordinate: coordinate,
            ownerID: ownerID,
            seedSource: seedSource,
            createdAt: now,
            updatedAt: now
        )
        place.description = try optionalText("description", limit: PlaceLimits.descriptionLength) ?? ""
        place.address = try optionalText("address", limit: PlaceLimits.addressLength)
        place.city = try optionalText("city", limit: PlaceLimits.cityLength)
        place.tags = try tags()
        place.timeZone = try timeZone()
        place.cuisine = try optionalText("cuisine", limit: PlaceLimits.cuisineLength)
        place.priceLevel = try priceLevel()
        place.phone = try phone()
        place.website = try website()
        place.openingHours = try openingHours()
        return place
    }

    // MARK: - Fields

    private func value(_ names: [String]) -> (name: String, value: FieldValue)? {
        for name in names {
            if let value = fields[name], value != .null { return (name, value) }
        }
        return nil
    }

    /// The text of `field` (looked up by `key`, its normalised name), trimmed and NFC, or nil when absent or blank.
    private func optionalText(_ field: String, key: String? = nil, limit: Int) throws(PlacesError) -> String? {
        guard let value = fields[key ?? field], value != .null else { return nil }
        let raw: String
        switch value {
        case .text(let text): raw = text
        case .number(let number): raw = number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        default: throw .invalid(field, "\(field) must be text")
        }
        // The limit counts what was sent, in Unicode code points (as JSON Schema's maxLength does); a string with no
        // more bytes than the limit cannot exceed it, so most values are not walked.
        guard raw.utf8.count <= limit || raw.unicodeScalars.count <= limit else {
            throw .invalid(field, "\(field) is longer than \(limit) characters")
        }
        let text = raw.trimmingWhitespace().nfc
        if text.isEmpty { return nil }
        try PlacesError.checkPrintable(text, field: field, allowLineBreaks: field == "description")
        return text
    }

    private func requiredText(_ field: String, limit: Int) throws(PlacesError) -> String {
        guard let text = try optionalText(field, limit: limit) else { throw .invalid(field, "\(field) is required") }
        return text
    }

    private func number(_ names: [String], field: String) throws(PlacesError) -> Double {
        guard let (_, value) = value(names) else { throw .invalid(field, "\(field) is required") }
        switch value {
        case .number(let number): return number
        case .text(let text):
            // A cell may carry spaces around its number (" 37.5"); a query string may not.
            guard let number = DecimalText.number(text.trimmingWhitespace()) else {
                throw .invalid(field, "\(field) must be a number, got \(PlacesError.quoted(text))")
            }
            return number
        default: throw .invalid(field, "\(field) must be a number")
        }
    }

    private func tags() throws(PlacesError) -> [String] {
        guard let (_, value) = value(["tags"]) else { return [] }
        var raw: [String] = []
        switch value {
        case .text(let text):
            raw = text.utf8.split(separator: UInt8(ascii: ";")).map { String(decoding: $0, as: UTF8.self) }
        case .list(let items):
            for item in items {
                guard case .text(let tag) = item else { throw .invalid("tags", "tags must be a list of text") }
                raw.append(tag)
            }
        default: throw .invalid("tags", "tags must be a list of text or one text separated by ';'")
        }
        var tags: [String] = []
        for tag in raw {
            let text = tag.trimmingWhitespace().nfc.lowercased()
            if text.isEmpty || tags.contains(text) { continue }
            try PlacesError.checkPrintable(text, field: "tags", allowLineBreaks: false)
            guard text.count <= PlaceLimits.tagLength else {
                throw .invalid("tags", "tag '\(text)' is longer than \(PlaceLimits.tagLength) characters")
            }
            tags.append(text)
        }
        guard tags.count <= PlaceLimits.tagCount else { throw .invalid("tags", "at most \(PlaceLimits.tagCount) tags") }
        return tags
    }

    private func priceLevel() throws(PlacesError) -> Int? {
        guard value(["pricelevel"]) != nil else { return nil }
        let level = try number(["pricelevel"], field: "priceLevel")
        guard level == level.rounded(), (1...4).contains(level) else {
            throw .invalid("priceLevel", "priceLevel must be a whole number from 1 to 4")
        }
        return Int(level)
    }

    private static let phoneBytes = Set("0123456789+-(). /".utf8)

    private func phone() throws(PlacesError) -> String? {
        guard let phone = try optionalText("phone", limit: PlaceLimits.phoneLength) else { return nil }
        guard phone.utf8.allSatisfy({ PlaceDraft.phoneBytes.contains($0) }), phone.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else {
            throw .invalid("phone", "phone may hold digits, spaces and + - ( ) . / only")
        }
        return phone
    }

    private func website() throws(PlacesError) -> String? {
        guard let website = try optionalText("website", limit: PlaceLimits.websiteLength) else { return nil }
        try TextRules.checkWebURL(website, field: "website")
        return website
    }

    private func timeZone() throws(PlacesError) -> String? {
        guard let zone = try optionalText("timeZone", key: "timezone", limit: 64) else { return nil }
        guard TimeZoneNames.isKnown(zone) else { throw .invalid("timeZone", "unknown IANA time zone '\(zone)'") }
        return zone
    }

    private func openingHours() throws(PlacesError) -> OpeningHours? {
        guard let (_, value) = value(["openinghours", "hours"]) else { return nil }
        var object: [String: FieldValue]
        switch value {
        case .object(let dictionary): object = dictionary
        case .text(let text):
            // A CSV cell holds the same JSON object the seed format uses.
            guard let parsed = try? JSONText.parse(text), case .object(let dictionary) = parsed else {
                throw .invalid("openingHours", #"openingHours must be an object like {"mon": ["08:00-17:00"]}"#)
            }
            object = dictionary
        default: throw .invalid("openingHours", #"openingHours must be an object like {"mon": ["08:00-17:00"]}"#)
        }
        var days: [String: [String]] = [:]
        for (day, intervals) in object {
            switch intervals {
            case .list(let items):
                days[day] = try items.map { item throws(PlacesError) in
                    guard case .text(let text) = item else { throw .invalid("openingHours", "intervals must be text like 08:00-17:00") }
                    return text
                }
            case .text(let text): days[day] = [text]
            // A null day is closed, but it must still be a day: {"": null} is refused, not dropped.
            case .null: days[day] = []
            default: throw .invalid("openingHours", "intervals must be a list like [\"08:00-17:00\"]")
            }
        }
        return try OpeningHours.parse(days)
    }

    // MARK: - Ids and text rules

    /// Ids that name a route under `/v1/places/` and so can never name a place.
    public static let reservedIDs: Set<String> = ["nearby", "search", "within", "clusters"]

    /// Checks an id: 1–100 letters, digits, `-`, `_`, `.` or `:`, safe in a URL path, and not a route's name.
    public static func checkID(_ id: String, field: String = "id") throws(PlacesError) {
        if reservedIDs.contains(id) { throw .invalid(field, "'\(id)' names a route and cannot be a place id") }
        guard !id.isEmpty, id.utf8.count <= PlaceLimits.idLength,
            id.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x3A
            })
        else {
            throw .invalid(field, "id must be 1–\(PlaceLimits.idLength) letters, digits, '-', '_', '.' or ':'")
        }
    }

    /// The stable id of a place given without one: `p-` and 16 hex digits of a hash of its name and coordinate
    /// (rounded to 1e-7°, about a centimetre), so loading the same row twice gives the same id.
    public static func derivedID(name: String, coordinate: Coordinate) -> String {
        var hash = FNV1a64()
        hash.combine(bytes: name.nfc.utf8)
        hash.combine(byte: 0x7C)
        hash.combine(number: Int64((coordinate.latitude * 1e7).rounded()))
        hash.combine(byte: 0x7C)
        hash.combine(number: Int64((coordinate.longitude * 1e7).rounded()))
        let hex = String(hash.value, radix: 16)
        return "p-" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// FNV-1a, 64 bits: a small stable hash for derived ids (stable across runs and platforms, unlike `Hasher`).
struct FNV1a64 {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func combine(byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    mutating func combine(bytes: some Sequence<UInt8>) {
        for byte in bytes { combine(byte: byte) }
    }

    mutating func combine(number: Int64) {
        withUnsafeBytes(of: number.littleEndian) { combine(bytes: $0) }
    }
}
