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
        "id, kind, name, latitude, longitude, city, tags, cuisine, price_level, opening_hours, time_zone, rating_count, rating_sum, description, photo_count, cover_photo_id"
    /// How many columns `summaryColumns` names.
    static let summaryColumnCount = 16

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
        place.tags = StoredText.decodeTags(row["tags"])
        place.cuisine = row["cuisine"]
        place.priceLevel = row["price_level"]
        place.phone = row["phone"]
        place.website = row["website"]
        place.openingHours = StoredText.decodeHours(row["opening_hours"])
        place.timeZone = row["time_zone"]
        place.ownerID = row["owner_id"]
        place.seedSource = row["seed_source"]
        place.deletedAt = (row["deleted_at"] as String?).flatMap(Timestamp.date)
        place.rating = RatingAggregate(count: row["rating_count"], sum: row["rating_sum"])
        place.photoCount = row["photo_count"]
        place.coverPhotoID = row["cover_photo_id"]
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
        summary.description = row[13] ?? ""
        summary.photoCount = row[14]
        summary.coverPhotoID = row[15]
        return summary
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
