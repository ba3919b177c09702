import Foundation
import PlacesPostgres
import PlacesTestPostgres
import Testing

/// The engines a command test runs on: a SQLite file always, and PostgreSQL when the tests have a server (always under
/// CI, where a missing server then fails the test).
enum CommandEngine: String, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    static var available: [CommandEngine] { TestPostgres.available ? allCases : [.sqlite] }

    var testDescription: String { rawValue }
}

/// Runs the built `places` binary (beside the test bundle) on a temporary database, as an operator would.
struct PlacesBinary {
    var database: String
    let folder: URL

    init() throws {
        try #require(FileManager.default.isExecutableFile(atPath: PlacesBinary.executable.path), "no places binary at \(PlacesBinary.executable.path)")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = folder.appendingPathComponent("places.sqlite").path
    }

    /// The binary on a new database of `engine`: a file in a temporary folder, or a new database on the tests'
    /// PostgreSQL server (named by a URL, as an operator names it).
    init(_ engine: CommandEngine) async throws {
        try self.init()
        guard engine == .postgres else { return }
        let server = try TestPostgres.location()
        let name = "cli_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await PostgresPlacesDatabase.createDatabase(name, on: server)
        var location = server
        location.database = name
        let password = location.password.map { ":" + ($0.addingPercentEncoding(withAllowedCharacters: .urlPasswordAllowed) ?? $0) } ?? ""
        database = "postgres://\(location.username)\(password)@\(location.host):\(location.port)/\(name)?sslmode=\(location.sslMode.rawValue)"
    }

    /// Writes `json` (a seed file's places) to a file named `name` in the folder and seeds the database from it.
    func seed(_ json: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = folder.appendingPathComponent(name).path
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        #expect(try run(["seed", file]).status == 0, sourceLocation: sourceLocation)
    }

    /// The binary on another database file inside `folder`.
    init(database: String, folder: URL) {
        self.database = database
        self.folder = folder
    }

    /// `swift test` builds the `places` product into the build folder the test runner itself runs from.
    static var executable: URL {
        let runner = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return runner.deletingLastPathComponent().appendingPathComponent("places")
    }

    /// Runs `places ARGS --database DB` with `input` on stdin (in `directory`, else the tests' own); returns exit
    /// status, stdout and stderr.
    @discardableResult
    func run(
        _ arguments: [String],
        input: String = "",
        in directory: URL? = nil,
        environment changes: [String: String] = [:]
    ) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = PlacesBinary.executable
        if let directory { process.currentDirectoryURL = directory }
        process.arguments = arguments + ["--database", database]
        var environment = ProcessInfo.processInfo.environment
        environment["PLACES_BCRYPT_COST"] = "4"
        environment.merge(changes) { $1 }
        process.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    func json(_ arguments: [String], input: String = "") throws -> [String: Any] {
        let result = try run(arguments + ["--json"], input: input)
        #expect(result.status == 0, "\(arguments): \(result.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    }
}

@Suite("places user, place, search and settings")
struct PeopleCommandTests {
    @Test(arguments: CommandEngine.available)
    func anOperatorManagesPeopleAndPlacesOnTheDatabase(_ engine: CommandEngine) async throws {
        let places = try await PlacesBinary(engine)
        defer { try? FileManager.default.removeItem(at: places.folder) }

        let user = try places.json(["user", "create", "--username", "ops", "--email", "ops@example.com"], input: "a long password\n")
        #expect(user["username"] as? String == "ops")
        let short = try places.run(["user", "create", "--username", "xyz", "--email", "x@example.com"], input: "short\n")
        #expect(short.status == 64)
        #expect(short.err.contains("password must be at least 10 characters"))
        let taken = try places.run(["user", "create", "--username", "OPS", "--email", "o2@example.com"], input: "a long password\n")
        #expect(taken.status == 1)

        let added = try places.json([
            "place", "add", "--name", "Crêperie du Coin", "--lat", "48.85", "--lon", "2.35", "--kind", "restaurant",
            "--cuisine", "Breton", "--tag", "crepes", "--owner", "ops",
        ])
        let id = try #require(added["id"] as? String)
        #expect(added["ownerId"] as? String == user["id"] as? String)
        let duplicate = try places.run(["place", "add", "--name", "creperie du coin", "--lat", "48.8501", "--lon", "2.35"])
        #expect(duplicate.status == 1)
        #expect(duplicate.err.contains(id))
        let bad = try places.run(["place", "add", "--name", "Nowhere", "--lat", "-91", "--lon", "0"])
        #expect(bad.status == 64)

        let updated = try places.json(["place", "update", id, "--price-level", "2", "--clear", "cuisine"])
        #expect(updated["priceLevel"] as? Int == 2)
        #expect(updated["cuisine"] == nil)
        #expect(try places.json(["place", "show", id])["name"] as? String == "Crêperie du Coin")

        let search = try places.json(["search", "creperie"])
        #expect((search["items"] as? [[String: Any]])?.first?["id"] as? String == id)

        let settings = try places.run(["settings", "set", "ops", "--units", "km", "--default-location", "48.85,2.35", "--on", "sms"])
        #expect(settings.status == 0, "\(settings.err)")
        let stored = try places.run(["settings", "get", "ops"])
        #expect(stored.out.contains(#""units":"km""#))
        #expect(stored.out.contains(#""sms":true"#))
        #expect(try places.run(["settings", "set", "ops", "--units", "furlongs"]).status == 64)
        // The NAME=VALUE form of earlier versions still works, and says which flag replaces it.
        let deprecated = try places.run(["settings", "set", "ops", "units=km"])
        #expect(deprecated.status == 0, "\(deprecated.err)")
        #expect(deprecated.err.contains("units=… is deprecated; use --units"))
        #expect(try places.run(["settings", "set", "ops", "units=mi", "--units", "mi"]).status == 64, "not both")
        #expect(try places.run(["settings", "set", "ops", "units=furlongs"]).status == 64)
        // Needs, budget, sharing for meet and admin alerts; --reset puts one back.
        let eats = try places.run([
            "settings", "set", "ops", "--dietary-need", "vegan", "--dietary-need", "halal", "--max-price", "2", "--share-location-for-meet",
            "true", "--off", "adminAlerts",
        ])
        #expect(eats.status == 0 && eats.out.contains(#""dietaryNeeds":["vegan","halal"]"#) && eats.out.contains(#""maxPrice":2"#), "\(eats.out)")
        #expect(eats.out.contains(#""shareLocationForMeet":true"#) && eats.out.contains(#""adminAlerts":false"#))
        #expect(try places.run(["settings", "set", "ops", "--dietary-need", "paleo"]).status == 64)
        #expect(try places.run(["settings", "set", "ops", "--max-price", "5"]).status == 64)
        #expect(!(try places.run(["settings", "set", "ops", "--reset", "maxPrice"]).out.contains("maxPrice")))

        let table = try places.run(["nearby", "--user", "ops"])
        #expect(table.status == 0, "\(table.err)")
        #expect(table.out.hasPrefix("1 place within 8.05 km of 48.85000, 2.35000"))
        #expect(table.out.contains("KM") && !table.out.contains("MILES"))

        #expect(try places.run(["place", "delete", id]).status == 0)
        #expect(try places.run(["place", "show", id]).status == 64)
        #expect((try places.json(["search", "creperie"])["items"] as? [Any])?.isEmpty == true)
        #expect(try places.json(["place", "restore", id])["id"] as? String == id)
    }

    @Test(arguments: CommandEngine.available)
    func peopleBlockUnblockAndSetAStatusFromTheCommandLine(_ engine: CommandEngine) async throws {
        let places = try await PlacesBinary(engine)
        defer { try? FileManager.default.removeItem(at: places.folder) }
        for name in ["ana", "dan"] {
            _ = try places.json(["user", "create", "--username", name, "--email", "\(name)@example.com"], input: "a long password\n")
        }
        _ = try places.json(["friend", "request", "ana", "--as", "dan"])

        #expect(try places.run(["block", "dan", "--as", "ana"]).out == "blocked\n")
        #expect(try places.json(["block", "dan", "--as", "ana"])["ok"] as? Bool == true, "again: done")
        let listed = try places.run(["blocked", "--as", "ana", "--json"])
        #expect(listed.status == 0 && listed.out.contains(#""username":"dan""#), "\(listed.err)")
        #expect(try places.run(["friend", "list", "--requests", "incoming", "--as", "ana"]).out == "\n", "the block ended dan's request")
        let refused = try places.run(["friend", "request", "ana", "--as", "dan"])
        #expect(refused.status == 64 && refused.err.contains("no user named 'ana'"), "as for nobody: \(refused.err)")
        #expect(try places.run(["block", "nobody", "--as", "ana"]).status == 64)
        #expect(try places.run(["block", "ana", "--as", "ana"]).status == 64)
        #expect(try places.run(["unblock", "dan", "--as", "ana"]).out == "unblocked\n")
        #expect(try places.run(["blocked", "--as", "ana"]).out == "\n")

        let status = try places.json(["status", "In Lisbon this week", "--expires-at", "2099-12-01T00:00:00Z", "--as", "ana"])
        #expect(status["text"] as? String == "In Lisbon this week" && status["expiresAt"] as? String == "2099-12-01T00:00:00Z")
        #expect(try places.run(["status", "--expires-at", "2000-01-01T00:00:00Z", "late", "--as", "ana"]).status == 64)
        #expect(try places.run(["status", "--as", "ana"]).status == 64, "text or --clear")
        #expect(try places.run(["status", "x", "--clear", "--as", "ana"]).status == 64, "not both")
        #expect(try places.run(["status", "--clear", "--as", "ana"]).out == "cleared\n")
    }
}
