import Foundation
import GeoIndex
import Hummingbird
import HummingbirdTesting
import Logging
import PlacesCore
import PlacesHTTP
import PlacesSQLite
import PlacesTestSupport
import Testing

/// An application over a fresh in-memory database holding `places`, for one test.
enum TestApp {
    static let now = TestPlaces.now

    /// A seeded place in Testville.
    static func place(_ id: String, _ lat: Double, _ lon: Double, kind: PlaceKind = .gem, name: String? = nil) -> Place {
        TestPlaces.place(id, lat: lat, lon: lon, kind: kind, name: name, city: "Testville")
    }

    /// The login throttle's bounds in tests: the production bounds, but registrations from the one test client
    /// unbounded (a test signs many people up from one address).
    static func throttle() -> LoginThrottle.Policy {
        LoginThrottle.Policy(registrationsPerAddress: 100_000)
    }

    /// The hashing queue of tests: the production shape, with room for every request a test sends at once.
    static func hashing() -> HashingQueue {
        HashingQueue(policy: .init(concurrent: 2, waiting: 10_000))
    }

    /// bcrypt at its smallest cost.
    /// The server's settings for tests: a full run starts hundreds of cases at once on a few cores, so the bounds on a
    /// request's database work and on `/ready` are far above production's (3 s and 1 s); no test measures them (the
    /// cluster test does, on a frozen database).
    static let settings = ServerSettings(host: "127.0.0.1", port: 0, requestDeadline: .seconds(60), readyWithin: .seconds(60))

    static func hasher() throws -> any PasswordHasher {
        try BcryptPasswordHasher(cost: BcryptPasswordHasher.minimumCost)
    }

    /// The application alone, with the test defaults (`togetherServices` sets the rest).
    static func make(_ places: [Place]) async throws -> some ApplicationProtocol {
        try await togetherServices(places).app
    }

    /// Runs `test` with a client of a fresh application over `places` (the test defaults), through its router.
    static func withClient<Value>(
        _ places: [Place],
        _ test: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        try await make(places).test(.router, test)
    }

    /// The application, the database, and the place and decision services behind it (a test runs deadlines itself).
    static func togetherServices(
        _ places: [Place],
        clock: @escaping @Sendable () -> Date = { TestApp.now },
        throttle: LoginThrottle.Policy = TestApp.throttle(),
        hasher: (any PasswordHasher)? = nil,
        hashing: HashingQueue = TestApp.hashing(),
        limits: UsageLimits = UsageLimits(),
        metrics: PlacesMetrics = PlacesMetrics(),
        settings: ServerSettings = TestApp.settings,
        live: LiveFeed.Settings = LiveFeed.Settings(),
        database: PlacesDatabase? = nil
    ) async throws -> (app: some ApplicationProtocol, database: PlacesDatabase, places: PlaceService, decisions: DecisionService) {
        let database = try database ?? PlacesDatabase.inMemory()
        if !places.isEmpty {
            try await database.places.seed(places)
        }
        let services = PlacesServices(
            repositories: database.repositories,
            hasher: try hasher ?? TestApp.hasher(),
            throttle: throttle,
            hashing: hashing,
            limits: limits,
            clock: clock,
            live: live,
            liveMetrics: metrics.live
        )
        let service = services.places
        try await service.loadIndex()
        let app = buildApplication(
            settings: settings,
            services: services,
            metrics: metrics,
            logger: Logger(label: "test")
        )
        return (app, database, service, services.decisions)
    }

    /// A database file in a new folder of its own, for a test that opens it more than once; removed when `body` ends.
    static func withDatabaseFile(_ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder.appendingPathComponent("places.sqlite").path)
    }

    /// The JSON object of a response body.
    static func object(_ body: ByteBuffer) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(buffer: body))
        guard let object = value as? [String: Any] else { throw CocoaError(.coderReadCorrupt) }
        return object
    }

    /// The error code and field of an error response.
    static func error(_ body: ByteBuffer) throws -> (code: String?, field: String?) {
        let error = try object(body)["error"] as? [String: Any]
        return (error?["code"] as? String, error?["field"] as? String)
    }
}

/// Shorthands for JSON requests in tests.
extension TestClientProtocol {
    /// Sends `body` (a JSON object literal) with an optional bearer token and hands back status, headers and body.
    @discardableResult
    func json(
        _ method: HTTPRequest.Method,
        _ uri: String,
        token: String? = nil,
        body: [String: Any]? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        var buffer: ByteBuffer?
        if let body {
            headers[.contentType] = "application/json"
            buffer = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body))
        }
        return try await execute(uri: uri, method: method, headers: headers, body: buffer) { $0 }
    }

    /// Sends a request that must be refused with `status`, and hands back the code and field of its error.
    func error(
        _ method: HTTPRequest.Method,
        _ uri: String,
        token: String? = nil,
        body: [String: Any]? = nil,
        expect status: HTTPResponse.Status,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (code: String?, field: String?) {
        let response = try await json(method, uri, token: token, body: body)
        #expect(response.status == status, "\(method) \(uri): \(String(buffer: response.body))", sourceLocation: sourceLocation)
        return try TestApp.error(response.body)
    }

    /// Registers an account with `fields`, expecting 201, and returns it as the API shows it.
    @discardableResult
    func register(_ fields: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        try await object(.post, "/v1/auth/register", token: nil, body: fields, expect: .created, sourceLocation: sourceLocation)
    }

    /// Logs in as `who` (a username, e-mail or phone) with `password`, expecting `status`, and hands back the answer.
    @discardableResult
    func logIn(
        _ who: [String: String],
        password: String = "correct horse battery",
        expect status: HTTPResponse.Status,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TestResponse {
        let response = try await json(.post, "/v1/auth/login", body: who.merging(["password": password]) { name, _ in name })
        #expect(response.status == status, "log in as \(who): \(String(buffer: response.body))", sourceLocation: sourceLocation)
        return response
    }

    /// Signs `username` up and adds a gem, "New Spot", a few metres from (40, -74), expecting 201; the answer.
    func signUpAndAddNewSpot(_ username: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> TestResponse {
        let response = try await json(
            .post,
            "/v1/places",
            token: try await signUp(username),
            body: ["name": "New Spot", "kind": "gem", "lat": 40.0001, "lon": -74.0001]
        )
        #expect(response.status == .created, sourceLocation: sourceLocation)
        return response
    }

    /// Registers `username` with a password and an e-mail, logs in and returns the token.
    func signUp(_ username: String, password: String = "correct horse battery") async throws -> String {
        try await register(["username": username, "email": "\(username)@example.com", "password": password])
        let login = try await logIn(["username": username], password: password, expect: .ok)
        return try #require(try TestApp.object(login.body)["token"] as? String)
    }
}
