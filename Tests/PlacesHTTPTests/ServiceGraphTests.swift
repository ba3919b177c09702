import Foundation
import PlacesCore
import PlacesSQLite
import Testing

@Suite("The service graph")
struct ServiceGraphTests {
    /// Acting as someone (settings, notifications, groups) reads no place; showing places loads the index once.
    @Test func theIndexLoadsOnlyWhenPlacesAreShown() async throws {
        let database = try PlacesDatabase.inMemory()
        try await database.places.seed(Lisbon.places)
        let services = PlacesServices(repositories: database.repositories, hasher: try TestApp.hasher(), clock: { TestApp.now })
        let registration = Registration(username: "ana", password: "correct horse battery", profile: ProfilePatch(email: .set("ana@example.com")))
        let ana = try await services.accounts.register(registration, clientAddress: "test")
        _ = try await services.accounts.settings(userID: ana.id)
        _ = try await services.notifications.list(recipientID: ana.id, page: PageRequest())
        _ = try await services.groups.groups(ana, page: PageRequest())
        #expect(services.places.indexedCount == 0, "nothing spatial was asked")
        // A write made while the index is not loaded leaves it so: it is read whole when first needed.
        try await services.places.syncIndex()
        #expect(services.places.indexedCount == 0)
        let favorites = try await services.places.favorites(user: ana, center: nil, page: PageRequest())
        #expect(favorites.items.isEmpty)
        #expect(services.places.indexedCount == Lisbon.places.count, "showing places loaded the index")
    }
}
