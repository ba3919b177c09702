import Foundation
import GeoIndex
import Testing

@testable import PlacesCore

/// The table of `Seeds/README.md` row by row: which OpenStreetMap features are places, and what each tag becomes.
@Suite("OpenStreetMap tags to places")
struct OSMPlaceTagsTests {
    /// One row of the table: the tags of a named feature, and what the place has (kind, its tags, other fields).
    struct Row: CustomTestStringConvertible, Sendable {
        var tags: [String: String]
        var kind: String?
        var placeTags: [String] = []
        var fields: [String: String] = [:]
        var skip: OSMPlaceTags.Skip?
        var testDescription: String { tags.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }
    }

    static let kinds: [Row] = [
        Row(tags: ["amenity": "restaurant"], kind: "restaurant", placeTags: ["restaurant"]),
        Row(tags: ["amenity": "cafe"], kind: "restaurant", placeTags: ["cafe"]),
        Row(tags: ["amenity": "fast_food"], kind: "restaurant", placeTags: ["fast-food"]),
        Row(tags: ["amenity": "bar"], kind: "restaurant", placeTags: ["bar"]),
        Row(tags: ["amenity": "pub"], kind: "restaurant", placeTags: ["pub"]),
        Row(tags: ["amenity": "biergarten"], kind: "restaurant", placeTags: ["biergarten"]),
        Row(tags: ["amenity": "ice_cream"], kind: "restaurant", placeTags: ["ice-cream"]),
        Row(tags: ["amenity": "food_court"], kind: "restaurant", placeTags: ["food-court"]),
        Row(tags: ["tourism": "viewpoint"], kind: "gem", placeTags: ["viewpoint"]),
        Row(tags: ["tourism": "artwork"], kind: "gem", placeTags: ["artwork"]),
        Row(tags: ["tourism": "attraction"], kind: "gem", placeTags: ["attraction"]),
        Row(tags: ["historic": "castle"], kind: "gem", placeTags: ["historic", "castle"]),
        Row(tags: ["historic": "yes"], kind: "gem", placeTags: ["historic"]),
        Row(tags: ["historic": "memorial", "memorial": "statue"], kind: "gem", placeTags: ["historic", "memorial"]),
        Row(tags: ["leisure": "park"], kind: "gem", placeTags: ["park"]),
        Row(tags: ["leisure": "garden"], kind: "gem", placeTags: ["garden"]),
        Row(tags: ["natural": "peak"], kind: "gem", placeTags: ["peak"]),
        Row(tags: ["natural": "waterfall"], kind: "gem", placeTags: ["waterfall"]),
        Row(tags: ["natural": "beach"], kind: "gem", placeTags: ["beach"]),
        Row(tags: ["natural": "cave_entrance"], kind: "gem", placeTags: ["cave-entrance"]),
        Row(tags: ["amenity": "fountain"], kind: "gem", placeTags: ["fountain"]),
        // A restaurant wins over a gem; the gem's tags are not added.
        Row(tags: ["amenity": "pub", "historic": "building"], kind: "restaurant", placeTags: ["pub"]),
        // Not places.
        Row(tags: ["amenity": "bench"], skip: .notMapped),
        Row(tags: ["leisure": "playground"], skip: .notMapped),
        Row(tags: ["tourism": "hotel"], skip: .notMapped),
        Row(tags: ["historic": "milestone"], skip: .notMapped),
        Row(tags: ["historic": "boundary_stone"], skip: .notMapped),
        Row(tags: ["historic": "memorial", "memorial": "plaque"], skip: .notMapped),
        Row(tags: ["historic": "memorial", "memorial": "stolperstein"], skip: .notMapped),
        Row(tags: ["leisure": "garden", "access": "private"], skip: .closedAccess),
        Row(tags: ["leisure": "park", "access": "no"], skip: .closedAccess),
        Row(tags: ["leisure": "park", "access": "yes"], kind: "gem", placeTags: ["park"]),
    ]

    static let fields: [Row] = [
        Row(tags: ["amenity": "restaurant", "cuisine": "italian;pizza"], kind: "restaurant", placeTags: ["restaurant", "italian", "pizza"], fields: ["cuisine": "italian, pizza"]),
        Row(tags: ["amenity": "restaurant", "cuisine": " coffee_shop ; ;Thai"], kind: "restaurant", placeTags: ["restaurant", "coffee-shop", "thai"], fields: ["cuisine": "coffee shop, Thai"]),
        Row(tags: ["amenity": "cafe", "diet:vegetarian": "yes", "diet:vegan": "only", "diet:halal": "no", "diet:kosher": "yes"], kind: "restaurant", placeTags: ["cafe", "vegetarian", "vegan", "kosher"]),
        Row(tags: ["amenity": "cafe", "diet:gluten_free": "yes", "diet:lactose_free": "yes", "diet:nut_free": "only", "diet:halal": "yes"], kind: "restaurant", placeTags: ["cafe", "halal", "gluten-free", "dairy-free", "nut-free"]),
        Row(tags: ["amenity": "cafe", "diet:dairy_free": "only", "diet:vegan": "limited"], kind: "restaurant", placeTags: ["cafe", "dairy-free"]),
        Row(tags: ["amenity": "bar", "wheelchair": "yes"], kind: "restaurant", placeTags: ["bar", "wheelchair"]),
        Row(tags: ["amenity": "bar", "wheelchair": "limited"], kind: "restaurant", placeTags: ["bar", "wheelchair-limited"]),
        Row(tags: ["amenity": "bar", "wheelchair": "no"], kind: "restaurant", placeTags: ["bar"]),
        Row(tags: ["amenity": "pub", "addr:housenumber": "12", "addr:street": "High Street", "addr:postcode": "SW1A 1AA", "addr:city": "London"], kind: "restaurant", placeTags: ["pub"], fields: ["address": "12 High Street, SW1A 1AA", "city": "London"]),
        Row(tags: ["amenity": "pub", "addr:street": "High Street"], kind: "restaurant", placeTags: ["pub"], fields: ["address": "High Street"]),
        Row(tags: ["amenity": "pub", "addr:full": "Rua Augusta 1, Lisboa", "addr:street": "ignored"], kind: "restaurant", placeTags: ["pub"], fields: ["address": "Rua Augusta 1, Lisboa"]),
        Row(tags: ["amenity": "pub", "website": "https://pub.example", "phone": "+44 20 7946 0000; +44 20 7946 0001"], kind: "restaurant", placeTags: ["pub"], fields: ["website": "https://pub.example", "phone": "+44 20 7946 0000"]),
        Row(tags: ["amenity": "pub", "contact:website": "https://c.example", "contact:phone": "+1 555 0100"], kind: "restaurant", placeTags: ["pub"], fields: ["website": "https://c.example", "phone": "+1 555 0100"]),
        Row(tags: ["tourism": "viewpoint", "description": "Best at dusk", "timezone": "Europe/Lisbon"], kind: "gem", placeTags: ["viewpoint"], fields: ["description": "Best at dusk", "timezone": "Europe/Lisbon"]),
    ]

    @Test(arguments: kinds + fields)
    func aRowOfTheTable(_ row: Row) throws {
        var tags = row.tags.mapValues { FieldValue.text($0) }
        tags["name"] = .text("A place")
        switch OSMPlaceTags.map(id: "n1", point: Coordinate(latitude: 1, longitude: 2), tags: tags) {
        case .failure(let skip):
            #expect(skip == row.skip)
        case .success(let mapped):
            #expect(row.skip == nil)
            #expect(mapped.fields["kind"] == .text(row.kind ?? "?"))
            #expect(mapped.fields["tags"] == .list(row.placeTags.map { .text($0) }))
            for (field, value) in row.fields { #expect(mapped.fields[field] == .text(value), "\(field)") }
            let expected = Set(["id", "kind", "name", "lat", "lon", "tags"]).union(row.fields.keys)
            #expect(Set(mapped.fields.keys) == expected, "no field the row does not name")
            // What the table makes is a valid place.
            _ = try PlaceDraft(normalisedFields: mapped.fields).validated(now: Date(timeIntervalSince1970: 0), seedSource: "t.osm.pbf")
        }
    }

    @Test func withoutANameAFeatureIsSkippedAndTheIdAndHoursAreMapped() throws {
        guard case .failure(.withoutName) = OSMPlaceTags.map(id: "n1", point: Coordinate(latitude: 1, longitude: 2), tags: ["amenity": .text("cafe")]) else {
            Issue.record("a feature without a name is skipped")
            return
        }
        if case .failure(let skip) = OSMPlaceTags.map(id: "n1", point: Coordinate(latitude: 1, longitude: 2), tags: ["amenity": .text("cafe"), "name": .text("  ")]) {
            #expect(skip == .withoutName)
        } else {
            Issue.record("a blank name is no name")
        }
        let mapped = try OSMPlaceTags.map(
            id: "w456", point: Coordinate(latitude: 1, longitude: 2),
            tags: ["amenity": .text("cafe"), "name": .text("Café"), "opening_hours": .text("Mo-Fr 08:00-18:00")]
        ).get()
        #expect(mapped.fields["id"] == .text("osm:w456") && !mapped.hoursNotUnderstood)
        let place = try PlaceDraft(normalisedFields: mapped.fields).validated(now: Date(timeIntervalSince1970: 0))
        #expect(place.openingHours?.textDays == ["mon": ["08:00-18:00"], "tue": ["08:00-18:00"], "wed": ["08:00-18:00"], "thu": ["08:00-18:00"], "fri": ["08:00-18:00"]])
        let unread = try OSMPlaceTags.map(
            id: "n2", point: Coordinate(latitude: 1, longitude: 2),
            tags: ["amenity": .text("cafe"), "name": .text("Café"), "opening_hours": .text("Mo-Fr 08:00-18:00; PH off")]
        ).get()
        #expect(unread.hoursNotUnderstood && unread.fields["openinghours"] == nil)
    }

    @Test func osmiumIsAskedForWhatTheTableReads() {
        #expect(OSMPlaceTags.osmiumFilters == [
            "nwr/amenity=bar,biergarten,cafe,fast_food,food_court,ice_cream,pub,restaurant,fountain",
            "nwr/tourism=artwork,attraction,viewpoint", "nwr/historic", "nwr/leisure=garden,park",
            "nwr/natural=beach,cave_entrance,peak,waterfall",
        ])
        for key in ["name", "memorial", "access", "diet:vegan", "addr:street", "opening_hours", "timezone"] {
            #expect(OSMPlaceTags.exportedKeys.contains(key), "\(key)")
        }
    }

    @Test(arguments: [
        ("n123", "n123"), ("w456", "w456"), ("r789", "r789"), ("a20", "w10"), ("a41", "r20"), ("node/5", "n5"),
        ("way/6", "w6"), ("relation/7", "r7"),
    ])
    func featureIdsNameTheirObject(_ id: String, _ object: String) {
        #expect(OSMFeature.objectName(.text(id)) == object)
    }

    @Test(arguments: ["", "x1", "n", "n-1", "n1a", "way/", "area/1", "12"])
    func otherIdsNameNone(_ id: String) {
        #expect(OSMFeature.objectName(.text(id)) == nil)
    }
}

/// The point that stands for a shape: inside every area, halfway along every line.
@Suite("Interior points of OpenStreetMap shapes")
struct InteriorPointTests {
    typealias Ring = InteriorPoint.Ring

    static func inside(_ point: Coordinate, _ rings: [Ring]) -> Bool {
        var inside = false
        for ring in rings {
            for index in ring.indices.dropFirst() {
                let (a, b) = (ring[index - 1], ring[index])
                if (a.y > point.latitude) != (b.y > point.latitude),
                    point.longitude < a.x + (point.latitude - a.y) * (b.x - a.x) / (b.y - a.y)
                {
                    inside.toggle()
                }
            }
        }
        return inside
    }

    @Test func aSquaresPointIsItsMiddle() throws {
        let point = try #require(InteriorPoint.ofArea([[[(0, 0), (2, 0), (2, 2), (0, 2), (0, 0)]]]))
        #expect(point.latitude == 1 && point.longitude == 1)
    }

    @Test func aUShapesPointIsInsideThoughItsCentroidIsNot() throws {
        // A U: its centroid (x 1.5) lies in the gap between the arms.
        let u: Ring = [(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3), (0, 0)]
        let point = try #require(InteriorPoint.ofArea([[u]]))
        #expect(Self.inside(point, [u]), "\(point)")
        #expect(!Self.inside(Coordinate(latitude: 1.4, longitude: 1.5), [u]), "the centroid falls outside")
    }

    @Test func aHoleIsNotInside() throws {
        let outer: Ring = [(0, 0), (4, 0), (4, 4), (0, 4), (0, 0)]
        let hole: Ring = [(1, 1), (3, 1), (3, 3), (1, 3), (1, 1)]
        let point = try #require(InteriorPoint.ofArea([[outer, hole]]))
        #expect(Self.inside(point, [outer, hole]), "\(point)")
        #expect(!Self.inside(point, [hole]))
    }

    @Test func ofSeveralPolygonsTheWidestHasThePoint() throws {
        let small: Ring = [(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]
        let large: Ring = [(10, 10), (20, 10), (20, 12), (10, 12), (10, 10)]
        let point = try #require(InteriorPoint.ofArea([[small], [large]]))
        #expect(Self.inside(point, [large]))
    }

    @Test func aShapeWithoutAreaHasNoPoint() {
        #expect(InteriorPoint.ofArea([[[(0, 0), (1, 0), (2, 0), (0, 0)]]]) == nil)
        #expect(InteriorPoint.ofArea([]) == nil)
    }

    @Test func aLinesPointIsHalfwayAlongIt() throws {
        let point = try #require(InteriorPoint.ofLine([(0, 0), (0, 1), (0, 4)]))
        #expect(point.latitude == 2 && point.longitude == 0)
        let single = try #require(InteriorPoint.ofLine([(5, 6)]))
        #expect(single.latitude == 6 && single.longitude == 5)
    }
}

/// Lines read a chunk at a time.
@Suite("Lines of a stream")
struct LineStreamTests {
    @Test func linesComeWholeWhateverTheirEnds() throws {
        let long = String(repeating: "x", count: (1 << 20) + 17)
        let text = "a\r\nb\n\n" + long + "\nlast"
        var lines: [String] = []
        try withFile(text) { descriptor in
            var stream = LineStream(descriptor: descriptor)
            while try stream.next({ bytes, number in
                lines.append(String(decoding: bytes, as: UTF8.self))
                #expect(number == lines.count)
            }) {}
        }
        #expect(lines == ["a", "b", "", long, "last"], "a line longer than the first buffer grows it")
    }

    func withFile(_ text: String, _ body: (Int32) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        try body(descriptor)
    }
}
