import Foundation
import PlacesCore
import Testing

/// `places seed` on OpenStreetMap extracts the test writes itself (OSM XML, made a `.osm.pbf` by osmium), on both
/// engines: a first import, a newer extract that updates places in place, and `--prune`.
@Suite("places seed on OpenStreetMap extracts")
struct OpenStreetMapSeedTests {
    /// A small city: a restaurant node with every mapped tag, a café mapped as its building's outline, an L-shaped
    /// garden whose centroid lies outside it, a park as a multipolygon relation, a city wall as an open way, and
    /// features that are no place.
    static func extract(restaurantName: String = "Zur Linde", hours: String = "Mo-Fr 11:00-22:00; Sa 12:00-02:00", withViewpoint: Bool = true, withFountain: Bool = false) -> String {
        var nodes = [
            node(1, 52.5, 13.4, [
                "amenity": "restaurant", "name": restaurantName, "cuisine": "german;regional_food", "diet:vegetarian": "yes",
                "diet:vegan": "no", "diet:gluten_free": "only", "opening_hours": hours, "addr:street": "Hauptstraße",
                "addr:housenumber": "5", "addr:postcode": "10115", "addr:city": "Berlin", "website": "https://linde.example",
                "phone": "+49 30 1234;+49 30 5678", "wheelchair": "limited",
            ]),
            // The café's outline, and the L-shaped garden's corners.
            node(2, 52.50, 13.41), node(3, 52.51, 13.41), node(4, 52.51, 13.42), node(5, 52.50, 13.42),
            node(11, 52.60, 13.50), node(12, 52.60, 13.53), node(13, 52.61, 13.53), node(14, 52.61, 13.51),
            node(15, 52.63, 13.51), node(16, 52.63, 13.50),
            node(21, 52.55, 13.45), node(22, 52.55, 13.46), node(23, 52.56, 13.46),
            node(31, 52.52, 13.43), node(32, 52.53, 13.43),
            node(40, 52.54, 13.44, ["amenity": "bench", "name": "A bench"]),
            node(41, 52.54, 13.45, ["amenity": "cafe"]),
            node(42, 52.54, 13.46, ["historic": "memorial", "memorial": "stolperstein", "name": "A Stolperstein"]),
            node(43, 52.54, 13.47, ["leisure": "garden", "access": "private", "name": "A private garden"]),
            node(44, 52.54, 13.48, ["amenity": "bar", "name": "Bar", "website": "www.bar.example", "opening_hours": "Mo-Fr 18:00+"]),
        ]
        if withViewpoint { nodes.append(node(45, 52.54, 13.49, ["tourism": "viewpoint", "name": "Hill view"])) }
        if withFountain { nodes.append(node(46, 52.54, 13.40, ["amenity": "fountain", "name": "Fountain"])) }
        let ways = [
            way(10, [2, 3, 4, 5, 2], ["amenity": "cafe", "name": "Kaffee", "building": "yes", "opening_hours": "24/7"]),
            way(20, [11, 12, 13, 14, 15, 16, 11], ["leisure": "garden", "name": "L Garden"]),
            way(30, [21, 22, 23, 21], [:]),
            way(31, [31, 32], ["historic": "citywalls", "name": "City wall"]),
        ]
        let relation = #"<relation id="7" version="1"><member type="way" ref="30" role="outer"/><tag k="type" v="multipolygon"/><tag k="leisure" v="park"/><tag k="name" v="Triangle Park"/></relation>"#
        return #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<osm version=\"0.6\" generator=\"places-tests\">\n"
            + (nodes + ways + [relation]).joined(separator: "\n") + "\n</osm>\n"
    }

    static func node(_ id: Int, _ lat: Double, _ lon: Double, _ tags: [String: String] = [:]) -> String {
        "<node id=\"\(id)\" version=\"1\" lat=\"\(lat)\" lon=\"\(lon)\">" + tagXML(tags) + "</node>"
    }

    static func way(_ id: Int, _ refs: [Int], _ tags: [String: String]) -> String {
        "<way id=\"\(id)\" version=\"1\">" + refs.map { "<nd ref=\"\($0)\"/>" }.joined() + tagXML(tags) + "</way>"
    }

    static func tagXML(_ tags: [String: String]) -> String {
        tags.sorted { $0.key < $1.key }.map { "<tag k=\"\($0.key)\" v=\"\($0.value)\"/>" }.joined()
    }

    /// Writes `xml` as `name.osm` and converts it with osmium into `name.osm.pbf`; answers the `.osm.pbf`'s path.
    static func pbf(_ xml: String, named name: String, in folder: URL) throws -> String {
        let osm = folder.appendingPathComponent("\(name).osm")
        try Data(xml.utf8).write(to: osm)
        let pbf = folder.appendingPathComponent("\(name).osm.pbf").path
        // Unwrapped into a `URL` first: assigned straight to the optional `executableURL`, `#require` would pass a
        // missing program on as nil, and the setter would crash the whole test process instead of failing this test.
        let program: URL = try #require(
            ["/usr/bin/osmium", "/usr/local/bin/osmium", "/opt/homebrew/bin/osmium"].first(where: FileManager.default.isExecutableFile).map(URL.init(fileURLWithPath:)),
            "these tests need osmium-tool (apt-get install osmium-tool); .ci/run installs it"
        )
        let osmium = Process()
        osmium.executableURL = program
        osmium.arguments = ["cat", osm.path, "--output", pbf, "--overwrite"]
        try osmium.run()
        osmium.waitUntilExit()
        try #require(osmium.terminationStatus == 0, "osmium cat failed")
        return pbf
    }

    @Test(arguments: CommandEngine.available)
    func anExtractImportsItsNamedPlacesAndANewerOneUpdatesThemInPlace(_ engine: CommandEngine) async throws {
        let places = try await PlacesBinary(engine)
        defer { try? FileManager.default.removeItem(at: places.folder) }

        let first = try places.run(["seed", try Self.pbf(Self.extract(), named: "city", in: places.folder), "--time-zone", "Europe/Berlin"])
        #expect(first.status == 0, "\(first.err)")
        let lines = first.out.split(separator: "\n").map(String.init)
        // osmium's filter keeps what the table may map (not the bench); of that, the café without a name, the
        // Stolperstein and the private garden are skipped.
        #expect(lines.contains { $0.hasSuffix("city.osm.pbf: read 10 features: 7 new, 0 updated, 3 skipped") }, "\(first.out)")
        #expect(first.out.contains(": skipped 1 without a name\n"), "\(first.out)")
        #expect(first.out.contains(": skipped 1 not mapped\n"), "the Stolperstein: \(first.out)")
        #expect(first.out.contains(": skipped 1 private\n"), "\(first.out)")
        #expect(first.out.contains(": skipped 1 invalid\n") == false)
        #expect(first.out.contains(": opening hours not understood for 1 places (kept without hours)"), "the bar's open end: \(first.out)")
        #expect(first.out.contains(": left out 1 website values"), "the bar's website without a scheme: \(first.out)")

        let restaurant = try places.json(["place", "show", "osm:n1"])
        #expect(restaurant["kind"] as? String == "restaurant" && restaurant["name"] as? String == "Zur Linde")
        #expect(Set(restaurant["tags"] as? [String] ?? []) == ["restaurant", "german", "regional-food", "vegetarian", "gluten-free", "wheelchair-limited"])
        #expect(restaurant["cuisine"] as? String == "german, regional food")
        #expect(restaurant["address"] as? String == "5 Hauptstraße, 10115" && restaurant["city"] as? String == "Berlin")
        #expect(restaurant["phone"] as? String == "+49 30 1234" && restaurant["website"] as? String == "https://linde.example")
        #expect(restaurant["timeZone"] as? String == "Europe/Berlin")
        let hours = try #require(restaurant["openingHours"] as? [String: [String]])
        #expect(hours == ["mon": ["11:00-22:00"], "tue": ["11:00-22:00"], "wed": ["11:00-22:00"], "thu": ["11:00-22:00"], "fri": ["11:00-22:00"], "sat": ["12:00-02:00"]])

        let cafe = try places.json(["place", "show", "osm:w10"])
        #expect(cafe["kind"] as? String == "restaurant" && (cafe["openingHours"] as? [String: [String]])?.count == 7)
        #expect(abs((cafe["lat"] as? Double ?? 0) - 52.505) < 1e-9 && abs((cafe["lon"] as? Double ?? 0) - 13.415) < 1e-9, "the middle of the square")
        // The L's centroid (about 52.613, 13.514) lies in its notch; the point must lie in the L itself.
        let garden = try places.json(["place", "show", "osm:w20"])
        let (lat, lon) = (try #require(garden["lat"] as? Double), try #require(garden["lon"] as? Double))
        let inFoot = lat > 52.60 && lat < 52.61 && lon > 13.50 && lon < 13.53
        let inStem = lat > 52.60 && lat < 52.63 && lon > 13.50 && lon < 13.51
        #expect(inFoot || inStem, "(\(lat), \(lon)) is not inside the L")
        #expect(try places.json(["place", "show", "osm:r7"])["name"] as? String == "Triangle Park")
        let wall = try places.json(["place", "show", "osm:w31"])
        #expect(abs((wall["lat"] as? Double ?? 0) - 52.525) < 1e-9 && wall["lon"] as? Double == 13.43, "halfway along the wall")
        #expect(try places.run(["place", "show", "osm:n40"]).status == 64, "a bench is no place")

        // A place the operator added inside the extract's bounds, and one seeded from our own format.
        _ = try places.json(["place", "add", "--name", "Operator's corner", "--lat", "52.53", "--lon", "13.44"])
        try places.seed(#"{"places":[{"id":"own-1","name":"Own","lat":52.53,"lon":13.45}]}"#, named: "own.json")

        // A newer extract: the restaurant renamed with new hours, the viewpoint gone, a fountain new.
        let newer = try Self.pbf(Self.extract(restaurantName: "Zur Alten Linde", hours: "Mo-Su 12:00-23:00; We off", withViewpoint: false, withFountain: true), named: "city-newer", in: places.folder)
        let second = try places.run(["seed", newer, "--time-zone", "Europe/Berlin"])
        #expect(second.status == 0, "\(second.err)")
        #expect(second.out.contains(": read 10 features: 1 new, 6 updated, 3 skipped\n"), "\(second.out)")
        #expect(second.out.contains(": 1 places gone from OpenStreetMap within the extract's bounds; --prune removes them (osm:n45)"), "\(second.out)")
        let renamed = try places.json(["place", "show", "osm:n1"])
        #expect(renamed["name"] as? String == "Zur Alten Linde")
        #expect((renamed["openingHours"] as? [String: [String]])?.keys.sorted() == ["fri", "mon", "sat", "sun", "thu", "tue"])
        #expect(try places.json(["place", "show", "osm:n45"])["name"] as? String == "Hill view", "reported, not removed")

        let pruned = try places.run(["seed", newer, "--prune", "--time-zone", "Europe/Berlin"])
        #expect(pruned.status == 0, "\(pruned.err)")
        #expect(pruned.out.contains(": read 10 features: 0 new, 7 updated, 3 skipped\n"), "\(pruned.out)")
        #expect(pruned.out.contains(": removed 1 places gone from OpenStreetMap within the extract's bounds (osm:n45)"), "\(pruned.out)")
        #expect(try places.run(["place", "show", "osm:n45"]).status == 64)
        #expect(try places.json(["place", "show", "own-1"])["name"] as? String == "Own", "a place of another seed file stays")
        let near = try places.json(["nearby", "--lat", "52.53", "--lon", "13.44", "--radius", "20"])
        let ids = (near["places"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(ids.filter { $0.hasPrefix("osm:") }.sorted() == ["osm:n1", "osm:n44", "osm:n46", "osm:r7", "osm:w10", "osm:w20", "osm:w31"], "no duplicates: \(ids)")
        #expect(ids.count == 9, "with the operator's and the own seed's places: \(ids)")
    }

    @Test func aBrokenExtractAndAMissingZoneAreClearErrors() async throws {
        let places = try PlacesBinary()
        defer { try? FileManager.default.removeItem(at: places.folder) }
        let broken = places.folder.appendingPathComponent("broken.osm.pbf")
        try Data("not a pbf".utf8).write(to: broken)
        let refused = try places.run(["seed", broken.path])
        #expect(refused.status == 64 && refused.err.contains("broken.osm.pbf: osmium could not read it"), "\(refused.err)")
        let missing = try places.run(["seed", broken.path], environment: ["PATH": places.folder.path])
        #expect(missing.status == 64 && missing.err.contains("needs osmium-tool") && missing.err.contains("apt-get install osmium-tool"), "\(missing.err)")
        let zone = try places.run(["seed", broken.path, "--time-zone", "Mars/Olympus"])
        #expect(zone.status == 64 && zone.err.contains("unknown IANA time zone 'Mars/Olympus'"), "\(zone.err)")
        // A .geojsonseq of osmium's shape, read directly: a record separator, a feature without an id, a broken line.
        let sequence = places.folder.appendingPathComponent("city.geojsonseq")
        try Data((
            "\u{1E}{\"type\":\"Feature\",\"id\":\"n5\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[2.35,48.85]},\"properties\":{\"amenity\":\"cafe\",\"name\":\"Café\"}}\n"
            + "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[2.35,48.85]},\"properties\":{\"amenity\":\"cafe\",\"name\":\"No id\"}}\n"
            + "{\"type\":\"Feat\n\n"
            + "{\"type\":\"Feature\",\"id\":\"a41\",\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[[[[2.30,48.80],[2.31,48.80],[2.31,48.81],[2.30,48.80]]]]},\"properties\":{\"leisure\":\"park\",\"name\":\"Parc\"}}"
        ).utf8).write(to: sequence)
        let read = try places.run(["seed", sequence.path])
        #expect(read.status == 0, "\(read.err)")
        #expect(read.out.contains(": read 4 features: 2 new, 0 updated, 2 skipped\n") && read.out.contains(": skipped 2 invalid\n"), "\(read.out)")
        #expect(read.err.contains("line 2: a feature needs its OpenStreetMap id"), "\(read.err)")
        #expect(try places.json(["place", "show", "osm:r20"])["name"] as? String == "Parc", "an area of relation 20 (osmium's a41)")
    }
}
