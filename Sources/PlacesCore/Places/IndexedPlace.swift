import GeoIndex

/// A live place as the index holds it: its summary, and its public JSON form made once, when it enters the index.
///
/// Every answer that shows a place (the nearby JSON, GeoJSON's properties, the CLI's `--json`) copies these
/// bytes around the parts that depend on the question, the distances and the open status, so a nearby answer
/// neither copies a summary's fields nor formats its numbers again. The JSON is stored in the same allocation as the
/// summary (a `ManagedBuffer`), so a place costs one allocation and one pointer chase. Measured with 1M generated
/// places (JSON of about 180 bytes each), a server holds about 224 bytes a place more than when the summaries sat
/// in one array without their JSON (533 MiB against 318 MiB resident).
///
/// `@unchecked Sendable` is sound because nothing mutates the buffer after `make` returns: the header and the bytes
/// are written once inside `make`, the buffer never leaves this type, and every other member only reads it.
struct IndexedPlace: @unchecked Sendable {
    /// What the buffer keeps before its JSON bytes.
    struct Head {
        /// What nearby answers show and their filters read.
        let summary: PlaceSummary
        /// How many JSON bytes follow.
        let count: UInt32
        /// Where the distances go: after the members `city`, `coverPhotoURL` and `cuisine` (which may be absent).
        let distancesAt: UInt32
        /// Where the open status goes: after the members `id` … `name`; `photoCount` … `tags` follow it.
        let openStatusAt: UInt32
    }

    /// Makes the entry of `summary`, writing its JSON members once: in sorted key order, comma-separated, without
    /// braces, in three runs split at the distances and the open status.
    private let buffer: ManagedBuffer<Head, UInt8>

    private init(_ buffer: ManagedBuffer<Head, UInt8>) {
        self.buffer = buffer
    }

    static func make(_ summary: PlaceSummary) -> IndexedPlace {
        var writer = JSONWriter(capacity: 160 + summary.name.utf8.count + 2 * (summary.city?.utf8.count ?? 0))
        writer.member("city", summary.city) { $0.string($1) }
        writer.member("coverPhotoURL", summary.coverPhotoURL) { $0.string($1) }
        writer.member("cuisine", summary.cuisine) { $0.string($1) }
        let distancesAt = writer.bytes.count
        writer.startMemberRun()
        writer.key("id")
        writer.string(summary.id)
        writer.key("kind")
        writer.string(summary.kind.rawValue)
        writer.key("lat")
        writer.number(summary.coordinate.latitude)
        writer.key("lon")
        writer.number(summary.coordinate.longitude)
        writer.key("name")
        writer.string(summary.name)
        let openStatusAt = writer.bytes.count
        writer.startMemberRun()
        writer.member("photoCount", summary.photoCount > 0 ? summary.photoCount : nil) { $0.number($1) }
        writer.member("priceLevel", summary.priceLevel) { $0.number($1) }
        let rating = summary.rating
        writer.member("ratingAverage", rating.average) { $0.number($1) }
        writer.key("ratingCount")
        writer.number(rating.count)
        writer.key("score")
        writer.number(rating.score)
        writer.key("tags")
        writer.array { writer in
            for tag in summary.tags { writer.string(tag) }
        }
        let json = writer.bytes
        let buffer = ManagedBuffer<Head, UInt8>.create(minimumCapacity: json.count) { buffer in
            buffer.withUnsafeMutablePointerToElements { elements in
                json.withUnsafeBufferPointer { elements.initialize(from: $0.baseAddress!, count: json.count) }
            }
            return Head(summary: summary, count: UInt32(json.count), distancesAt: UInt32(distancesAt), openStatusAt: UInt32(openStatusAt))
        }
        return IndexedPlace(buffer)
    }

    /// What nearby answers show and their filters read.
    var summary: PlaceSummary { buffer.header.summary }

    /// The place's coordinate, read in place (without copying the summary and retaining its fields).
    var coordinate: Coordinate { buffer.withUnsafeMutablePointerToHeader { $0.pointee.summary.coordinate } }

    /// Where the summary lies in the header.
    private static let summaryOffset = MemoryLayout<Head>.offset(of: \Head.summary)!

    /// Whether the place passes a filter, each field of its summary read where it lies (`$0.pointee.summary` copied
    /// the summary, retaining and releasing each of its fields; a filter that passes few places reads every place of a
    /// circle: a 20-mile nearby with `minRating=4` that nothing meets took 64 ms at 1M places, 16.5 ms so).
    func passes(_ matcher: PlaceFilter.Matcher) -> Bool {
        buffer.withUnsafeMutablePointerToHeader { head in
            matcher.matches(UnsafeRawPointer(head).advanced(by: Self.summaryOffset).assumingMemoryBound(to: PlaceSummary.self))
        }
    }

    /// How many bytes the place's JSON members take.
    var jsonCount: Int { Int(buffer.header.count) }

    /// The bytes the entry's allocation takes (`HeapCensus.chunk` of the object's 16-byte header, the head and the JSON
    /// bytes): what `PlaceTable.memoryReport` splits into the JSON, the summary held inline and the rest.
    var allocationBytes: Int {
        let headToElements = buffer.withUnsafeMutablePointers { head, elements in UnsafeRawPointer(elements) - UnsafeRawPointer(head) }
        return HeapCensus.chunk(16 + headToElements + jsonCount)
    }

    /// True when both are the same entry of the index.
    func isSameEntry(as other: IndexedPlace) -> Bool { buffer === other.buffer }

    /// Writes the place as a JSON object with, when a query had a centre, its distance from it (in metres, miles and
    /// kilometres) and, when a query asked about a time, its open status: byte for byte what the encoder writes for
    /// the same fields.
    func write(to writer: inout JSONWriter, distance: PlaceDistance?, openStatus: OpenStatus?, distances: [PlaceDistance]? = nil) {
        let head = buffer.withUnsafeMutablePointerToHeader { (Int($0.pointee.count), Int($0.pointee.distancesAt), Int($0.pointee.openStatusAt)) }
        let (count, distancesAt, openStatusAt) = head
        buffer.withUnsafeMutablePointerToElements { elements in
            let json = UnsafeBufferPointer(start: elements, count: count)
            writer.object { writer in
                writer.members(UnsafeBufferPointer(rebasing: json[..<distancesAt]))
                if let distance {
                    writer.key("distanceKm")
                    writer.number(distance.kilometers)
                    writer.key("distanceMeters")
                    writer.number(distance.meters)
                    writer.key("distanceMiles")
                    writer.number(distance.miles)
                }
                // A meet's: from each origin (sorted after distanceMiles, before the keys that follow it).
                if let distances {
                    writer.key("distances")
                    writer.array { writer in
                        for each in distances { writer.object("meters", each.meters, "miles", each.miles) }
                    }
                }
                writer.members(UnsafeBufferPointer(rebasing: json[distancesAt..<openStatusAt]))
                writer.member("openStatus", openStatus) { $0.string($1.rawValue) }
                writer.members(UnsafeBufferPointer(rebasing: json[openStatusAt...]))
            }
        }
    }

    /// Writes the place as a GeoJSON Point feature whose properties are its JSON object (as `write` writes it).
    func writeFeature(to writer: inout JSONWriter, distance: PlaceDistance?, openStatus: OpenStatus?) {
        let summary = summary
        writer.object { writer in
            writer.key("geometry")
            writer.object { writer in
                writer.key("coordinates")
                writer.array { writer in
                    writer.number(summary.coordinate.longitude)
                    writer.number(summary.coordinate.latitude)
                }
                writer.key("type")
                writer.string("Point")
            }
            writer.key("id")
            writer.string(summary.id)
            writer.key("properties")
            write(to: &writer, distance: distance, openStatus: openStatus)
            writer.key("type")
            writer.string("Feature")
        }
    }

    /// Room for the place's JSON with the distances and the open status, or as a feature (so an answer never regrows).
    func jsonCapacity(asFeature: Bool) -> Int {
        jsonCount + 144 + (asFeature ? 160 + summary.id.utf8.count : 0)
    }
}
