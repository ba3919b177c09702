import Foundation
import PlacesCore
import Testing

/// What every `AccountRepository` does with sessions, passwords, settings and export.
extension AccountRepositoryContract {
    static func session(_ token: String, of userID: String, at seconds: Int = 0) -> Session {
        Session(tokenHash: token, userID: userID, createdAt: Sample.at(seconds), expiresAt: Sample.at(seconds + 86_400))
    }

    static var sessionCases: [ContractCase] {
        [
            ContractCase("accounts", "a session is stored, found by its token hash with the user it signs in, and ended") { store in
                let ann = try await store.addUsers("ann")[0]
                let session = session("hash-1", of: ann)
                try await store.accounts.insert(session)
                let found = try await store.accounts.session(tokenHash: "hash-1")
                #expect(found?.session == session)
                #expect(found?.user == (try await store.accounts.user(id: ann)))
                #expect(try await store.accounts.session(tokenHash: "hash-2") == nil)
                try await store.accounts.deleteSession(tokenHash: "hash-1")
                #expect(try await store.accounts.session(tokenHash: "hash-1") == nil)
                try await store.accounts.deleteSession(tokenHash: "hash-1")
            },
            ContractCase("accounts", "updatePassword sets the hash and ends every session of the user but the one kept") { store in
                let ids = try await store.addUsers("ann", "bob")
                for token in ["a1", "a2", "a3"] { try await store.accounts.insert(session(token, of: ids[0])) }
                try await store.accounts.insert(session("b1", of: ids[1]))
                try await store.accounts.updatePassword(userID: ids[0], hash: "new-hash", keeping: "a2", now: Sample.at(10))
                #expect(try await store.accounts.user(id: ids[0])?.passwordHash == "new-hash")
                #expect(try await store.accounts.session(tokenHash: "a1") == nil)
                #expect(try await store.accounts.session(tokenHash: "a2") != nil)
                #expect(try await store.accounts.session(tokenHash: "a3") == nil)
                #expect(try await store.accounts.session(tokenHash: "b1") != nil, "another user's sessions stay")
                try await store.accounts.updatePassword(userID: ids[0], hash: "newer-hash", keeping: nil, now: Sample.at(20))
                #expect(try await store.accounts.session(tokenHash: "a2") == nil)
                #expect(try await store.accounts.user(id: ids[0])?.passwordHash == "newer-hash")
            },
            ContractCase("accounts", "settings are nil until saved, saved whole, and read for several users in one call") { store in
                let ids = try await store.addUsers("ann", "bob", "cy")
                #expect(try await store.accounts.settings(userID: ids[0]) == nil)
                var settings = UserSettings()
                settings.language = "fr"
                settings.units = .km
                settings.defaultLocation = UserSettings.Location(lat: 48.85, lon: 2.35)
                settings.notifications.sms = true
                try await store.accounts.save(settings, userID: ids[0], now: Sample.at(1))
                #expect(try await store.accounts.settings(userID: ids[0]) == settings)
                settings.language = "de"
                try await store.accounts.save(settings, userID: ids[0], now: Sample.at(2))
                #expect(try await store.accounts.settings(userID: ids[0]) == settings, "a save replaces the settings whole")
                try await store.accounts.save(UserSettings(), userID: ids[2], now: Sample.at(3))

                #expect(try await store.accounts.settings(userIDs: ids + ["u-ghost"]) == [ids[0]: settings, ids[2]: UserSettings()])
                #expect(try await store.accounts.settings(userIDs: []).isEmpty)
            },
            ContractCase("accounts", "export answers everything stored about the user, and nil for an unknown user") { store in
                let ann = try await store.addUsers("ann")[0]
                try await store.places.insert(Sample.place("mine", owner: ann))
                try await store.places.seed([Sample.place("other")])
                try await store.accounts.insert(session("a1", of: ann, at: 5))
                try await store.places.setFavorite(userID: ann, placeID: "other", favorite: true, now: Sample.at(7))
                let rating = Rating(placeId: "other", userId: ann, stars: 4, review: "Nice", createdAt: Sample.at(8), updatedAt: Sample.at(8))
                _ = try await store.places.save(rating)

                let plain = try #require(try await store.accounts.export(userID: ann))
                #expect(plain.settings == UserSettings(), "the defaults, when nothing was saved")
                var settings = UserSettings()
                settings.language = "es"
                try await store.accounts.save(settings, userID: ann, now: Sample.at(9))
                let export = try #require(try await store.accounts.export(userID: ann))
                #expect(export.account == OwnUser(Sample.user("ann")))
                #expect(export.settings == settings)
                #expect(export.sessions.map(\.createdAt) == [Sample.at(5)] && export.sessions.map(\.expiresAt) == [Sample.at(86_405)])
                #expect(export.favorites.map(\.placeId) == ["other"] && export.favorites.map(\.createdAt) == [Sample.at(7)])
                #expect(export.ratings == [rating])
                #expect(export.places == ["mine"])
                #expect(try await store.accounts.export(userID: "u-ghost") == nil)
            },
        ]
    }
}
