import Foundation
import GRDB
import GRDBSQLite
import PlacesCore

/// Binds a place to a prepared statement over `PlaceRow.columns`, through SQLite's C API.
///
/// A million-row seed spends most of its time turning values into statement arguments; binding directly
/// avoids boxing every value, and the two timestamps (the same for every row of a seed) are formatted once.
struct PlaceBinding {
    let statement: Statement
    private var formattedDate: (date: Date, text: String)?

    /// Prepares `sql`, whose parameters are `PlaceRow.columns` in order.
    init(db: Database, sql: String) throws {
        statement = try db.makeStatement(sql: sql)
    }

    /// Binds `place` at `revision` and runs the statement once; returns how many rows it changed.
    mutating func execute(_ place: Place, revision: Int64, in db: Database) throws -> Int {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        var index: Int32 = 0
        func text(_ value: String?) {
            index += 1
            guard var value else {
                sqlite3_bind_null(handle, index)
                return
            }
            guard !value.isEmpty else {
                sqlite3_bind_text(handle, index, "", 0, SQLITE_TRANSIENT)
                return
            }
            // Binding the UTF-8 bytes in place avoids a C-string copy and a strlen per value.
            value.withUTF8 { bytes in
                _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                    sqlite3_bind_text(handle, index, chars.baseAddress, Int32(chars.count), SQLITE_TRANSIENT)
                }
            }
        }
        func real(_ value: Double) {
            index += 1
            sqlite3_bind_double(handle, index, value)
        }
        func integer(_ value: Int64?) {
            index += 1
            if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
        }
        text(place.id)
        text(place.kind.rawValue)
        text(place.name)
        text(place.description)
        real(place.coordinate.latitude)
        real(place.coordinate.longitude)
        text(place.address)
        text(place.city)
        text(StoredText.encodeTags(place.tags))
        text(place.cuisine)
        integer(place.priceLevel.map(Int64.init))
        text(place.phone)
        text(place.website)
        text(place.openingHours.map(StoredText.encodeHours))
        text(place.timeZone)
        text(place.ownerID)
        text(place.seedSource)
        text(format(place.createdAt))
        text(format(place.updatedAt))
        text(place.deletedAt.map { Timestamp.text($0) })
        integer(revision)
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
        }
        return db.changesCount
    }

    private mutating func format(_ date: Date) -> String {
        if let formattedDate, formattedDate.date == date { return formattedDate.text }
        let text = Timestamp.text(date)
        formattedDate = (date, text)
        return text
    }
}

/// SQLite's "copy the bytes now" destructor, which the C macro SQLITE_TRANSIENT spells as -1.
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
