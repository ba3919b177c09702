import Foundation
import Testing

@Suite("places backup")
struct BackupCommandTests {
    @Test func anOperatorBacksUpAndStartsOnTheCopy() throws {
        let places = try PlacesBinary()
        defer { try? FileManager.default.removeItem(at: places.folder) }
        try places.seed(#"[{"id":"c1","name":"Café Uno","kind":"restaurant","lat":38.71,"lon":-9.14}]"#, named: "cafes.json")
        _ = try places.json(["user", "create", "--username", "ops", "--email", "ops@example.com"], input: "a long password\n")

        let copy = places.folder.appendingPathComponent("backup.sqlite").path
        let report = try places.json(["backup", copy])
        #expect(report["places"] as? Int == 1 && report["file"] as? String == copy)
        // Again onto the same file: refused, with the code and the field.
        let again = try places.run(["backup", copy])
        #expect(again.status != 0 && again.err.contains("conflict (file)"))

        // The copy is a whole database: places, search and accounts came along.
        let onCopy = PlacesBinary(database: copy, folder: places.folder)
        let found = try onCopy.json(["search", "cafe"])
        #expect((found["items"] as? [[String: Any]])?.first?["id"] as? String == "c1")
        #expect(try onCopy.json(["settings", "get", "ops"])["units"] as? String == "mi")
    }

    @Test func onPostgreSQLItPointsToPgDump() throws {
        let places = PlacesBinary(database: "postgres://ops:hunter2@127.0.0.1:1/places", folder: FileManager.default.temporaryDirectory)
        let refused = try places.run(["backup", "/tmp/never-written.sqlite"])
        #expect(refused.status == 64)
        #expect(refused.err.contains("pg_dump") && !refused.err.contains("hunter2"))
    }
}
