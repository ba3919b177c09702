import GeoIndex

/// A live place as the index holds it: its attributes, and its public JSON form made once, when it enters the index.
///
/// Every answer that shows a place (the nearby JSON, GeoJSON's properties, the CLI's `--json`) copies these
/// bytes around the parts that depend on the question, the distances and the open status, so a nearby answer
/// neither copies a summary's fields nor formats its numbers again. The JSON is stored in the same allocation as the
/// summary (a `ManagedBuffer`), so a place costs one allocation and one pointer chase.
///
/// Only the members' values are kept, each after its length, and a bit for each member the place has: the keys are
/// the same for every place, so an answer writes them from `Member` (at 1M generated places the keys, commas and
/// colons were 73 of each place's 187 JSON bytes). The summary's labels (id, name, city, cuisine) are not kept as
/// fields beside the JSON but read from their values when asked for (only a filter naming a cuisine reads one): a name
/// held twice took 64 bytes a place, and a cuisine field 16. The kind and the tags are the other way round: the
/// attributes hold them for the filters, so an answer writes them from there (a constant string, and a list most
/// places share) rather than keeping their JSON too (13 and 27 bytes a generated place).
///
/// `@unchecked Sendable` is sound because nothing mutates the buffer after `make` returns: the header and the bytes
/// are written once inside `make`, the buffer never leaves this type, and every other member only reads it.
struct IndexedPlace: @unchecked Sendable {
    /// What the buffer keeps before its values' bytes.
    struct Head {
        /// What filters, orders and search read.
        let attributes: PlaceAttributes
        /// How many bytes the members take once written, keys and commas included (what an answer makes room for; at
        /// most 65,535, so that the head stays small: a longer place's answer grows its buffer once).
        let jsonCount: UInt16
        /// The members the place has: bit `Member.rawValue` of each.
        let members: UInt16
    }

    /// A member of a place's JSON that the entry keeps the value of, in sorted key order; the distances go before
    /// `id`, `kind` (written from the attributes) before `lat`, the open status before `photoCount`, and `tags`
    /// (written from the attributes) last.
    enum Member: Int, CaseIterable {
        case city, coverPhotoURL, cuisine, id, lat, lon, name, photoCount, priceLevel, ratingAverage, ratingCount, score

        /// The member's key as JSON writes it before the value, with its quotes and the colon (`"city":`): constant
        /// bytes, copied at once.
        var quotedKey: StaticString {
            switch self {
            case .city: #""city":"#
            case .coverPhotoURL: #""coverPhotoURL":"#
            case .cuisine: #""cuisine":"#
            case .id: #""id":"#
            case .lat: #""lat":"#
            case .lon: #""lon":"#
            case .name: #""name":"#
            case .photoCount: #""photoCount":"#
            case .priceLevel: #""priceLevel":"#
            case .ratingAverage: #""ratingAverage":"#
            case .ratingCount: #""ratingCount":"#
            case .score: #""score":"#
            }
        }
    }

    /// The place's members as values: for each member the place has, in `Member`'s order, its value's length (LEB128)
    /// and the value's JSON bytes.
    private let buffer: ManagedBuffer<Head, UInt8>

    private init(_ buffer: ManagedBuffer<Head, UInt8>) {
        self.buffer = buffer
    }

    /// Makes the entry of `summary`, writing its JSON values once.
    static func make(_ summary: PlaceSummary) -> IndexedPlace {
        var writer = JSONWriter(capacity: 160 + summary.name.utf8.count + 2 * (summary.city?.utf8.count ?? 0))
        var values: [UInt8] = []
        values.reserveCapacity(96 + summary.name.utf8.count + 2 * (summary.city?.utf8.count ?? 0))
        var members: UInt16 = 0
        // Writes a member as a whole (for its length once written), and keeps its value after the value's length.
        func member(_ member: Member, _ write: (inout JSONWriter) -> Void) {
            writer.key(quoted: member.quotedKey)
            let start = writer.bytes.count
            write(&writer)
            var length = writer.bytes.count - start
            while length >= 0x80 {
                values.append(UInt8(truncatingIfNeeded: length) | 0x80)
                length >>= 7
            }
            values.append(UInt8(length))
            values.append(contentsOf: writer.bytes[start...])
            members |= 1 << member.rawValue
        }
        if let city = summary.city { member(.city) { $0.string(city) } }
        if let url = summary.coverPhotoURL { member(.coverPhotoURL) { $0.string(url) } }
        if let cuisine = summary.cuisine { member(.cuisine) { $0.string(cuisine) } }
        member(.id) { $0.string(summary.id) }
        // Written (for the count) but not kept: the answer writes it from the attributes.
        writer.key("kind")
        writer.string(summary.kind.rawValue)
        member(.lat) { $0.number(summary.coordinate.latitude) }
        member(.lon) { $0.number(summary.coordinate.longitude) }
        member(.name) { $0.string(summary.name) }
        if summary.photoCount > 0 { member(.photoCount) { $0.number(summary.photoCount) } }
        if let level = summary.priceLevel { member(.priceLevel) { $0.number(level) } }
        let rating = summary.rating
        if let average = rating.average { member(.ratingAverage) { $0.number(average) } }
        member(.ratingCount) { $0.number(rating.count) }
        member(.score) { $0.number(rating.score) }
        writer.key("tags")
        Self.writeTags(summary.tags, to: &writer)
        let jsonCount = writer.bytes.count
        let buffer = ManagedBuffer<Head, UInt8>.create(minimumCapacity: values.count) { buffer in
            buffer.withUnsafeMutablePointerToElements { elements in
                values.withUnsafeBufferPointer { elements.initialize(from: $0.baseAddress!, count: values.count) }
            }
            return Head(attributes: summary.attributes, jsonCount: UInt16(clamping: jsonCount), members: members)
        }
        return IndexedPlace(buffer)
    }

    /// What nearby answers show and their filters read: the attributes, and the labels read from the JSON.
    var summary: PlaceSummary {
        PlaceSummary(id: id, name: string(.name) ?? "", city: string(.city), cuisine: cuisine, attributes: attributes)
    }

    /// What filters, orders and search read.
    var attributes: PlaceAttributes { buffer.header.attributes }

    /// The place's id, read from its JSON.
    var id: String { string(.id) ?? "" }

    /// The place's cuisine, read from its JSON.
    var cuisine: String? { string(.cuisine) }

    /// Whether the place's id is `id`, compared with its JSON's bytes (decoded only when they hold an escape).
    func hasID(_ id: String) -> Bool {
        withValue(.id) { value in
            guard let value, value.count >= 2 else { return false }
            let body = UnsafeBufferPointer(rebasing: value.dropFirst().dropLast())
            if body.contains(UInt8(ascii: "\\")) { return JSONWriter.writtenString(value) == id }
            var id = id
            return id.withUTF8 { $0.elementsEqual(body) }
        }
    }

    /// The place's coordinate, read in place (without copying the attributes and retaining their fields).
    var coordinate: Coordinate { buffer.withUnsafeMutablePointerToHeader { $0.pointee.attributes.coordinate } }

    /// The place's kind, read in place.
    var kind: PlaceKind { buffer.withUnsafeMutablePointerToHeader { $0.pointee.attributes.kind } }

    /// The place's ratings, read in place.
    var rating: RatingAggregate {
        buffer.withUnsafeMutablePointerToHeader { head in
            PlaceAttributes.rating(at: UnsafeRawPointer(head).advanced(by: Self.attributesOffset).assumingMemoryBound(to: PlaceAttributes.self))
        }
    }

    /// The string a member holds, when the place has it.
    private func string(_ member: Member) -> String? {
        withValue(member) { value in value.map(JSONWriter.writtenString) }
    }

    /// Calls `body` with a member's JSON value as kept (nil when the place lacks the member).
    private func withValue<Result>(_ member: Member, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        buffer.withUnsafeMutablePointers { head, elements in
            let members = head.pointee.members
            guard members & (1 << member.rawValue) != 0 else { return body(nil) }
            var offset = 0
            for earlier in Member.allCases where members & (1 << earlier.rawValue) != 0 {
                let length = Self.length(elements, at: &offset)
                if earlier == member { return body(UnsafeBufferPointer(start: elements + offset, count: length)) }
                offset += length
            }
            return body(nil)
        }
    }

    /// The length (LEB128) that begins a kept value at `offset`, which moves past it to the value.
    @inline(__always)
    private static func length(_ elements: UnsafeMutablePointer<UInt8>, at offset: inout Int) -> Int {
        var length = 0
        var shift = 0
        while true {
            let byte = elements[offset]
            offset += 1
            length |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return length }
            shift += 7
        }
    }

    /// Where the attributes lie in the header.
    private static let attributesOffset = MemoryLayout<Head>.offset(of: \Head.attributes)!

    /// Whether the place passes a filter, each of its attributes read where it lies (copying them retains and releases
    /// each of their fields; a filter that passes few places reads every place of a circle: a 20-mile nearby with
    /// `minRating=4` that nothing meets took 64 ms at 1M places, 16.5 ms so).
    func passes(_ matcher: PlaceFilter.Matcher) -> Bool {
        buffer.withUnsafeMutablePointerToHeader { head in
            matcher.matches(
                UnsafeRawPointer(head).advanced(by: Self.attributesOffset).assumingMemoryBound(to: PlaceAttributes.self),
                cuisine: { cuisine }
            )
        }
    }

    /// How many bytes the place's JSON members take, keys and commas included (without distances or open status).
    var jsonCount: Int { Int(buffer.header.jsonCount) }

    /// How many bytes its members' values take as kept (each after its length): the end of the last one.
    var storedCount: Int {
        buffer.withUnsafeMutablePointers { head, elements in
            var offset = 0
            for member in Member.allCases where head.pointee.members & (1 << member.rawValue) != 0 {
                let length = Self.length(elements, at: &offset)
                offset += length
            }
            return offset
        }
    }

    /// The bytes the entry's allocation takes (`HeapCensus.chunk` of the object's 16-byte header, the head and the
    /// values' bytes): what `PlaceTable.memoryReport` splits into the values, the attributes held inline and the rest.
    var allocationBytes: Int {
        let headToElements = buffer.withUnsafeMutablePointers { head, elements in UnsafeRawPointer(elements) - UnsafeRawPointer(head) }
        return HeapCensus.chunk(16 + headToElements + storedCount)
    }

    /// True when both are the same entry of the index.
    func isSameEntry(as other: IndexedPlace) -> Bool { buffer === other.buffer }

    /// Writes the place as a JSON object with, when a query had a centre, its distance from it (in metres, miles and
    /// kilometres) and, when a query asked about a time, its open status: byte for byte what the encoder writes for
    /// the same fields.
    func write(to writer: inout JSONWriter, distance: PlaceDistance?, openStatus: OpenStatus?, distances: [PlaceDistance]? = nil) {
        buffer.withUnsafeMutablePointers { head, elements in
            let members = head.pointee.members
            var offset = 0
            // Writes the member's key and its kept value, when the place has it, each in one copy. Where the values
            // stand is handed in and out (not captured), so no access to it is checked at run time.
            func member(_ member: Member, _ writer: inout JSONWriter, _ offset: inout Int) {
                guard members & (1 << member.rawValue) != 0 else { return }
                let length = Self.length(elements, at: &offset)
                writer.key(quoted: member.quotedKey)
                writer.value(UnsafeBufferPointer(start: elements + offset, count: length))
                offset += length
            }
            writer.object { writer in
                member(.city, &writer, &offset)
                member(.coverPhotoURL, &writer, &offset)
                member(.cuisine, &writer, &offset)
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
                member(.id, &writer, &offset)
                writer.key("kind")
                writer.string(head.pointee.attributes.kind.rawValue)
                member(.lat, &writer, &offset)
                member(.lon, &writer, &offset)
                member(.name, &writer, &offset)
                writer.member("openStatus", openStatus) { $0.string($1.rawValue) }
                member(.photoCount, &writer, &offset)
                member(.priceLevel, &writer, &offset)
                member(.ratingAverage, &writer, &offset)
                member(.ratingCount, &writer, &offset)
                member(.score, &writer, &offset)
                writer.key("tags")
                Self.writeTags(head.pointee.attributes.tags, to: &writer)
            }
        }
    }

    /// Writes a place's tags as its JSON shows them.
    private static func writeTags(_ tags: [String], to writer: inout JSONWriter) {
        writer.array { writer in
            for tag in tags { writer.string(tag) }
        }
    }

    /// Writes the place as a GeoJSON Point feature whose properties are its JSON object (as `write` writes it).
    func writeFeature(to writer: inout JSONWriter, distance: PlaceDistance?, openStatus: OpenStatus?) {
        let coordinate = coordinate
        writer.object { writer in
            writer.key("geometry")
            writer.object { writer in
                writer.key("coordinates")
                writer.array { writer in
                    writer.number(coordinate.longitude)
                    writer.number(coordinate.latitude)
                }
                writer.key("type")
                writer.string("Point")
            }
            writer.key("id")
            withValue(.id) { writer.value($0!) }
            writer.key("properties")
            write(to: &writer, distance: distance, openStatus: openStatus)
            writer.key("type")
            writer.string("Feature")
        }
    }

    /// Room for the place's JSON with the distances and the open status, or as a feature (so an answer never regrows).
    func jsonCapacity(asFeature: Bool) -> Int {
        jsonCount + 144 + (asFeature ? 160 + withValue(.id) { $0?.count ?? 0 } : 0)
    }
}
