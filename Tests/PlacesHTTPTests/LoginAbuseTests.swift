import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import PlacesHTTP
import Synchronization
import Testing

/// A password hasher for tests that counts its checks and can hold every hash until the test lets it go.
final class RecordingHasher: PasswordHasher {
    private let real: any PasswordHasher
    private let verifications = Mutex(0)
    private let gate: TestGate

    init(holding: Bool = false) throws {
        real = try BcryptPasswordHasher(cost: BcryptPasswordHasher.minimumCost)
        gate = TestGate(holding: holding)
    }

    /// How many passwords were checked.
    var verified: Int { verifications.withLock { $0 } }

    /// Holds every hash and check from now on, until `release`.
    func hold() { gate.hold() }

    /// Lets every held hash, and every later one, run.
    func release() { gate.open() }

    func hash(_ password: String) async throws -> String {
        await gate.pass()
        return try await real.hash(password)
    }

    func verify(_ password: String, against hash: String) async throws -> Bool {
        verifications.withLock { $0 += 1 }
        await gate.pass()
        return try await real.verify(password, against: hash)
    }
}

@Suite("Logins and sign-ups under attack")
struct LoginAbuseTests {
    @Test func aParallelBurstOfWrongPasswordsIsCheckedAtMostTheAllowedNumberOfTimes() async throws {
        let hasher = try RecordingHasher()
        let app = try await TestApp.togetherServices([], hasher: hasher).app
        try await app.test(.router) { client in
            _ = try await client.signUp("target")
            let before = hasher.verified
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<300 {
                    group.addTask {
                        let body = ["username": "target", "password": "guess number \(index)"]
                        return try await client.json(.post, "/v1/auth/login", body: body).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(hasher.verified - before == 10)
            #expect(statuses.filter { $0 == .unauthorized }.count == 10)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 290)
            // The right password is throttled too until the window passes: the burst used the account's guesses.
            try await client.logIn(["username": "target"], expect: .tooManyRequests)
        }
    }

    @Test func theUsernameTheEmailAndThePhoneShareOneCount() async throws {
        try await TestApp.withClient([]) { client in
            try await client.register([
                "username": "many.names", "email": "many@example.com", "phone": "+44 20 7946 0958", "password": "correct horse battery",
            ])
            let names: [[String: String]] = [["username": "many.names"], ["email": "many@example.com"], ["phone": "+442079460958"]]
            for attempt in 0..<10 {
                try await client.logIn(names[attempt % 3], password: "wrong password \(attempt)", expect: .unauthorized)
            }
            for name in names {
                try await client.logIn(name, password: "wrong again", expect: .tooManyRequests)
            }
        }
    }

    @Test func hashingIsBoundedAndABurstIsRefusedWhileOtherRoutesAnswer() async throws {
        let hasher = try RecordingHasher()
        let hashing = HashingQueue(policy: .init(concurrent: 1, waiting: 2, retryAfterSeconds: 3))
        let app = try await TestApp.togetherServices([TestApp.place("near", 40, -70)], hasher: hasher, hashing: hashing).app
        try await app.test(.router) { client in
            _ = try await client.signUp("victim")
            hasher.hold()
            // Three logins take the one running slot and the two waiting ones, and stay there while the hasher holds.
            let stuck = Task {
                try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for index in 0..<3 {
                        group.addTask {
                            try await client.json(.post, "/v1/auth/login", body: ["username": "victim", "password": "wrong \(index)"]).status
                        }
                    }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
            }
            for _ in 0..<10_000 where hashing.load != (1, 2) { try await Task.sleep(for: .milliseconds(1)) }
            #expect(hashing.load == (1, 2))
            // Further hashing is refused at once, not queued: a login and a registration get 503 with Retry-After.
            let login = try await client.json(.post, "/v1/auth/login", body: ["username": "victim", "password": "one more"])
            #expect(login.status == .serviceUnavailable)
            #expect(try TestApp.error(login.body).code == "unavailable")
            #expect(login.headers[.retryAfter] == "3")
            let registration = try await client.json(.post, "/v1/auth/register", body: [
                "username": "late", "email": "late@example.com", "password": "correct horse battery",
            ])
            #expect(registration.status == .serviceUnavailable)
            // Routes that hash nothing answer while every hashing slot is taken.
            #expect(try await client.json(.get, "/v1/places/nearby?lat=40&lon=-70&radius=1").status == .ok)
            #expect(try await client.json(.get, "/v1/places/near").status == .ok)
            #expect(try await client.json(.get, "/health").status == .ok)
            hasher.release()
            #expect(try await stuck.value == [.unauthorized, .unauthorized, .unauthorized])
            #expect(hashing.load == (0, 0))
            // The refused attempts were not counted as guesses: seven remain of the ten.
            for index in 0..<7 {
                try await client.logIn(["username": "victim"], password: "later \(index)", expect: .unauthorized)
            }
            try await client.logIn(["username": "victim"], password: "x y z w", expect: .tooManyRequests)
        }
    }

    @Test func registrationsAreThrottledPerAddress() async throws {
        let throttle = LoginThrottle.Policy(registrationsPerAddress: 3)
        let app = try await TestApp.togetherServices([], throttle: throttle).app
        try await app.test(.router) { client in
            for index in 0..<3 {
                let body = ["username": "bot\(index)", "email": "bot\(index)@example.com", "password": "correct horse battery"]
                #expect(try await client.json(.post, "/v1/auth/register", body: body).status == .created)
            }
            let fourth = try await client.json(.post, "/v1/auth/register", body: [
                "username": "bot3", "email": "bot3@example.com", "password": "correct horse battery",
            ])
            #expect(fourth.status == .tooManyRequests)
            #expect(try TestApp.error(fourth.body).code == "too_many_attempts")
            #expect(fourth.headers[.retryAfter] == "3600")
            // Bad input is refused before it counts, and costs no hash.
            let bad = try await client.json(.post, "/v1/auth/register", body: ["username": "x", "password": "short"])
            #expect(bad.status == .badRequest)
        }
    }

    @Test(arguments: ["\u{202E}", "\u{2066}", "\u{200B}", "\u{FEFF}", "\u{200F}"])
    func namesShownToOthersRefuseInvisibleAndDirectionCharacters(character: String) async throws {
        try await TestApp.withClient([TestApp.place("p1", 10, 10)]) { client in
            let name = "Evil\(character)gnp.exe"
            let registered = try await client.json(.post, "/v1/auth/register", body: [
                "username": "mallory", "email": "m@example.com", "password": "correct horse battery", "displayName": name,
            ])
            #expect(registered.status == .badRequest)
            #expect(try TestApp.error(registered.body).field == "displayName")
            let token = try await client.signUp("mallory")
            let checks: [(String, String, [String: Any], String)] = [
                ("/v1/groups", "name", ["name": name], "group"),
                ("/v1/collections", "name", ["name": name], "collection"),
                ("/v1/places", "name", ["name": name, "lat": 1, "lon": 1], "place"),
                ("/v1/decisions", "title", ["method": "random", "title": name, "candidates": ["placeIds": ["p1"]]], "decision"),
            ]
            for (path, field, body, what) in checks {
                let error = try await client.error(.post, path, token: token, body: body, expect: .badRequest)
                #expect(error.field == field, "\(what)")
            }
            let patched = try await client.json(.patch, "/v1/me", token: token, body: ["displayName": name])
            #expect(patched.status == .badRequest)
            // Right-to-left text itself is welcome.
            #expect(try await client.json(.patch, "/v1/me", token: token, body: ["displayName": "مقهى"]).status == .ok)
        }
    }
}
