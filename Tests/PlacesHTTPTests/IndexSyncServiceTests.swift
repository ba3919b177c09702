import Foundation
import GeoIndex
import Logging
import PlacesCore
import PlacesHTTP
import PlacesSQLite
import Testing

@Suite("Index sync service")
struct IndexSyncServiceTests {
    @Test func aRunningServerPicksUpWhatAnotherProcessSeeded() async throws {
        try await TestApp.withDatabaseFile { path in
            let server = try PlacesDatabase(path: path)
            let places = PlaceService(repository: server.places, index: PlaceIndex())
            try await places.loadIndex()
            let sync = Task {
                await ChangeFeed(repository: server.feed).follow([IndexSubscriber(places, poll: .milliseconds(20))])
            }
            defer { sync.cancel() }

            // Another connection to the same file stands in for `places seed` in another process.
            let cli = try PlacesDatabase(path: path)
            try await cli.places.seed([TestApp.place("new", 48.85, 2.35)])
            // A guard against a sync that never comes, not a measure: a full run on a busy machine stretches each
            // test's time many times over (cases that take a second alone were seen to take 40 to 100).
            let deadline = ContinuousClock.now + .seconds(120)
            while places.indexedCount == 0 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            let answer = places.nearby(try NearbyQuery(center: Coordinate(latitude: 48.85, longitude: 2.35), radiusMiles: 1))
            #expect(answer.places.map(\.id) == ["new"])
        }
    }
}
