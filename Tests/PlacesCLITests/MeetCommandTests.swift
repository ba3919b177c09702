import Foundation
import Testing

@Suite("places meet")
struct MeetCommandTests {
    /// The fairest place first, with the farthest origin's distance and each origin's; one origin is bad input.
    @Test func theFairestPlaceComesFirst() throws {
        let places = try PlacesBinary()
        defer { try? FileManager.default.removeItem(at: places.folder) }
        try places.seed(
            #"""
            [{"id":"mission","name":"Mission Tacos","kind":"restaurant","lat":37.76,"lon":-122.42},
             {"id":"between","name":"Halfway Café","kind":"restaurant","lat":37.78,"lon":-122.34},
             {"id":"oakland","name":"Lake Merritt Bench","kind":"gem","lat":37.80,"lon":-122.26},
             {"id":"sacramento","name":"Capitol Park","kind":"gem","lat":38.58,"lon":-121.49}]
            """#,
            named: "bay.json"
        )
        let origins = ["--at", "37.76,-122.42", "--at", "37.80,-122.26"]
        let answer = try places.json(["meet"] + origins)
        let found = answer["places"] as? [[String: Any]] ?? []
        #expect(found.compactMap { $0["id"] as? String } == ["between", "mission", "oakland"], "Sacramento is far from both")
        #expect((found.first?["distances"] as? [Any])?.count == 2)
        let table = try places.run(["meet"] + origins + ["--kind", "gem"])
        #expect(table.status == 0 && table.out.hasPrefix("1 place within 20 mi of all 2 origins") && table.out.contains("Lake Merritt Bench"), "\(table.out)")
        let one = try places.run(["meet", "--at", "37.76,-122.42"])
        #expect(one.status == 64 && one.err.contains("at"))
        #expect(try places.run(["meet", "--at", "-33.86,151.21", "--at", "-33.87,151.2"]).status == 0, "a negative latitude is a value")
    }
}
