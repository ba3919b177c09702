import Foundation
import PlacesCore
import PlacesTestSupport
import Synchronization
import Testing

@testable import PlacesSQLite

/// What keeping live streams leased costs in SQLite: one statement of one row per renewal, whatever the number of
/// streams the holder holds.
@Suite("SQLite live stream leases")
struct SQLiteLiveLeaseTests {
    /// The statements SQLite ran, while listening.
    final class Statements: Sendable {
        private let state = Mutex<(listening: Bool, statements: [String])>((false, []))

        func record(_ sql: String) {
            state.withLock { if $0.listening { $0.statements.append(sql) } }
        }

        func during(_ body: () async throws -> Void) async rethrows -> [String] {
            state.withLock { $0 = (true, []) }
            try await body()
            return state.withLock { state in
                state.listening = false
                return state.statements
            }
        }
    }

    /// The statements of a renewal of holder `a` while it holds `streams` streams (of one person in five).
    static func renewal(streams: Int) async throws -> [String] {
        let log = Statements()
        let database = try PlacesDatabase.inMemory(statements: { log.record($0) })
        let live = database.live
        for index in 0..<streams {
            let opened = try await live.openStream(
                id: "s-\(index)",
                userID: "u-\(index / 5)",
                holder: "a",
                now: TestPlaces.now,
                until: TestPlaces.now.addingTimeInterval(20),
                allowed: 5
            )
            #expect(opened)
        }
        return try await log.during {
            try await live.renewStreams(holder: "a", until: TestPlaces.now.addingTimeInterval(40))
        }.filter { sql in !sql.hasPrefix("BEGIN") && !sql.hasPrefix("COMMIT") }
    }

    @Test func aRenewalIsOneStatementForOneStreamAsForFiveHundred() async throws {
        let one = try await Self.renewal(streams: 1)
        let many = try await Self.renewal(streams: 500)
        #expect(one.count == 1, "\(one)")
        #expect(many == one)
        #expect(many.first?.contains("live_holder") == true, "\(many)")
    }
}
