import Foundation
import GeoIndex
import PlacesCore
import PlacesPostgres
import PlacesSQLite
import PlacesTestPostgres
import PlacesTestSupport
import Synchronization
import Testing

@testable import PlacesCLI

@Suite("places copy", TestPostgres.enabled)
struct CopyCommandTests {
    /// A database built through the services goes to PostgreSQL and back to a new file: every table holds the same
    /// rows on all three, and the services answer alike on all three.
    @Test func aPopulatedDatabaseGoesToPostgreSQLAndBackUnchanged() async throws {
        try await withFolder { folder in
            let original = try PlacesDatabase(path: folder.appendingPathComponent("original.sqlite").path)
            let story = try await Story.populate(CopyWorld.services(.sqlite(original, path: "original")), places: original.places)
            try await withPostgres { postgres in
                let back = try PlacesDatabase(path: folder.appendingPathComponent("back.sqlite").path)

                let there = try await DatabaseCopy.copy(from: original, to: postgres, replacing: false)
                let home = try await DatabaseCopy.copy(from: postgres, to: back, replacing: false)

                let originalRows = try await CopyWorld.rows(of: original)
                for table in DatabaseCopy.tables {
                    #expect(originalRows[table.name]?.isEmpty == false, "the story fills \(table.name)")
                    #expect(there.tables.first { $0.table == table.name }?.rows == originalRows[table.name]?.count)
                }
                #expect(try await CopyWorld.rows(of: postgres) == originalRows)
                #expect(try await CopyWorld.rows(of: back) == originalRows)

                // Each copy carries a generation of its own and a counter at least its source's.
                let sourceRevision = try await original.places.liveSummaries().revision
                #expect(there.revision >= sourceRevision && home.revision >= there.revision)
                #expect(there.generation != home.generation)
                #expect(try await postgres.places.liveSummaries().generation == there.generation)
                #expect(try await back.places.liveSummaries().generation == home.generation)

                let answers = try await [
                    Story.answers(CopyWorld.services(.sqlite(original, path: "original")), story),
                    Story.answers(CopyWorld.services(.postgres(postgres)), story),
                    Story.answers(CopyWorld.services(.sqlite(back, path: "back")), story),
                ]
                #expect(answers[0].nearby.places.count == 4)
                #expect(answers[0].search.contains("Café Lumière") && answers[0].users.contains("Ána Sousa"))
                for (engine, answer) in zip(["postgres", "back"], answers.dropFirst()) {
                    #expect(answer.nearby == answers[0].nearby, "nearby on \(engine)")
                    #expect(answer.search == answers[0].search, "search on \(engine)")
                    #expect(answer.decisions == answers[0].decisions, "decisions on \(engine)")
                    #expect(answer.users == answers[0].users, "user search on \(engine)")
                    #expect(answer.caller == answers[0].caller, "the session on \(engine)")
                    #expect(answer.notifications == answers[0].notifications, "notifications on \(engine)")
                    #expect(answer.photos == answers[0].photos && answer.photoBytes == answers[0].photoBytes, "photos on \(engine)")
                }
            }
        }
    }

    /// A target holding data is refused and left as it was; `--replace` empties it and copies, with a new generation.
    @Test(arguments: [CopyWorld.TargetEngine.sqlite, .postgres])
    func aTargetHoldingDataIsRefusedUnlessReplaced(_ engine: CopyWorld.TargetEngine) async throws {
        try await withFolder { folder in
            let source = try PlacesDatabase(path: folder.appendingPathComponent("source.sqlite").path)
            try await source.places.seed([CopyWorld.place("src-1", "Café Uno"), CopyWorld.place("src-2", "Tasca Dois")])
            try await engine.withDatabase(folder) { target, places in
                try await places.seed([CopyWorld.place("old-1", "Old Place")])
                let before = try await CopyWorld.rows(of: target)
                let generation = try await places.liveSummaries().generation

                do {
                    _ = try await DatabaseCopy.copy(from: source, to: target, replacing: false)
                    Issue.record("a target holding data was not refused")
                } catch let error as PlacesError {
                    #expect(error.code == .conflict && error.message.contains("--replace"))
                }
                #expect(try await CopyWorld.rows(of: target) == before, "refused: nothing changed")
                #expect(try await places.liveSummaries().generation == generation)

                let report = try await DatabaseCopy.copy(from: source, to: target, replacing: true)
                #expect(try await CopyWorld.rows(of: target) == CopyWorld.rows(of: source))
                let after = try await places.liveSummaries()
                #expect(after.generation == report.generation && after.generation != generation)
                #expect(Set(after.summaries.map(\.id)) == ["src-1", "src-2"])
            }
        }
    }

    /// A copy that fails midway (here the source breaks after the places) leaves the target as it was.
    @Test(arguments: [CopyWorld.TargetEngine.sqlite, .postgres])
    func aFailedCopyLeavesTheTargetAsItWas(_ engine: CopyWorld.TargetEngine) async throws {
        try await withFolder { folder in
            try await engine.withDatabase(folder) { target, places in
                try await places.seed([CopyWorld.place("old-1", "Old Place")])
                let before = try await CopyWorld.rows(of: target)
                await #expect(throws: BrokenSource.Broke.self) {
                    _ = try await DatabaseCopy.copy(from: BrokenSource(), to: target, replacing: true)
                }
                #expect(try await CopyWorld.rows(of: target) == before)
                let search = try PlaceSearchQuery.parse(q: "old", lat: nil, lon: nil, radius: nil, page: PageRequest())
                let found = try await PlaceService(repository: places, index: PlaceIndex()).search(search).items.map(\.place.id)
                #expect(found == ["old-1"], "the search index is whole")
            }
        }
    }

    /// Photos' chunks move in batches bounded by bytes (a thousand 256 KiB chunks would be 256 MiB at once), from
    /// SQLite and from PostgreSQL, and arrive whole.
    @Test func photoBytesMoveInBatchesBoundedByBytes() async throws {
        try await withFolder { folder in
            let source = try PlacesDatabase(path: folder.appendingPathComponent("photos.sqlite").path)
            try await source.places.seed([CopyWorld.place("lx-1", "Café Lumière")])
            let ana = try await CopyWorld.services(.sqlite(source, path: "photos")).accounts.register(
                Registration(username: "ana", password: "a long password", profile: ProfilePatch(email: .set("ana@example.com"))),
                clientAddress: "test"
            )
            // Twelve contents of four chunks each (the repository stores what the service cleaned; any bytes do here).
            for number in 0..<12 {
                let content = PhotoContent([UInt8(number)] + [UInt8](repeating: UInt8(number), count: 4 * PhotoContent.chunkSize - 1))
                let photo = Photo(
                    id: "ph-\(number)", placeID: "lx-1", userID: ana.id, username: "ana", format: .png, width: 1, height: 1,
                    byteCount: content.bytes.count, contentHash: content.hash, caption: nil, createdAt: CopyWorld.now
                )
                let rules = PhotoRules(perPlace: 100, window: WindowLimit(allowed: 100, since: CopyWorld.now.addingTimeInterval(-60)))
                #expect(try await source.photos.add(photo, content: content, rules: rules) == .added)
            }
            let fromSQLite = BatchRecorder(source: source)
            try await withPostgres { postgres in
                _ = try await DatabaseCopy.copy(from: fromSQLite, to: postgres, replacing: false)
                let back = try PlacesDatabase(path: folder.appendingPathComponent("back.sqlite").path)
                let fromPostgres = BatchRecorder(source: postgres)
                _ = try await DatabaseCopy.copy(from: fromPostgres, to: back, replacing: false)
                #expect(try await CopyWorld.rows(of: back) == CopyWorld.rows(of: source))
                for recorder in [fromSQLite, fromPostgres] {
                    let batches = recorder.batches.withLock { $0 }.filter { $0.table == "photo_chunk" }
                    #expect(batches.map(\.rows).reduce(0, +) == 48)
                    #expect(batches.count >= 2, "48 chunks of 256 KiB: 12 MiB, in batches of at most about 8 MiB")
                    #expect(batches.allSatisfy { $0.bytes <= DatabaseCopy.batchBytes + PhotoContent.chunkSize + 1_024 })
                }
            }
        }
    }

    /// Every table and column of both engines' schemas is copied or left out on purpose, so a later migration that
    /// forgets the copy fails here.
    @Test func everyColumnOfBothEnginesIsCopiedOrLeftOutOnPurpose() async throws {
        try await withFolder { folder in
            let sqlite = try PlacesDatabase(path: folder.appendingPathComponent("schema.sqlite").path)
            #expect(DatabaseCopy.uncovered(try await sqlite.tableColumns()) == [])
            try await withPostgres { postgres in
                let columns = try await postgres.tableColumns()
                #expect(DatabaseCopy.uncovered(columns) == [])
            }
            #expect(DatabaseCopy.uncovered(["postcard": ["id"], "place": ["id", "mood"]]) == ["place.mood", "postcard.id"])
        }
    }

    /// The command itself, file to file: a report per table, a refusal naming --replace, then a replace.
    @Test func theCommandCopiesFileToFile() async throws {
        let places = try PlacesBinary()
        defer { try? FileManager.default.removeItem(at: places.folder) }
        let seed = places.folder.appendingPathComponent("cafes.json").path
        try Data(#"[{"id":"c1","name":"Café Uno","kind":"restaurant","lat":38.71,"lon":-9.14}]"#.utf8).write(to: URL(fileURLWithPath: seed))
        #expect(try places.run(["seed", seed]).status == 0)
        let copy = places.folder.appendingPathComponent("copy.sqlite").path

        let first = try CopyWorld.places(["copy", places.database, copy, "--json"])
        #expect(first.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(first.out.utf8)) as? [String: Any]
        let tables = report?["tables"] as? [[String: Any]]
        #expect(tables?.first?["table"] as? String == "place" && tables?.first?["rows"] as? Int == 1)
        #expect(tables?.count == DatabaseCopy.tables.count)

        let again = try CopyWorld.places(["copy", places.database, copy])
        #expect(again.status == 1 && again.err.contains("conflict") && again.err.contains("--replace"))
        let replaced = try CopyWorld.places(["copy", places.database, copy, "--replace"])
        #expect(replaced.status == 0 && replaced.out.contains("place") && replaced.out.contains("generation"))
        let same = try CopyWorld.places(["copy", copy, copy])
        #expect(same.status == 64 && same.err.contains("same database"))

        let found = try PlacesBinary(database: copy, folder: places.folder).json(["search", "cafe"])
        #expect((found["items"] as? [[String: Any]])?.first?["id"] as? String == "c1")
    }
}

/// A source that hands over the places, then fails.
struct BrokenSource: CopySource {
    struct Broke: Error {}

    func readCopy(_ deliver: @escaping @Sendable (CopiedTable, [[StoredValue]]) async throws -> Void) async throws -> Int64 {
        let place = try #require(DatabaseCopy.tables.first)
        var row = place.columns.map { _ in StoredValue.null }
        let values: [String: StoredValue] = [
            "id": .text("new-1"), "kind": .text("gem"), "name": .text("New"), "description": .text(""), "latitude": .real(1),
            "longitude": .real(2), "tags": .text("[]"), "created_at": .text("2026-11-20T12:00:00Z"),
            "updated_at": .text("2026-11-20T12:00:00Z"), "revision": .integer(1), "rating_count": .integer(0), "rating_sum": .integer(0),
            "photo_count": .integer(0),
        ]
        for (name, value) in values { row[try #require(place.position(of: name))] = value }
        try await deliver(place, [row])
        throw Broke()
    }
}

/// A source that notes the batches it hands on: each one's table, rows and bytes.
final class BatchRecorder: CopySource, Sendable {
    let source: any CopySource
    let batches = Mutex<[(table: String, rows: Int, bytes: Int)]>([])

    init(source: any CopySource) { self.source = source }

    func readCopy(_ deliver: @escaping @Sendable (CopiedTable, [[StoredValue]]) async throws -> Void) async throws -> Int64 {
        try await source.readCopy { [self] table, rows in
            self.batches.withLock { $0.append((table.name, rows.count, rows.joined().reduce(0) { $0 + $1.size })) }
            try await deliver(table, rows)
        }
    }
}

/// What the copy tests share: engines, services, rows.
enum CopyWorld {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let lisbon = Coordinate(latitude: 38.71, longitude: -9.14)

    /// The engine a test's target runs on.
    enum TargetEngine: String, CustomTestStringConvertible, Sendable {
        case sqlite, postgres

        var testDescription: String { rawValue }

        /// Runs `body` on a fresh database of this engine (a file in `folder`, or a schema of its own).
        func withDatabase(
            _ folder: URL,
            _ body: (any CopySource & CopyTarget, any PlaceRepository) async throws -> Void
        ) async throws {
            switch self {
            case .sqlite:
                let database = try PlacesDatabase(path: folder.appendingPathComponent("target.sqlite").path)
                try await body(database, database.places)
            case .postgres:
                try await withPostgres { database in try await body(database, database.places) }
            }
        }
    }

    /// The services over an engine, at a fixed time and with fixed decision seeds.
    static func services(_ engine: Engine) -> PlacesServices {
        PlacesServices(repositories: engine.repositories, hasher: PlainHasher(), clock: { now }, makeSeed: { 7 })
    }

    /// Every copied table's rows, in primary-key order, as a copy reads them.
    static func rows(of source: any CopySource) async throws -> [String: [[StoredValue]]] {
        let collected = Mutex<[String: [[StoredValue]]]>([:])
        _ = try await source.readCopy { table, rows in collected.withLock { $0[table.name, default: []] += rows } }
        return collected.withLock { collected in
            Dictionary(uniqueKeysWithValues: DatabaseCopy.tables.map { ($0.name, collected[$0.name] ?? []) })
        }
    }

    /// A seeded place near Lisbon.
    static func place(_ id: String, _ name: String, offset: Double = 0) -> Place {
        var place = TestPlaces.place(
            id,
            lat: lisbon.latitude + offset,
            lon: lisbon.longitude + offset,
            kind: .restaurant,
            name: name,
            description: "A place called \(name)",
            tags: ["Fado", "Petiscos"],
            seedSource: "lisbon.json",
            at: now
        )
        place.cuisine = "Portuguese"
        return place
    }

    /// Runs the `places` binary with exactly `arguments`.
    static func places(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = PlacesBinary.executable
        process.arguments = arguments
        let (stdout, stderr) = (Pipe(), Pipe())
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}

/// Passwords "hashed" by a prefix: these tests are about copying, not hashing.
struct PlainHasher: PasswordHasher {
    func hash(_ password: String) async throws -> String { "plain:" + password }
    func verify(_ password: String, against hash: String) async throws -> Bool { hash == "plain:" + password }
}

/// Life in a database, told through the services: what every table holds, and the questions asked of each copy.
struct Story {
    var token: String
    var ana: User
    var ben: User
    var open: String
    var completed: String

    /// People, settings, a status, a session, places seeded and added, favourites, ratings, friends, a declined request,
    /// a block, a group with members, an invitation and an admin's alert, collections with entries, an open decision with
    /// a ballot, a completed one (after a swipe round, with a message), notifications (one read).
    static func populate(_ services: PlacesServices, places: any PlaceRepository) async throws -> Story {
        try await places.seed([
            CopyWorld.place("lx-1", "Café Lumière"), CopyWorld.place("lx-2", "Tasca do Chico", offset: 0.001),
            CopyWorld.place("lx-3", "Miradouro", offset: 0.002),
        ])
        var people: [String: User] = [:]
        for (name, display) in [("ana", "Ána Sousa"), ("ben", "Ben"), ("cara", "Cara"), ("dan", "Dan")] {
            let profile = ProfilePatch(displayName: .set(display), email: .set("\(name)@example.com"))
            people[name] = try await services.accounts.register(
                Registration(username: name, password: "a long password", profile: profile),
                clientAddress: "test"
            )
        }
        let (ana, ben, cara, dan) = try (#require(people["ana"]), #require(people["ben"]), #require(people["cara"]), #require(people["dan"]))
        let token = try await services.accounts.login(Credentials(name: .username("ana"), password: "a long password"), clientAddress: "test")
        _ = try await services.accounts.updateSettings(userID: ana.id, SettingsPatch(units: .set(.km), defaultRadiusMiles: .set(3)))

        try await services.places.loadIndex()
        let added = try await services.places.create(
            NewPlace(fields: PlacePatch(name: .set("Café Novo"), kind: .set(.gem), lat: .set(38.713), lon: .set(-9.137), tags: .set(["view"]))),
            owner: ana
        )
        try await services.places.favorite(placeID: "lx-1", user: ana)
        try await services.places.favorite(placeID: added.id, user: ben)
        // Photos: one of two chunks, one shown by two photos (its bytes stored once), and a picture.
        let big = PhotoUpload(bytes: TestImages.png(width: 300, height: 300), mediaType: "image/png", caption: "Terrace")
        _ = try await services.photos.add(big, toPlace: "lx-1", by: ana)
        _ = try await services.photos.add(PhotoUpload(bytes: TestImages.jpeg(gps: true), mediaType: "image/jpeg"), toPlace: "lx-2", by: ben)
        _ = try await services.photos.add(PhotoUpload(bytes: TestImages.jpeg(gps: true), mediaType: "image/jpeg"), toPlace: added.id, by: ana)
        _ = try await services.photos.setPicture(PhotoUpload(bytes: TestImages.webp(), mediaType: "image/webp"), of: ben)
        _ = try await services.places.rate(placeID: "lx-2", user: ana, RatePlace(stars: 4, review: "Good petiscos"))
        _ = try await services.places.rate(placeID: "lx-2", user: ben, RatePlace(stars: 5, review: nil))

        _ = try await services.groups.requestFriend(ana, username: "ben")
        _ = try await services.groups.acceptFriend(ben, username: "ana")
        _ = try await services.groups.requestFriend(ana, username: "cara")
        _ = try await services.groups.requestFriend(dan, username: "cara")
        try await services.groups.declineFriend(cara, username: "dan")
        try await services.accounts.block(cara, username: "dan")
        _ = try await services.accounts.setStatus(ana, SetStatus(text: "In Lisbon", expiresAt: nil))

        let crew = try await services.groups.createGroup(ana, NewGroup(name: "Crew", description: "Lisbon evenings", pictureURL: nil))
        _ = try await services.groups.invite(ana, groupID: crew.id, username: "ben")
        _ = try await services.groups.answerInvitation(ben, groupID: crew.id, accept: true)
        _ = try await services.groups.invite(ana, groupID: crew.id, username: "cara")
        try await services.groups.sendAlert(ana, groupID: crew.id, SendAlert(message: "Dinner moves to nine"))

        let mine = try await services.collections.create(ana, NewCollection(name: "Mine", description: "to try", groupId: nil))
        _ = try await services.collections.add(ana, id: mine.id, CollectionAddition(placeId: "lx-3", position: nil))
        let dinner = try await services.collections.create(ana, NewCollection(name: "Dinner", description: nil, groupId: crew.id))
        for id in ["lx-1", "lx-2", added.id] {
            _ = try await services.collections.add(ben, id: dinner.id, CollectionAddition(placeId: id, position: nil))
        }

        let open = try await services.decisions.create(ana, StartDecision(method: .tiered, candidates: .collection(id: dinner.id), groupId: crew.id))
        _ = try await services.decisions.vote(ana, id: open.id, CastBallot(ranking: ["lx-2", "lx-1"]))
        let done = try await services.decisions.create(
            ana,
            StartDecision(
                method: .tiered,
                candidates: .places(["lx-1", "lx-2", "lx-3"]),
                groupId: crew.id,
                title: "Friday",
                swipe: StartDecision.Round(vetoes: 1, minYes: nil, deadline: nil)
            )
        )
        _ = try await services.decisions.swipe(ana, id: done.id, SwipeAnswers(answers: [("lx-1", .yes), ("lx-2", .veto), ("lx-3", .yes)]))
        _ = try await services.decisions.swipe(ben, id: done.id, SwipeAnswers(answers: [("lx-1", .yes), ("lx-2", .no), ("lx-3", .yes)]))
        _ = try await services.conversations.post(ben, decisionID: done.id, PostMessage(text: "Miradouro at sunset?"))
        _ = try await services.decisions.vote(ana, id: done.id, CastBallot(ranking: ["lx-3"]))
        let completed = try await services.decisions.vote(ben, id: done.id, CastBallot(ranking: ["lx-3", "lx-1"]))
        #expect(completed.status == .completed)

        let notices = try await services.notifications.list(recipientID: ben.id, page: PageRequest())
        try await services.notifications.markRead(id: try #require(notices.items.first?.id), recipientID: ben.id)
        return Story(token: token.token, ana: ana, ben: ben, open: open.id, completed: done.id)
    }

    /// What the services answer on one database: nearby, search, both decisions, a user search, the signed-in caller,
    /// notifications (JSON text where the answer is only Encodable).
    struct Answers: Equatable {
        var nearby: NearbyAnswer
        var search: String
        var decisions: [String]
        var users: String
        var caller: String
        var notifications: String
        /// A place's photos, and the bytes served for the first.
        var photos: String
        var photoBytes: [UInt8]
    }

    static func answers(_ services: PlacesServices, _ story: Story) async throws -> Answers {
        let search = try PlaceSearchQuery.parse(q: "cafe", lat: nil, lon: nil, radius: nil, page: PageRequest())
        let photos = try await services.photos.photos(ofPlace: "lx-1", page: PageRequest())
        let first = try await services.photos.photoToServe(id: try #require(photos.items.first).id)
        var photoBytes: [UInt8] = []
        for index in 0..<first.chunkCount { photoBytes += try await services.photos.chunk(of: first, index: index) }
        #expect(first.chunkCount == 2 && photoBytes.count == first.photo.byteCount)
        return Answers(
            nearby: try await services.places.nearbyLoadingIndex(try NearbyQuery(center: CopyWorld.lisbon, radiusMiles: 5)),
            search: try json(try await services.places.search(search)),
            decisions: [
                try json(try await services.decisions.view(story.ana, id: story.open)),
                try json(try await services.decisions.view(story.ben, id: story.completed)),
            ],
            users: try json(try await services.accounts.searchUsers("sousa", page: PageRequest())),
            caller: try await services.accounts.authenticate(token: story.token).user.id,
            notifications: try json(try await services.notifications.list(recipientID: story.ben.id, page: PageRequest())),
            photos: try json(photos),
            photoBytes: photoBytes
        )
    }

    /// The value as JSON text with sorted keys.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A fresh PostgreSQL schema for `body`, dropped when it ends.
private func withPostgres(_ body: (PostgresPlacesDatabase) async throws -> Void) async throws {
    let database = try await TestPostgres.database()
    do {
        try await body(database)
    } catch {
        try? await PostgresStore(database: database).close()
        throw error
    }
    try await PostgresStore(database: database).close()
}

/// A temporary folder for one test, removed when `body` ends.
private func withFolder(_ body: (URL) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-copy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(folder)
}
