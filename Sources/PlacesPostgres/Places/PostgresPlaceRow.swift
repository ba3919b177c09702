import Foundation
import GeoIndex
import Logging
import PlacesCore
import PostgresNIO

/// How a place is laid out in the `place` table of PostgreSQL; internal to the storage target.
enum PostgresPlaceRow {
    /// The columns a summary needs, in the order `summary` reads them.
    static let summaryColumns =
        "id, kind, name, latitude, longitude, city, tags, cuisine, price_level, opening_hours, time_zone, rating_count, rating_sum, description, photo_count, cover_photo_id"

    /// The columns a place is written with, in the order `values` gives them (`revision` last).
    static let writtenColumns =
        "id, kind, name, description, latitude, longitude, address, city, tags, cuisine, price_level, phone, website, opening_hours, time_zone, owner_id, seed_source, created_at, updated_at, deleted_at, revision"

    /// What a written row carries as its `revision`: the id of the transaction writing it (a seed tells the rows it
    /// wrote itself by it). The feed's trigger records the change.
    static let writerStamp = "pg_current_xact_id()::text::bigint"

    /// Inserts one place; with `limit`, only while its owner added fewer places since the limit's moment than it
    /// allows (then nothing is inserted, and no row is answered). Every new place runs it.
    struct Insert: PreparedStatement {
        static let name = "places_place_insert"
        static let sql = """
            INSERT INTO place (\(writtenColumns)) SELECT
                $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, \(writerStamp)
            WHERE NOT $21 OR NOT EXISTS (SELECT 1 FROM place WHERE owner_id = $22 AND created_at >= $23 LIMIT 1 OFFSET $24)
            RETURNING id
            """
        static let bindingDataTypes: [PostgresDataType] = [
            .text, .text, .text, .text, .float8, .float8, .text, .text, .text, .text, .int8, .text, .text, .text, .text, .text,
            .text, .text, .text, .text, .bool, .text, .text, .int8,
        ]
        let place: Place
        let limit: AdditionLimit?

        var values: [(any PostgresThrowingDynamicTypeEncodable & Sendable)?] {
            [
                place.id, place.kind.rawValue, place.name, place.description, place.coordinate.latitude, place.coordinate.longitude,
                place.address, place.city, StoredText.encodeTags(place.tags), place.cuisine, place.priceLevel, place.phone,
                place.website, place.openingHours.map(StoredText.encodeHours), place.timeZone, place.ownerID, place.seedSource,
                Timestamp.text(place.createdAt), Timestamp.text(place.updatedAt), place.deletedAt.map(Timestamp.text),
                limit != nil, place.ownerID ?? "", limit.map { Timestamp.text($0.since) } ?? "",
                limit.map { max($0.allowed - 1, 0) } ?? Int.max,
            ]
        }
    }

    /// A place by its id, whole (`place(_:)` reads the row): every read of a place runs it.
    struct Lookup: PreparedStatement {
        static let name = "places_place_lookup"
        static let sql = "SELECT \(readColumns) FROM place WHERE id = $1"
        static let bindingDataTypes: [PostgresDataType] = [.text]
        let id: String
        var values: [(any PostgresThrowingDynamicTypeEncodable & Sendable)?] { [id] }
    }

    /// The columns `place(_:)` reads.
    static let readColumns =
        "id, kind, name, description, latitude, longitude, address, city, tags, cuisine, price_level, phone, website, opening_hours, time_zone, owner_id, seed_source, created_at, updated_at, deleted_at, rating_count, rating_sum, photo_count, cover_photo_id"

    /// Rewrites a stored place whole (all but its id and creation time); answers how many rows changed (0 when there
    /// is no such place).
    static func replace(_ place: Place) -> PostgresQuery {
        """
        UPDATE place SET kind = \(place.kind.rawValue), name = \(place.name), description = \(place.description),
            latitude = \(place.coordinate.latitude), longitude = \(place.coordinate.longitude), address = \(place.address),
            city = \(place.city), tags = \(StoredText.encodeTags(place.tags)), cuisine = \(place.cuisine),
            price_level = \(place.priceLevel), phone = \(place.phone), website = \(place.website),
            opening_hours = \(place.openingHours.map(StoredText.encodeHours)), time_zone = \(place.timeZone),
            owner_id = \(place.ownerID), seed_source = \(place.seedSource), updated_at = \(Timestamp.text(place.updatedAt)),
            deleted_at = \(place.deletedAt.map(Timestamp.text)), revision = \(unescaped: writerStamp)
        WHERE id = \(place.id)
        """
    }

    /// Decodes a whole place from a row holding `readColumns` (or all of `place`'s columns).
    static func place(_ row: PostgresRandomAccessRow) throws -> Place {
        let kindText: String = try row.get("kind")
        guard let kind = PlaceKind(rawValue: kindText) else {
            throw PlacesError(.internalError, "stored place has an unknown kind")
        }
        var place = Place(
            id: try row.get("id"),
            kind: kind,
            name: try row.get("name"),
            description: try row.get("description"),
            coordinate: Coordinate(latitude: try row.get("latitude"), longitude: try row.get("longitude")),
            createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at")
        )
        place.address = try row.get("address")
        place.city = try row.get("city")
        place.tags = StoredText.decodeTags(try row.get("tags"))
        place.cuisine = try row.get("cuisine")
        place.priceLevel = try row.get("price_level")
        place.phone = try row.get("phone")
        place.website = try row.get("website")
        place.openingHours = StoredText.decodeHours(try row.get("opening_hours"))
        place.timeZone = try row.get("time_zone")
        place.ownerID = try row.get("owner_id")
        place.seedSource = try row.get("seed_source")
        place.deletedAt = try row.optionalDate("deleted_at")
        place.rating = RatingAggregate(count: try row.get("rating_count"), sum: try row.get("rating_sum"))
        place.photoCount = try row.get("photo_count")
        place.coverPhotoID = try row.get("cover_photo_id")
        return place
    }

    /// A row of `summaryColumns`, decoded by position (a million of them load at start-up).
    typealias SummaryColumns = (
        String, String, String, Double, Double, String?, String, String?, Int?, String?, String?, Int, Int, String?, Int, String?
    )

    /// Decodes a row of `summaryColumns`, a cell at a time with each column's own type. (A million of them load at
    /// start-up: decoding the row as one tuple, through the generic `decode`, made the tuple's type at run time for
    /// every row, and took 30% of a load's time.)
    static func summaryColumns(_ row: PostgresRow) throws -> SummaryColumns {
        var cells = row.makeIterator()
        func next<Value: PostgresDecodable>(_: Value.Type) throws -> Value {
            guard let cell = cells.next() else { throw PlacesError(.internalError, "a place's row lacks a column") }
            return try cell.decode(Value.self)
        }
        return (
            try next(String.self), try next(String.self), try next(String.self), try next(Double.self), try next(Double.self),
            try next(String?.self), try next(String.self), try next(String?.self), try next(Int?.self), try next(String?.self),
            try next(String?.self), try next(Int.self), try next(Int.self), try next(String?.self), try next(Int.self),
            try next(String?.self)
        )
    }

    /// Decodes a summary from a row of `summaryColumns`; `shared` lets equal tag lists, opening hours and time zones
    /// share one stored value across places.
    static func summary(_ columns: SummaryColumns, shared: inout SharedValues) -> PlaceSummary? {
        guard let kind = PlaceKind(rawValue: columns.1) else { return nil }
        var summary = PlaceSummary(
            id: columns.0,
            kind: kind,
            name: columns.2,
            coordinate: Coordinate(latitude: columns.3, longitude: columns.4),
            city: columns.5
        )
        summary.tags = shared.tags(columns.6)
        summary.cuisine = shared.text(columns.7)
        summary.priceLevel = columns.8
        summary.openingHours = shared.hours(columns.9)
        summary.timeZone = shared.text(columns.10)
        summary.rating = RatingAggregate(count: columns.11, sum: columns.12)
        summary.description = columns.13 ?? ""
        summary.photoCount = columns.14
        summary.coverPhotoID = columns.15
        return summary
    }
}
