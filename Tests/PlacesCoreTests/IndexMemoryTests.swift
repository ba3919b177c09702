import GeoIndex
import Testing

@testable import PlacesCore

/// The index's memory report counts what its structures hold: checked on small tables whose bytes are known, without
/// timing anything.
@Suite("Index memory")
struct IndexMemoryTests {
    typealias Row = PlaceTable.MemoryRow

    /// A name of 26 bytes (held on the heap: longer than 15), in storage of its own.
    static func name(_ i: Int) -> String {
        String(decoding: Array("A name longer than 15 #\(100 + i)".utf8), as: UTF8.self)
    }

    static func places(ids: (Int) -> String, tags: [String]) -> [PlaceSummary] {
        (0..<5).map { i in
            var summary = PlaceSummary(
                id: ids(i),
                kind: i % 2 == 0 ? .gem : .restaurant,
                name: name(i),
                coordinate: Coordinate(latitude: 40 + Double(i) / 100, longitude: -74),
                city: "Town"
            )
            summary.tags = tags
            return summary
        }
    }

    @Test func glibcChunksAreEstimatedAsItRoundsThem() {
        #expect(HeapCensus.chunk(0) == 0)
        #expect(HeapCensus.chunk(1) == 32)
        #expect(HeapCensus.chunk(24) == 32)
        #expect(HeapCensus.chunk(25) == 48)
        #expect(HeapCensus.chunk(59) == 80)
        // 977 keys need 2,048 buckets (1,024 hold 768 at most): 64 + 256 bytes of bitmap + 20 a bucket.
        #expect(HeapCensus.hashTable(capacity: 977, keyStride: 16, valueStride: 4) == HeapCensus.chunk(64 + 256 + 2_048 * 20))
        #expect(HeapCensus.hashTable(capacity: 0, keyStride: 16, valueStride: 4) == 0)
    }

    @Test func theReadyJSONRowCountsThePlacesValues() {
        let places = Self.places(ids: { "p\($0)" }, tags: ["quiet", "view"])
        let table = PlaceTable(PlaceSnapshot(summaries: places, revision: 1))
        let report = table.memoryReport
        var values = 0
        for slot in 0..<table.places.count {
            guard let place = table.places[slot] else { continue }
            var writer = JSONWriter()
            place.write(to: &writer, distance: nil, openStatus: nil)
            // The object's members, without its braces.
            #expect(writer.bytes.count - 2 == place.jsonCount)
            // The kind and the tags are not kept (written from the attributes): their members and the commas before
            // them leave.
            var unkept = JSONWriter()
            unkept.object { writer in
                writer.key("kind")
                writer.string(place.kind.rawValue)
                writer.key("tags")
                writer.array { writer in
                    for tag in place.attributes.tags { writer.string(tag) }
                }
            }
            // The others are kept without their keys: each member's `"key":` and the comma before it (not before the
            // first) leave, and a byte of length comes before each value (all of them shorter than 128 bytes).
            let members = IndexedPlace.Member.allCases.filter { member in
                let quotedKey = member.quotedKey.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
                return String(decoding: writer.bytes, as: UTF8.self).contains(quotedKey)
            }
            let keys = members.reduce(0) { $0 + $1.quotedKey.utf8CodeUnitCount } + members.count - 1
            #expect(place.storedCount == place.jsonCount - (unkept.bytes.count - 1) - keys + members.count)
            values += place.storedCount
        }
        #expect(report.places == 5)
        #expect(report.bytes(of: Row.readyJSON) == values)
        #expect(report.bytes(of: Row.summaries) == 5 * MemoryLayout<PlaceAttributes>.stride)
        #expect(report.bytes(of: Row.entries) > 0)
        #expect(report.total == report.rows.reduce(0) { $0 + $1.bytes })
    }

    @Test func sharedStorageIsCountedOnce() {
        // One tag list shared by every place (as the engines' readers share equal lists), names of 26 bytes each.
        let tags = ["quiet", "view"]
        let shared = PlaceTable(PlaceSnapshot(summaries: Self.places(ids: { "p\($0)" }, tags: tags), revision: 1)).memoryReport
        // The names are only in each place's JSON: no string of theirs is held beside it.
        #expect(shared.bytes(of: Row.strings) == HeapCensus.array(tags))
        // Ids of 36 bytes are only in the JSON too (the slots compare the ids of the entries they point at): 34 bytes
        // more each than ids of 2 bytes, and nothing more anywhere else.
        let long = { (i: Int) in "00000000-0000-0000-0000-00000000000\(i)" }
        let longIDs = PlaceTable(PlaceSnapshot(summaries: Self.places(ids: long, tags: tags), revision: 1)).memoryReport
        #expect(longIDs.bytes(of: Row.readyJSON) == shared.bytes(of: Row.readyJSON) + 5 * 34)
        #expect(longIDs.bytes(of: Row.strings) == shared.bytes(of: Row.strings))
        #expect(longIDs.bytes(of: Row.slots) == shared.bytes(of: Row.slots))
    }

    @Test func thePostingsCountWhatTheyHold() {
        // A word twice in one place ("name", in its name and its tags) is one posting.
        let places = Self.places(ids: { "p\($0)" }, tags: ["quiet", "name"])
        let table = PlaceTable(PlaceSnapshot(summaries: places, revision: 1))
        let words = places.map { SearchPostings.words(of: $0).map(\.word) }
        let size = table.words.size
        #expect(size.postings == words.reduce(0) { $0 + $1.count })
        #expect(size.words == Set(words.joined()).count)
        let counted = table.words.memoryBytes
        // A byte at least a posting (as a delta in LEB128) and four a word's end, in buffers of at least that capacity;
        // a word's bytes and four for its end.
        #expect(counted.postings >= size.postings + 4 * size.words)
        let wordBytes = Set(words.joined()).reduce(0) { $0 + $1.utf8.count }
        #expect(counted.words >= wordBytes + 4 * size.words)
        #expect(table.memoryReport.bytes(of: Row.postings) == counted.postings)
    }

    @Test func rareFieldsTakeAnAllocationOnlyWhenAPlaceHasThem() {
        var summary = PlaceSummary(id: "a", kind: .gem, name: "A", coordinate: Coordinate(latitude: 1, longitude: 2))
        let plain = summary
        #expect(MemoryLayout<PlaceSummary>.stride <= 112)
        #expect(MemoryLayout<PlaceAttributes>.stride <= 48)
        #expect(summary.rareFieldsBytes == 0)
        summary.description = "Quiet"
        summary.timeZone = "Europe/Paris"
        #expect(summary.rareFieldsBytes > 0)
        #expect(summary != plain)
        #expect((summary.description, summary.timeZone, summary.coverPhotoID, summary.openingHours) == ("Quiet", "Europe/Paris", nil, nil))
        // Cleared again, it is the plain summary: equal, with the same hash, and no allocation.
        summary.description = ""
        summary.timeZone = nil
        #expect(summary.rareFieldsBytes == 0)
        #expect(summary == plain)
        #expect(summary.hashValue == plain.hashValue)
    }

    @Test func aDeletedPlaceLeavesTheCount() {
        var table = PlaceTable(PlaceSnapshot(summaries: Self.places(ids: { "p\($0)" }, tags: []), revision: 1))
        let before = table.memoryReport
        let gone = table.places[0]?.storedCount ?? 0
        table.apply(PlaceChanges(upserted: [], deleted: ["p0"], revision: 2))
        let after = table.memoryReport
        #expect(after.places == 4)
        #expect(after.bytes(of: Row.readyJSON) == before.bytes(of: Row.readyJSON) - gone)
        #expect(after.bytes(of: Row.summaries) == 4 * MemoryLayout<PlaceAttributes>.stride)
        #expect(after.bytes(of: Row.strings) == before.bytes(of: Row.strings))
    }

    @Test func anEntryReadsBackTheSummaryItWasMadeFrom() {
        // Labels with every escape the JSON writes (quotes, backslashes, control characters) and text beyond ASCII.
        var summary = PlaceSummary(
            id: "odd \"id\" \\ 1", kind: .restaurant, name: "Caf\u{E9} \"Q\"\n\t\u{1}\u{1F}\u{7F} \\ ok",
            coordinate: Coordinate(latitude: 48.85, longitude: 2.35), city: "Saint-\u{C9}tienne \u{8}\u{C}\r")
        summary.tags = ["quiet", "view"]
        summary.cuisine = "french"
        summary.priceLevel = 3
        summary.photoCount = 2
        summary.coverPhotoID = "photo-1"
        summary.description = "A room upstairs"
        summary.rating = RatingAggregate(count: 3, sum: 11)
        let entry = IndexedPlace.make(summary)
        #expect(entry.summary == summary)
        #expect(entry.id == summary.id)
        #expect(entry.kind == .restaurant)
        #expect(entry.rating == summary.rating)
        #expect(entry.coordinate == summary.coordinate)
        // Without a city, and with the shortest labels.
        let plain = PlaceSummary(id: "a", kind: .gem, name: "A", coordinate: Coordinate(latitude: 1, longitude: 2))
        #expect(IndexedPlace.make(plain).summary == plain)
    }
}
