import Foundation
import GRDB
import GeoIndex
import PlacesCore

/// How a place is laid out in the `place` table; internal to the storage target.
enum PlaceRow {
    /// The columns, in the order `PlaceBinding` binds them.
    static let columns = [
        "id", "kind", "name", "description", "latitude", "longitude", "address", "city", "tags", "cuisine", "price_level",
        "phone", "website", "opening_hours", "time_zone", "owner_id", "seed_source", "created_at", "updated_at", "deleted_at",
        "revision",
    ]

    /// The columns a summary needs, in the order `summary` reads them.
    static let summaryColumns =
        "id, kind, name, latitude, longitude, city, tags, cuisine, price_level, opening_hours, time_zone, rating_count, rating_sum"
    /// How many columns `summaryColumns` names.
    static let summaryColumnCount = 13

    /// `INSERT INTO place (columns) VALUES (?, …)`, for `PlaceBinding`.
    static let insertSQL =
        "INSERT INTO place (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"

    /// Rewrites a stored place whole (all but its id and creation time), for `PlaceBinding`.
    static let replaceSQL =
        insertSQL + " ON CONFLICT (id) DO UPDATE SET "
        + columns.filter { $0 != "id" && $0 != "created_at" }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")

    /// Decodes a whole place from a `SELECT *` row.
    static func place(_ row: Row) throws -> Place {
        guard let kind = PlaceKind(rawValue: row["kind"]) else {
            throw PlacesError(.internalError, "stored place has an unknown kind")
        }
        var place = Place(
            id: row["id"],
            kind: kind,
            name: row["name"],
            description: row["description"],
            coordinate: Coordinate(latitude: row["latitude"], longitude: row["longitude"]),
            createdAt: row.date("created_at"),
            updatedAt: row.date("updated_at")
        )
        place.address = row["address"]
        place.city = row["city"]
        place.tags = decodeTags(row["tags"])
        place.cuisine = row["cuisine"]
        place.priceLevel = row["price_level"]
        place.phone = row["phone"]
        place.website = row["website"]
        place.openingHours = decodeHours(row["opening_hours"])
        place.timeZone = row["time_zone"]
        place.ownerID = row["owner_id"]
        place.seedSource = row["seed_source"]
        place.deletedAt = (row["deleted_at"] as String?).flatMap(Timestamp.date)
        place.rating = RatingAggregate(count: row["rating_count"], sum: row["rating_sum"])
        return place
    }

    /// Decodes a summary from a row of `summaryColumns`; `shared` lets equal tag lists, opening hours and time zones
    /// share one stored value across places.
    static func summary(_ row: Row, shared: inout SharedValues) -> PlaceSummary? {
        guard let kind = PlaceKind(rawValue: row[1]) else { return nil }
        var summary = PlaceSummary(
            id: row[0],
            kind: kind,
            name: row[2],
            coordinate: Coordinate(latitude: row[3], longitude: row[4]),
            city: row[5]
        )
        summary.tags = shared.tags(row[6])
        summary.cuisine = shared.text(row[7])
        summary.priceLevel = row[8]
        summary.openingHours = shared.hours(row[9])
        summary.timeZone = shared.text(row[10])
        summary.rating = RatingAggregate(count: row[11], sum: row[12])
        return summary
    }

    /// Tags as a JSON array of strings; written by hand because a million seed rows make JSONEncoder's cost show.
    static func encodeTags(_ tags: [String]) -> String {
        var json = "["
        for (index, tag) in tags.enumerated() {
            if index > 0 { json += "," }
            json += "\""
            // Most tags are plain ASCII words: no escaping, so append them whole.
            if tag.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x80 && $0 != 0x22 && $0 != 0x5C }) {
                json += tag
                json += "\""
                continue
            }
            for scalar in tag.unicodeScalars {
                switch scalar {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                case "\n": json += "\\n"
                case "\r": json += "\\r"
                case "\t": json += "\\t"
                case _ where scalar.value < 0x20:
                    json += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                default: json.unicodeScalars.append(scalar)
                }
            }
            json += "\""
        }
        return json + "]"
    }

    /// Tags from their JSON array; read with the seed files' own parser, which is much faster than JSONDecoder
    /// when a million summaries load at start-up.
    static func decodeTags(_ json: String?) -> [String] {
        guard let json, json != "[]", case .list(let items)? = try? JSONText.parse(json) else { return [] }
        return items.compactMap { item in
            if case .text(let tag) = item { return tag }
            return nil
        }
    }

    /// Opening hours from their JSON object; nil when absent or unreadable.
    static func decodeHours(_ json: String?) -> OpeningHours? {
        guard let json, case .object(let days)? = try? JSONText.parse(json) else { return nil }
        var texts: [String: [String]] = [:]
        for (day, value) in days {
            guard case .list(let items) = value else { return nil }
            texts[day] = items.compactMap { item in
                if case .text(let text) = item { return text }
                return nil
            }
        }
        return try? OpeningHours.parse(texts)
    }

    static func encodeHours(_ hours: OpeningHours) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(hours)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }
}

/// Decoded column values shared by the places that store the same text.
///
/// A million summaries held in memory mostly repeat a few tag lists, cuisines, time zones and opening hours;
/// decoding each distinct text once and reusing the value keeps one copy of its storage instead of a million
/// (a two-tag list alone costs about 80 bytes a place) and skips the repeated parsing. Only the first
/// `capacity` distinct texts of each column are remembered, so places that are all different cost no more.
struct SharedValues {
    static let capacity = 4_096
    private var tagLists: [String: [String]] = [:]
    private var openingHours: [String: OpeningHours] = [:]
    private var texts: [String: String] = [:]

    /// The tags a JSON array holds.
    mutating func tags(_ json: String?) -> [String] {
        guard let json else { return [] }
        if let tags = tagLists[json] { return tags }
        let tags = PlaceRow.decodeTags(json)
        if tagLists.count < Self.capacity { tagLists[json] = tags }
        return tags
    }

    /// The opening hours a JSON object holds, nil when absent or unreadable.
    mutating func hours(_ json: String?) -> OpeningHours? {
        guard let json else { return nil }
        if let hours = openingHours[json] { return hours }
        let hours = PlaceRow.decodeHours(json)
        if let hours, openingHours.count < Self.capacity { openingHours[json] = hours }
        return hours
    }

    /// The text itself, sharing storage with an equal text seen before.
    mutating func text(_ text: String?) -> String? {
        guard let text else { return nil }
        if let shared = texts[text] { return shared }
        if texts.count < Self.capacity { texts[text] = text }
        return text
    }
}

/// Times as stored: ISO-8601 UTC text with milliseconds, which sorts as it reads.
enum Timestamp {
    static func text(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    static func date(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}

extension Row {
    /// The time a NOT NULL column holds as text; the epoch when the text does not parse (this engine writes none such).
    func date(_ column: String) -> Date {
        Timestamp.date(self[column]) ?? Date(timeIntervalSince1970: 0)
    }

    /// The time the column at `index` holds as text, as `date(_:)` by name reads it.
    func date(_ index: Int) -> Date {
        Timestamp.date(self[index]) ?? Date(timeIntervalSince1970: 0)
    }
}
