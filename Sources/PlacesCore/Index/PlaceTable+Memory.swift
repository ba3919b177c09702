extension PlaceTable {
    /// The names of the memory report's rows.
    enum MemoryRow {
        static let readyJSON = "ready JSON"
        static let summaries = "attributes, fields inline"
        static let entries = "place entries: object header, offsets, allocator"
        static let strings = "attributes' strings, tag lists, rare fields"
        static let slots = "slots by id"
        static let table = "place table (a reference a slot)"
        static let kinds = "kinds"
        static let ranks = "viewport order (ranks)"
        static let grid = "grid"
        static let mapCells = "map's counts and bests, zooms 0-10"
        static let ratingCells = "best ratings, zoom 13"
        static let postings = "search postings"
        static let words = "search words"
    }

    /// The bytes each of the table's structures holds, counted by the structure (see `HeapCensus`).
    ///
    /// Each place's entry (`IndexedPlace`) is one allocation, split into its JSON values' bytes (as kept, each after
    /// its length), its attributes' fields held inline, and the rest (the object's header, the members' bits, padding
    /// and what the allocator adds); the heap storage of the attributes' strings and lists, and of its rare fields, is
    /// counted apart, each shared storage once (the labels, id, name and city, are only in the JSON).
    var memoryReport: IndexMemory {
        var census = HeapCensus()
        var json = 0
        var inline = 0
        var entries = 0
        var strings = 0
        for slot in 0..<places.count {
            guard let place = places[slot] else { continue }
            json += place.storedCount
            inline += MemoryLayout<PlaceAttributes>.stride
            entries += place.allocationBytes
            strings += Self.heapBytes(of: place.attributes, &census)
        }
        let slotBytes = slots.memoryBytes(&census)
        let search = words.memoryBytes
        let rows: [(String, Int)] = [
            (MemoryRow.readyJSON, json),
            (MemoryRow.summaries, inline),
            (MemoryRow.entries, entries - json - inline),
            (MemoryRow.strings, strings),
            (MemoryRow.slots, slotBytes),
            (MemoryRow.table, places.memoryBytes),
            (MemoryRow.kinds, kinds.memoryBytes),
            (MemoryRow.ranks, ranks.memoryBytes),
            (MemoryRow.grid, grid.memoryBytes),
            (MemoryRow.mapCells, cells.memoryBytes),
            (MemoryRow.ratingCells, ratingCells.memoryBytes),
            (MemoryRow.postings, search.postings),
            (MemoryRow.words, search.words),
        ]
        return IndexMemory(places: live, rows: rows.map { IndexMemory.Row(structure: $0.0, bytes: $0.1) })
    }

    /// The heap bytes of a place's attributes' strings and lists that `census` has not counted yet.
    private static func heapBytes(of summary: PlaceAttributes, _ census: inout HeapCensus) -> Int {
        census.strings(summary.tags) + census.string(summary.description) + census.hours(summary.openingHours)
            + census.string(summary.timeZone) + census.string(summary.coverPhotoID) + summary.rareFieldsBytes
    }
}
