import Foundation
import PlacesPostgres
import PlacesTestPostgres
import Testing

/// What the database argument means, and what an operator is told when it is wrong.
@Suite("The database argument")
struct DatabaseArgumentTests {
    /// Arguments that look like URLs and are not PostgreSQL URLs: each would once have become a SQLite file of that name.
    static let mistypedURLs = [
        "postgres:user:secret-pw@127.0.0.1/places",
        "postgresql:/user:secret-pw@127.0.0.1/places",
        "mysql://user:secret-pw@127.0.0.1/places",
        "user:secret-pw@127.0.0.1/places",
        "sqlite://user:secret-pw@places.sqlite",
        "postgres//user:secret-pw@127.0.0.1/places",
        "postgres;//user:secret-pw@127.0.0.1/places",
    ]

    /// A command that writes.
    static let createUser = ["user", "create", "--username", "ops", "--email", "ops@example.com"]

    @Test(arguments: mistypedURLs)
    func aMistypedURLIsRefusedWithoutThePassword(_ argument: String) throws {
        let places = try PlacesBinary()
        defer { try? FileManager.default.removeItem(at: places.folder) }
        let binary = PlacesBinary(database: argument, folder: places.folder)
        for command in [["serve", "--port", "0", "--seeds", places.folder.path], ["search", "cafe"], Self.createUser] {
            let refused = try binary.run(command, input: "a long password\n", in: places.folder)
            #expect(refused.status == 64, "\(command): \(refused.err)")
            #expect(refused.err.contains("invalid_input (database)") && refused.err.contains("postgres://"))
            #expect(!refused.err.contains("secret-pw") && !refused.out.contains("secret-pw"))
        }
        // Nothing was created: no SQLite file under the mistyped name, nor anything else.
        #expect(try FileManager.default.contentsOfDirectory(atPath: places.folder.path).isEmpty)
    }

    @Test func aPoolTooSmallForTheFeedsListenerIsRefused() throws {
        let places = try PlacesBinary()
        defer { try? FileManager.default.removeItem(at: places.folder) }
        for (arguments, environment) in [(["--database-connections", "1"], [:]), ([], ["PLACES_DATABASE_CONNECTIONS": "many"])] {
            let refused = try places.run(["serve", "--port", "0", "--seeds", places.folder.path] + arguments, environment: environment)
            #expect(refused.status == 64, "\(arguments) \(environment): \(refused.err)")
            #expect(refused.err.contains("invalid_input (database-connections)") && refused.err.contains("at least 2"), "\(refused.err)")
        }
        // Refused before the database was opened: no file was made.
        #expect(try FileManager.default.contentsOfDirectory(atPath: places.folder.path).isEmpty)
    }

    @Test func aPostgreSQLURLsSchemeMayBeInCapitals() throws {
        // Read as PostgreSQL (nothing listens on port 1), never as a file, and the password is never printed.
        let places = try PlacesBinary()
        defer { try? FileManager.default.removeItem(at: places.folder) }
        let binary = PlacesBinary(database: "POSTGRES://user:secret-pw@127.0.0.1:1/places?sslmode=disable", folder: places.folder)
        let refused = try binary.run(["search", "cafe"], in: places.folder)
        #expect(refused.status == 1 && refused.err.contains("connection refused"), "\(refused.err)")
        #expect(!refused.err.contains("secret-pw"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: places.folder.path).isEmpty)
    }

    @Test func aFilePathWithAColonIsStillAFile() throws {
        let places = try PlacesBinary()
        defer { try? FileManager.default.removeItem(at: places.folder) }
        let binary = PlacesBinary(database: "places:2026.sqlite", folder: places.folder)
        let made = try binary.run(Self.createUser, input: "a long password\n", in: places.folder)
        #expect(made.status == 0, "\(made.err)")
        #expect(FileManager.default.fileExists(atPath: places.folder.appendingPathComponent("places:2026.sqlite").path))
    }
}

/// What `serve` and a command say when the PostgreSQL database refuses them: what PostgreSQL said, in seconds.
@Suite("The database argument on PostgreSQL", TestPostgres.enabled)
struct DatabaseRefusalTests {
    /// The tests' server's URL, changed by `change`.
    static func url(_ change: (inout PostgresLocation) -> Void) throws -> String {
        var location = try TestPostgres.location()
        change(&location)
        let password = location.password.map { ":" + ($0.addingPercentEncoding(withAllowedCharacters: .urlPasswordAllowed) ?? $0) } ?? ""
        return "postgres://\(location.username)\(password)@\(location.host):\(location.port)/\(location.database)?sslmode=\(location.sslMode.rawValue)"
    }

    @Test(arguments: [
        ("wrong password", "authentication failed"),
        ("missing database", "does not exist"),
        ("TLS required", "does not offer TLS"),
    ])
    func serveAndACommandSayWhatIsWrong(_ wrong: String, _ said: String) throws {
        let url = try Self.url { location in
            switch wrong {
            case "wrong password": location.password = "not-the-password"
            case "missing database": location.database = "no_such_database_here"
            default: location.sslMode = .require
            }
        }
        let places = try PlacesBinary()
        defer { try? FileManager.default.removeItem(at: places.folder) }
        let binary = PlacesBinary(database: url, folder: places.folder)
        for command in [["serve", "--port", "0", "--seeds", places.folder.path], ["search", "cafe"]] {
            let refused = try binary.run(command, in: places.folder)
            #expect(refused.status == 1, "\(command): \(refused.err)")
            #expect(refused.err.contains(said), "\(command): \(refused.err)")
            #expect(!refused.err.contains("not-the-password") && !refused.err.contains("gave no connection"))
        }
    }
}
