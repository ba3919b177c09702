import Foundation
import Testing

@Suite("places search")
struct SearchCommandTests {
    /// `--near` puts the nearer of equally relevant matches first, with their distance; with `--lat` it is refused.
    @Test func nearPutsTheNearerOfMatchesAlikeFirst() throws {
        let places = try PlacesBinary()
        defer { try? FileManager.default.removeItem(at: places.folder) }
        try places.seed(
            #"""
            [{"id":"mx","name":"Taco Stand","kind":"restaurant","lat":19.43,"lon":-99.13,"city":"Mexico City"},
             {"id":"sf","name":"Taco Stand","kind":"restaurant","lat":37.76,"lon":-122.42,"city":"San Francisco"}]
            """#,
            named: "tacos.json"
        )
        func ids(_ arguments: [String]) throws -> [String] {
            (try places.json(["search", "taco"] + arguments)["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        #expect(try ids([]) == ["mx", "sf"])
        #expect(try ids(["--near", "37.7749,-122.4194"]) == ["sf", "mx"])
        let table = try places.run(["search", "taco", "--near", "37.7749,-122.4194"])
        #expect(table.status == 0 && table.out.hasPrefix("1.") && table.out.contains("Taco Stand  San Francisco  sf"))
        let refused = try places.run(["search", "taco", "--near", "37.7,-122.4", "--lat", "37.7", "--lon", "-122.4"])
        #expect(refused.status == 64 && refused.err.contains("near"))
    }
}
