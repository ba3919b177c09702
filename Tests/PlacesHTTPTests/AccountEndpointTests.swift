import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import PlacesSQLite
import Synchronization
import Testing

@testable import PlacesHTTP

@Suite("Accounts, sessions and settings over HTTP")
struct AccountEndpointTests {
    @Test func signUpLogInSeeYourselfLogOut() async throws {
        try await TestApp.withClient([]) { client in
            let own = try await client.register([
                "username": "Ada.L", "email": " Ada@Example.COM ", "password": "analytical engine", "displayName": "Ada",
            ])
            #expect(own["email"] as? String == "ada@example.com")
            #expect(own["passwordHash"] == nil)

            // Usernames are unique regardless of case, and e-mails once normalised.
            let taken = try await client.json(.post, "/v1/auth/register", body: [
                "username": "ada.l", "email": "other@example.com", "password": "analytical engine",
            ])
            #expect(taken.status == .conflict)
            #expect(try TestApp.error(taken.body).field == "username")
            let emailTaken = try await client.json(.post, "/v1/auth/register", body: [
                "username": "ada2", "email": "ADA@example.com", "password": "analytical engine",
            ])
            #expect(try TestApp.error(emailTaken.body).field == "email")

            let login = try await client.logIn(["email": "ada@EXAMPLE.com"], password: "analytical engine", expect: .ok)
            let issued = try TestApp.object(login.body)
            let token = try #require(issued["token"] as? String)
            #expect(token.count == 43)
            #expect(issued["expiresAt"] as? String == "2027-02-14T08:00:00Z")

            let me = try await client.json(.get, "/v1/me", token: token)
            #expect(try TestApp.object(me.body)["displayName"] as? String == "Ada")

            #expect(try await client.json(.post, "/v1/auth/logout", token: token).status == .noContent)
            let after = try await client.json(.get, "/v1/me", token: token)
            #expect(after.status == .unauthorized)
            #expect(after.headers[.wwwAuthenticate] == "Bearer")
        }
    }

    @Test func needsBudgetAndSharingAreSettingsWithTheirOwnRules() async throws {
        try await TestApp.withClient([]) { client in
            let token = try await client.signUp("eater")
            let defaults = try TestApp.object(try await client.json(.get, "/v1/me/settings", token: token).body)
            #expect(defaults["dietaryNeeds"] as? [String] == [] && defaults["maxPrice"] == nil)
            #expect(defaults["shareLocationForMeet"] as? Bool == false && (defaults["notifications"] as? [String: Any])?["adminAlerts"] as? Bool == true)
            // Each need once, in the list's order, however sent.
            let patched = try await client.object(.patch, "/v1/me/settings", token: token, body: [
                "dietaryNeeds": ["nut-free", "vegan", "vegan"], "maxPrice": 2, "shareLocationForMeet": true, "notifications": ["adminAlerts": false],
            ])
            #expect(patched["dietaryNeeds"] as? [String] == ["vegan", "nut-free"] && patched["maxPrice"] as? Int == 2)
            #expect(patched["shareLocationForMeet"] as? Bool == true && (patched["notifications"] as? [String: Any])?["adminAlerts"] as? Bool == false)
            for (body, field) in [
                (["dietaryNeeds": ["paleo"]], "dietaryNeeds"), (["dietaryNeeds": "vegan"], "dietaryNeeds"), (["maxPrice": 5], "maxPrice"),
                (["maxPrice": 1.5], "maxPrice"), (["shareLocationForMeet": "yes"], "shareLocationForMeet"),
            ] as [([String: Any], String)] {
                #expect(try await client.error(.patch, "/v1/me/settings", token: token, body: body, expect: .badRequest).field == field, "\(body)")
            }
            // null clears each back to its default.
            let cleared = try await client.object(.patch, "/v1/me/settings", token: token, body: [
                "dietaryNeeds": NSNull(), "maxPrice": NSNull(), "shareLocationForMeet": NSNull(),
            ])
            #expect(cleared["dietaryNeeds"] as? [String] == [] && cleared["maxPrice"] == nil && cleared["shareLocationForMeet"] as? Bool == false)
        }
    }

    @Test(arguments: [
        (["username": "ab", "email": "a@b.co", "password": "long enough pw"], "username"),
        (["username": "has space", "email": "a@b.co", "password": "long enough pw"], "username"),
        (["username": "abc", "password": "long enough pw"], "email"),
        (["username": "abc", "email": "nope", "password": "long enough pw"], "email"),
        (["username": "abc", "phone": "12345", "password": "long enough pw"], "phone"),
        (["username": "abc", "email": "a@b.co", "password": "short"], "password"),
        (["username": "abcdefghij", "email": "a@b.co", "password": "ABCDEFGHIJ"], "password"),
        (["username": "abc", "email": "a@b.co", "password": String(repeating: "é", count: 37)], "password"),
        (["username": "abc", "email": "a@b.co", "password": "long enough pw", "admin": true], "admin"),
        // What the document's patterns forbid is refused, not repaired: an empty address beside a phone number, white
        // space inside an address or around it other than spaces, tabs and line breaks.
        (["username": "abc", "email": "", "phone": "+44 20 7946 0958", "password": "long enough pw"], "email"),
        (["username": "abc", "email": "a\u{00A0}b@b.co", "password": "long enough pw"], "email"),
        (["username": "abc", "email": "\u{00A0}a@b.co", "password": "long enough pw"], "email"),
        (["username": "abc", "phone": "\u{2003}+44 20 7946 0958", "password": "long enough pw"], "phone"),
        (["username": "abc", "email": "a@b.co", "password": "long enough pw", "displayName": "Ada\t"], "displayName"),
    ] as [([String: any Sendable], String)])
    func registrationRefusesBadFieldsByName(body: [String: any Sendable], field: String) async throws {
        try await TestApp.withClient([]) { client in
            let response = try await client.json(.post, "/v1/auth/register", body: body)
            #expect(response.status == .badRequest)
            let error = try TestApp.error(response.body)
            #expect(error.code == "invalid_input")
            #expect(error.field == field)
        }
    }

    @Test func loginRefusesANullNameRatherThanLookingPastIt() async throws {
        try await TestApp.withClient([]) { client in
            _ = try await client.signUp("ada")
            let body: [String: Any] = ["username": NSNull(), "email": "ada@example.com", "password": "correct horse battery"]
            let error = try await client.error(.post, "/v1/auth/login", body: body, expect: .badRequest)
            #expect(error.field == "username")
        }
    }

    @Test func malformedBodiesAreClearErrors() async throws {
        try await TestApp.withClient([]) { client in
            for body in ["", "{", "[1]", "{\"username\": 5}"] {
                let response = try await client.execute(
                    uri: "/v1/auth/register",
                    method: .post,
                    headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: body)
                ) { $0 }
                #expect(response.status == .badRequest, "\(body)")
            }
        }
    }

    @Test func unknownUserAndWrongPasswordAnswerAlike() async throws {
        try await TestApp.withClient([]) { client in
            _ = try await client.signUp("grace")
            let wrong = try await client.json(.post, "/v1/auth/login", body: ["username": "grace", "password": "not the password"])
            let unknown = try await client.json(.post, "/v1/auth/login", body: ["username": "nobody", "password": "not the password"])
            #expect(wrong.status == .unauthorized && unknown.status == .unauthorized)
            #expect(String(buffer: wrong.body) == String(buffer: unknown.body))
        }
    }

    @Test func repeatedFailuresAreThrottledPerAccountAndAddress() async throws {
        let now = Mutex(TestApp.now)
        let app = try await TestApp.togetherServices([], clock: { now.withLock { $0 } }).app
        try await app.test(.router) { client in
            let token = try await client.signUp("linus")
            for _ in 0..<10 {
                try await client.logIn(["username": "linus"], password: "wrong wrong", expect: .unauthorized)
            }
            let blocked = try await client.logIn(["username": "linus"], expect: .tooManyRequests)
            #expect(try TestApp.error(blocked.body).code == "too_many_attempts")
            let retry = try #require(blocked.headers[.retryAfter].flatMap { Int($0) })
            #expect(retry > 0 && retry <= 15 * 60)
            // The existing session is untouched, and other accounts still log in.
            #expect(try await client.json(.get, "/v1/me", token: token).status == .ok)
            _ = try await client.signUp("other")
            // Once the window has passed, the owner gets in again.
            now.withLock { $0 = $0.addingTimeInterval(15 * 60 + 1) }
            try await client.logIn(["username": "linus"], expect: .ok)
        }
    }

    @Test func loginTakesTheUsernameOrTheEmailOrThePhoneButOnlyOne() async throws {
        try await TestApp.withClient([]) { client in
            try await client.register([
                "username": "grace", "email": " Grace@Example.com", "phone": "+1 (415) 555-0100", "password": "correct horse battery",
            ])
            for who in [["username": "GRACE"], ["email": "grace@EXAMPLE.com"], ["phone": "+1 415 555 0100"]] {
                let login = try await client.logIn(who, expect: .ok)
                #expect(try TestApp.object(login.body)["token"] is String, "\(who)")
            }
            let both = try await client.json(.post, "/v1/auth/login", body: [
                "username": "grace", "email": "grace@example.com", "password": "correct horse battery",
            ])
            #expect(both.status == .badRequest)
            #expect(try TestApp.error(both.body).code == "invalid_input")
        }
    }

    @Test func theClientAddressIsThePeersUnlessATrustedProxyNamesAnother() {
        let proxies: Set<String> = ["10.0.0.1", "10.0.0.2"]
        // A client that sends X-Forwarded-For itself is not believed.
        #expect(ClientAddress.resolve(peer: "203.0.113.9", forwardedFor: "198.51.100.1", trustedProxies: proxies) == "203.0.113.9")
        // Behind the proxies, the right-most hop that is not a proxy: what a client prepends is ignored.
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: "6.6.6.6, 198.51.100.7, 10.0.0.2", trustedProxies: proxies) == "198.51.100.7")
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: nil, trustedProxies: proxies) == "10.0.0.1")
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: " , 10.0.0.2", trustedProxies: proxies) == "10.0.0.1")
        #expect(ClientAddress.resolve(peer: nil, forwardedFor: "198.51.100.7", trustedProxies: proxies) == "unknown")
    }

    @Test func tokensExpire() async throws {
        let now = Mutex(TestApp.now)
        let app = try await TestApp.togetherServices([], clock: { now.withLock { $0 } }).app
        try await app.test(.router) { client in
            let token = try await client.signUp("expiring")
            now.withLock { $0 = $0.addingTimeInterval(AccountService.defaultSessionLifetime - 1) }
            #expect(try await client.json(.get, "/v1/me", token: token).status == .ok)
            now.withLock { $0 = $0.addingTimeInterval(2) }
            #expect(try await client.json(.get, "/v1/me", token: token).status == .unauthorized)
        }
    }

    @Test func sessionsSurviveARestart() async throws {
        try await TestApp.withDatabaseFile { path in
            func app() throws -> some ApplicationProtocol {
                let database = try PlacesDatabase(path: path)
                let services = PlacesServices(repositories: database.repositories, hasher: try BcryptPasswordHasher(cost: 4))
                return buildApplication(settings: ServerSettings(port: 0), services: services, logger: .init(label: "t"))
            }
            let token = try await app().test(.router) { client in try await client.signUp("persistent") }
            try await app().test(.router) { client in
                let me = try await client.json(.get, "/v1/me", token: token)
                #expect(me.status == .ok)
                #expect(try TestApp.object(me.body)["username"] as? String == "persistent")
            }
            // Only the token's SHA-256 is stored.
            let stored = try String(contentsOfFile: path, encoding: .isoLatin1)
            #expect(!stored.contains(token))
        }
    }

    @Test func changingThePasswordEndsTheOtherSessions() async throws {
        try await TestApp.withClient([]) { client in
            let first = try await client.signUp("turing")
            let second = try #require(try TestApp.object(try await client.logIn(["username": "turing"], expect: .ok).body)["token"] as? String)
            let wrong = try await client.json(.post, "/v1/me/password", token: first, body: [
                "currentPassword": "nope nope nope", "newPassword": "enigma machine 42",
            ])
            #expect(wrong.status == .forbidden)
            let changed = try await client.json(.post, "/v1/me/password", token: first, body: [
                "currentPassword": "correct horse battery", "newPassword": "enigma machine 42",
            ])
            #expect(changed.status == .noContent)
            #expect(try await client.json(.get, "/v1/me", token: first).status == .ok)
            #expect(try await client.json(.get, "/v1/me", token: second).status == .unauthorized)
            try await client.logIn(["username": "turing"], password: "enigma machine 42", expect: .ok)
        }
    }

    @Test func profilesArePublicButContactDetailsAreNot() async throws {
        try await TestApp.withClient([]) { client in
            let token = try await client.signUp("hopper")
            let patched = try await client.json(.patch, "/v1/me", token: token, body: [
                "displayName": "Grace Hopper", "bio": "COBOL", "city": "Arlington", "avatarURL": "https://example.com/g.png",
            ])
            #expect(patched.status == .ok)
            let bad = try await client.json(.patch, "/v1/me", token: token, body: ["avatarURL": "javascript:alert(1)"])
            #expect(try TestApp.error(bad.body).field == "avatarURL")
            let viewer = try await client.signUp("viewer")
            let found = try await client.json(.get, "/v1/users/search?q=grace", token: viewer)
            let items = try #require(try TestApp.object(found.body)["items"] as? [[String: Any]])
            #expect(items.map { $0["username"] as? String } == ["hopper"])
            #expect(items[0]["email"] == nil && items[0]["phone"] == nil)
            #expect(Set(items[0].keys) == ["id", "username", "displayName", "bio", "city", "avatarURL"], "the profile beside the id")
            #expect(items[0]["displayName"] as? String == "Grace Hopper" && items[0]["city"] as? String == "Arlington")
            #expect(try await client.json(.get, "/v1/users/search?q=grace").status == .unauthorized)
            // Accents and case do not matter, either way round.
            _ = try await client.json(.patch, "/v1/me", token: viewer, body: ["displayName": "Zoë Ångström"])
            let accented = try await client.json(.get, "/v1/users/search?q=ZOE%20ANG", token: token)
            #expect((try TestApp.object(accented.body)["items"] as? [[String: Any]])?.map { $0["username"] as? String } == ["viewer"])
        }
    }

    @Test func settingsHaveDefaultsAndNameTheBadField() async throws {
        try await TestApp.withClient([]) { client in
            let token = try await client.signUp("settler")
            let defaults = try TestApp.object(try await client.json(.get, "/v1/me/settings", token: token).body)
            #expect(defaults["units"] as? String == "mi")
            #expect(defaults["defaultRadiusMiles"] as? Double == 5)
            let patched = try await client.json(.patch, "/v1/me/settings", token: token, body: [
                "units": "km", "notifications": ["sms": true], "defaultLocation": ["lat": 51.5, "lon": -0.12],
            ])
            #expect(patched.status == .ok)
            let settings = try TestApp.object(patched.body)
            #expect(settings["units"] as? String == "km")
            #expect((settings["notifications"] as? [String: Any])?["sms"] as? Bool == true)
            #expect((settings["notifications"] as? [String: Any])?["push"] as? Bool == true)
            for (body, field) in [
                (["units": "furlongs"], "units"), (["defaultRadiusMiles": 0], "defaultRadiusMiles"),
                (["defaultRadiusMiles": 21], "defaultRadiusMiles"), (["language": "not a tag"], "language"),
                (["defaultLocation": ["lat": 91, "lon": 0]], "defaultLocation.lat"), (["notifications": ["sms": "yes"]], "notifications.sms"),
                (["theme": "dark"], "theme"), (["units": ""], "units"), (["language": " "], "language"),
            ] as [([String: Any], String)] {
                let error = try await client.error(.patch, "/v1/me/settings", token: token, body: body, expect: .badRequest)
                #expect(error.field == field)
            }
            // PUT replaces: what it leaves out goes back to the default.
            let replaced = try TestApp.object(try await client.json(.put, "/v1/me/settings", token: token, body: ["language": "pt-BR"]).body)
            #expect(replaced["units"] as? String == "mi")
            #expect(replaced["language"] as? String == "pt-BR")
            #expect(replaced["defaultLocation"] == nil)
        }
    }

    @Test(arguments: [
        (HTTPRequest.Method.get, "/v1/me"), (.patch, "/v1/me"), (.delete, "/v1/me"), (.post, "/v1/me/password"),
        (.get, "/v1/me/export"), (.get, "/v1/me/settings"), (.put, "/v1/me/settings"), (.patch, "/v1/me/settings"),
        (.get, "/v1/me/favorites"), (.get, "/v1/users/search?q=a"), (.post, "/v1/auth/logout"), (.post, "/v1/places"),
        (.patch, "/v1/places/a"), (.delete, "/v1/places/a"), (.post, "/v1/places/a/restore"), (.put, "/v1/places/a/favorite"),
        (.delete, "/v1/places/a/favorite"), (.put, "/v1/places/a/rating"), (.delete, "/v1/places/a/rating"),
    ])
    func everyPersonalRouteNeedsAValidToken(method: HTTPRequest.Method, uri: String) async throws {
        try await TestApp.withClient([TestApp.place("a", 1, 1)]) { client in
            for token in [nil, "not-a-real-token"] as [String?] {
                let error = try await client.error(method, uri, token: token, body: [:], expect: .unauthorized)
                #expect(error.code == "unauthorized", "\(method) \(uri) token \(token ?? "none")")
            }
            let malformed = try await client.json(method, uri, body: [:], headers: [.authorization: "Basic abc"])
            #expect(malformed.status == .unauthorized)
        }
    }

    @Test func exportAndDeleteTheAccount() async throws {
        let (app, database, _, _) = try await TestApp.togetherServices([TestApp.place("seeded", 10, 10)])
        try await app.test(.router) { client in
            let token = try await client.signUp("leaving")
            let other = try await client.signUp("staying")
            let created = try await client.json(.post, "/v1/places", token: token, body: ["name": "My Gem", "lat": 10.01, "lon": 10.01])
            let placeID = try #require(try TestApp.object(created.body)["id"] as? String)
            _ = try await client.json(.put, "/v1/places/seeded/rating", token: token, body: ["stars": 5])
            _ = try await client.json(.put, "/v1/places/seeded/rating", token: other, body: ["stars": 3])
            _ = try await client.json(.put, "/v1/places/seeded/favorite", token: token)
            _ = try await client.json(.patch, "/v1/me/settings", token: token, body: ["units": "km"])

            let export = try TestApp.object(try await client.json(.get, "/v1/me/export", token: token).body)
            #expect((export["account"] as? [String: Any])?["username"] as? String == "leaving")
            #expect((export["ratings"] as? [[String: Any]])?.count == 1)
            #expect((export["favorites"] as? [[String: Any]])?.count == 1)
            #expect(export["places"] as? [String] == [placeID])
            #expect((export["settings"] as? [String: Any])?["units"] as? String == "km")
            #expect(!String(decoding: try JSONSerialization.data(withJSONObject: export), as: UTF8.self).contains("$2b$"))

            // Deleting the account asks for the password again.
            let bare = try await client.error(.delete, "/v1/me", token: token, body: [:], expect: .badRequest)
            #expect(bare.field == "password")
            let wrong = try await client.error(.delete, "/v1/me", token: token, body: ["password": "not my password"], expect: .forbidden)
            #expect(wrong.field == "password")
            #expect(try await client.json(.get, "/v1/me", token: token).status == .ok)
            #expect(try await client.json(.delete, "/v1/me", token: token, body: ["password": "correct horse battery"]).status == .noContent)
            #expect(try await client.json(.get, "/v1/me", token: token).status == .unauthorized)
            try await client.logIn(["username": "leaving"], expect: .unauthorized)
            // The rating left the aggregate; the place they added stays, without an owner.
            let seeded = try TestApp.object(try await client.json(.get, "/v1/places/seeded").body)
            #expect(seeded["ratingCount"] as? Int == 1)
            #expect(seeded["ratingAverage"] as? Double == 3)
            let kept = try TestApp.object(try await client.json(.get, "/v1/places/\(placeID)").body)
            #expect(kept["ownerId"] == nil)
        }
        #expect(try await database.accounts.user(login: .username("leaving")) == nil)
    }
}
