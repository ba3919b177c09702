import Foundation
import GeoIndex
import PlacesCore
import PlacesTestSupport

/// Small helpers shared by the storage tests.
enum Fixtures {
    static let now = TestPlaces.now

    /// A place with a tag that needs quoting, owned by the seed file `source`.
    static func place(_ id: String, _ lat: Double, _ lon: Double, name: String? = nil, kind: PlaceKind = .gem, source: String? = "test.json") -> Place
    {
        TestPlaces.place(id, lat: lat, lon: lon, kind: kind, name: name, tags: ["a\"quote", "b"], seedSource: source)
    }

    /// A fresh temporary folder, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("places-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `text` to `name` inside `folder` and returns its path.
    static func write(_ text: String, to name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}
