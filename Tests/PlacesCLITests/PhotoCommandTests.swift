import Foundation
import PlacesCore
import PlacesTestSupport
import Testing

/// `places photo add|list|get|delete`, as an operator and as a person, on both engines.
@Suite("places photo")
struct PhotoCommandTests {
    @Test(arguments: CommandEngine.available)
    func photosAreAddedListedFetchedCleanAndDeletedFromTheCommandLine(_ engine: CommandEngine) async throws {
        let places = try await PlacesBinary(engine)
        defer { try? FileManager.default.removeItem(at: places.folder) }
        try places.seed(
            #"{"places":[{"id":"cli-steps","kind":"gem","name":"Steps","lat":38.71,"lon":-9.14}]}"#,
            named: "steps.json"
        )
        for name in ["ana", "ben"] {
            _ = try places.json(["user", "create", "--username", name, "--email", "\(name)@example.com"], input: "a long password\n")
        }
        let file = places.folder.appendingPathComponent("front.jpg")
        try Data(TestImages.jpeg(width: 20, height: 10, gps: true, orientation: 8, comment: true, trailer: true)).write(to: file)

        let added = try places.json(["photo", "add", "cli-steps", file.path, "--caption", "The steps", "--as", "ana"])
        let id = try #require(added["id"] as? String)
        #expect(added["width"] as? Int == 20 && added["caption"] as? String == "The steps" && added["addedBy"] as? String == "ana")
        let text = try places.run(["photo", "add", "cli-steps", file.path, "--as", "ben"])
        #expect(text.status == 0 && text.out.contains("image/jpeg 20×10  by ben"), "\(text.out) \(text.err)")

        let listed = try places.run(["photo", "list", "cli-steps"])
        #expect(listed.status == 0 && listed.out.split(separator: "\n").count == 2 && listed.out.contains("\"The steps\""), "\(listed.out)")
        #expect(try places.run(["photo", "list", "cli-none"]).status == 64)

        let output = places.folder.appendingPathComponent("served.jpg")
        let got = try places.run(["photo", "get", id, "--output", output.path])
        #expect(got.status == 0, "\(got.err)")
        let served = [UInt8](try Data(contentsOf: output))
        #expect(TestImages.leaks(served) == [])
        #expect(try PhotoFile.clean(served, declaredMediaType: "image/jpeg").orientation == 8)

        // Refusals: an HEIC file, a file that is not there, a person who may not delete it.
        let heic = places.folder.appendingPathComponent("photo.heic")
        try Data(TestImages.heic).write(to: heic)
        let refused = try places.run(["photo", "add", "cli-steps", heic.path, "--as", "ana"])
        #expect(refused.status == 1 && refused.err.contains("unsupported_media_type") && refused.err.contains("image/webp"), "\(refused.err)")
        #expect(try places.run(["photo", "add", "cli-steps", "/nowhere.jpg", "--as", "ana"]).status == 64)
        #expect(try places.run(["photo", "delete", id, "--as", "ben"]).status == 1, "only who added it (the place is seeded)")

        // The operator deletes any photo; then it is gone.
        #expect(try places.run(["photo", "delete", id]).out == "deleted \(id)\n")
        #expect(try places.run(["photo", "get", id, "--output", output.path]).status == 64)
        #expect(try places.run(["photo", "list", "cli-steps"]).out.split(separator: "\n").count == 1)
    }
}
