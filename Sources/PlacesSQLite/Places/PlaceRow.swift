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

    /// The columns a summary needs.
    static let summaryColumns = "id, kind, name, latitude, longitude, city"

    /// `INSERT INTO place (columns) VALUES (?, …)`, for `PlaceBinding`.
    static let insertSQL =
        "INSERT INTO place (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"

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
            createdAt: Timestamp.date(row["created_at"]) ?? Date(timeIntervalSince1970: 0),
            updatedAt: Timestamp.date(row["updated_at"]) ?? Date(timeIntervalSince1970: 0)
        )
        place.address = row["address"]
        place.city = row["city"]
        place.tags = decodeTags(row["tags"])
        place.cuisine = row["cuisine"]
        place.priceLevel = row["price_level"]
        place.phone = row["phone"]
        place.website = row["website"]
        if let hours: String = row["opening_hours"] {
            place.openingHours = try? JSONDecoder().decode(OpeningHours.self, from: Data(hours.utf8))
        }
        place.timeZone = row["time_zone"]
        place.ownerID = row["owner_id"]
        place.seedSource = row["seed_source"]
        place.deletedAt = (row["deleted_at"] as String?).flatMap(Timestamp.date)
        return place
    }

    /// Decodes a summary from a row of `summaryColumns`.
    static func summary(_ row: Row) -> PlaceSummary? {
        guard let kind = PlaceKind(rawValue: row[1]) else { return nil }
        return PlaceSummary(
            id: row[0],
            kind: kind,
            name: row[2],
            coordinate: Coordinate(latitude: row[3], longitude: row[4]),
            city: row[5]
        )
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

    static func decodeTags(_ json: String?) -> [String] {
        guard let json, let tags = try? JSONDecoder().decode([String].self, from: Data(json.utf8)) else { return [] }
        return tags
    }

    static func encodeHours(_ hours: OpeningHours) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(hours)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
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
