/// The words of every place in the index, each with the places that hold it and the fields they hold it in: where a
/// search finds its matches without reading a place.
///
/// A word's postings are its places' slots in ascending order, each shifted left by three bits over the fields that
/// hold the word (`fieldBits`). They are kept as deltas (`EncodedPostings`): each slot less the one before it, still
/// over the field bits, in LEB128, so that a common word's posting takes a byte or two rather than four. Words are
/// kept in shards by their first two bytes (a word of one byte alone in its shard), each shard's words sorted by their
/// bytes, so:
/// - the words a prefix begins are one run of one shard (of the shards of its byte, for a prefix of one byte);
/// - a change set copies and rewrites only the shards of the words it touches.
///
/// What it costs: one to four bytes a word of a place (a word twice in one place is one posting), and each distinct
/// word once.
struct SearchPostings: Sendable {
    /// One shard's words, sorted by their bytes, and their encoded postings laid end to end.
    struct Shard: Sendable {
        var words = WordList()
        /// Where each word's postings end in `bytes` (they start where the previous word's end).
        var ends: [UInt32] = []
        var bytes: [UInt8] = []
        /// How many postings its words hold in all.
        var count = 0
        /// The skip tables of its common words (those with `SkipTable.stride` postings or more), by the word's index.
        var skips: [Int32: SkipTable] = [:]

        /// The encoded postings of the word at `index`.
        func postings(of index: Int) -> EncodedPostings {
            EncodedPostings(bytes: bytes[(index == 0 ? 0 : Int(ends[index - 1]))..<Int(ends[index])])
        }

        /// Appends `word` with its postings (ascending by slot).
        mutating func append<S: Sequence<UInt32>>(_ word: String, postings: S) {
            append(word.utf8, postings: postings)
        }

        /// Appends the word of UTF-8 bytes `word` with its postings (ascending by slot).
        mutating func append<C: Collection<UInt8>, S: Sequence<UInt32>>(_ word: C, postings: S) {
            words.append(word)
            let (added, skip) = EncodedPostings.encode(postings, into: &bytes)
            count += added
            ends.append(UInt32(bytes.count))
            if let skip { skips[Int32(words.count - 1)] = skip }
        }

        /// Appends the words at `range` of `other` with their postings as they are encoded there, in one copy of each
        /// array (a change set rewrites a shard of thousands of words to edit a few). It leaves `count` to the caller,
        /// which knows it from `other.count` without reading the postings.
        mutating func appendUncounted(wordsIn range: Range<Int>, of other: Shard) {
            guard !range.isEmpty else { return }
            let firstWord = words.count
            words.append(wordsIn: range, of: other.words)
            SearchPostings.appendRuns(range, ends: other.ends, bytes: other.bytes, toEnds: &ends, bytes: &bytes)
            // A skip table's places in the bytes count from its word's first byte, so it moves as it is.
            for (index, skip) in other.skips where range.contains(Int(index)) {
                skips[Int32(firstWord + Int(index) - range.lowerBound)] = skip
            }
        }

        /// The index of the first word at or after `from` that does not precede `word` in byte order (`words.count`
        /// when none).
        func firstWord<C: Collection<UInt8>>(notBefore word: C, from: Int) -> Int {
            var low = from
            var high = words.count
            while low < high {
                let middle = (low + high) / 2
                if words[middle].lexicographicallyPrecedes(word) { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// Gives its arrays buffers of their counts (appending left up to twice that), once it is made.
        mutating func fit() {
            words.fit()
            ends = SearchPostings.fitted(ends)
            bytes = SearchPostings.fitted(bytes)
        }
    }

    /// Words laid end to end in one buffer of their UTF-8 bytes: a word costs its bytes and four more, where a `String`
    /// each took sixteen at least (and an allocation of its own past fifteen bytes).
    struct WordList: Sendable {
        private(set) var bytes: [UInt8] = []
        /// Where each word ends in `bytes` (it starts where the previous one ends).
        private(set) var ends: [UInt32] = []

        var count: Int { ends.count }
        var isEmpty: Bool { ends.isEmpty }

        /// The bytes of the word at `index`.
        subscript(index: Int) -> ArraySlice<UInt8> {
            bytes[(index == 0 ? 0 : Int(ends[index - 1]))..<Int(ends[index])]
        }

        /// The word at `index` as a string.
        func string(at index: Int) -> String { String(decoding: self[index], as: UTF8.self) }

        mutating func append<C: Collection<UInt8>>(_ word: C) {
            bytes.append(contentsOf: word)
            ends.append(UInt32(bytes.count))
        }

        /// Appends the words at `range` of `other`.
        mutating func append(wordsIn range: Range<Int>, of other: WordList) {
            SearchPostings.appendRuns(range, ends: other.ends, bytes: other.bytes, toEnds: &ends, bytes: &bytes)
        }

        mutating func reserveCapacity(_ words: Int) { ends.reserveCapacity(words) }

        mutating func fit() {
            bytes = SearchPostings.fitted(bytes)
            ends = SearchPostings.fitted(ends)
        }
    }

    /// Appends the runs at `range` of runs laid end to end in `bytes` (each ending where `ends` says, starting where the
    /// one before ends) to `toEnds` and `toBytes`, laid the same way.
    static func appendRuns(
        _ range: Range<Int>,
        ends: [UInt32],
        bytes: [UInt8],
        toEnds: inout [UInt32],
        bytes toBytes: inout [UInt8]
    ) {
        guard !range.isEmpty else { return }
        let start = range.lowerBound == 0 ? 0 : ends[range.lowerBound - 1]
        let end = ends[range.upperBound - 1]
        let base = UInt32(toBytes.count)
        toBytes.append(contentsOf: bytes[Int(start)..<Int(end)])
        toEnds.append(contentsOf: ends[range].lazy.map { $0 - start + base })
    }

    /// `array` in a buffer of its count.
    static func fitted<Element>(_ array: [Element]) -> [Element] {
        let count = array.count
        guard array.capacity > count else { return array }
        return array.withUnsafeBufferPointer { source in
            [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
                _ = buffer.initialize(from: source)
                initialized = count
            }
        }
    }

    /// One word's postings as deltas in LEB128: each slot less the slot before it (the first as it is), shifted left
    /// over the field bits. Read in order only.
    struct EncodedPostings: Sequence {
        let bytes: ArraySlice<UInt8>

        /// Appends `postings` (ascending by slot) to `bytes`; answers how many, and their skip table when they are
        /// `SkipTable.stride` or more (its points noted as the postings are written, not read back after).
        static func encode<S: Sequence<UInt32>>(_ postings: S, into bytes: inout [UInt8]) -> (count: Int, skip: SkipTable?) {
            let start = bytes.count
            var previous: UInt32 = 0
            var count = 0
            var fields: UInt8 = 0
            // Each run's first slot and where its first posting starts; the first run's is kept apart, so that a rare
            // word (most words) allocates no points.
            var first: UInt32 = 0
            var points: [UInt32] = []
            for posting in postings {
                let slot = posting >> 3
                if count == 0 {
                    first = slot
                } else if count % SkipTable.stride == 0 {
                    if points.isEmpty { points = [first, 0] }
                    points.append(slot)
                    points.append(UInt32(bytes.count - start))
                }
                fields |= UInt8(posting & 7)
                var value = (slot - previous) << 3 | posting & 7
                previous = slot
                while value >= 0x80 {
                    bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                    value >>= 7
                }
                bytes.append(UInt8(value))
                count += 1
            }
            guard count >= SkipTable.stride else { return (count, nil) }
            return (count, SkipTable(fields: fields, points: SearchPostings.fitted(points.isEmpty ? [first, 0] : points)))
        }

        /// How many postings: one a byte without its high bit.
        var count: Int { bytes.reduce(0) { $0 + ($1 < 0x80 ? 1 : 0) } }

        /// The encoded value (a delta over the field bits) that starts at `index`; `index` moves past it.
        @inline(__always)
        static func value(in bytes: ArraySlice<UInt8>, at index: inout Int) -> UInt32 {
            var value: UInt32 = 0
            var shift: UInt32 = 0
            while true {
                let byte = bytes[index]
                index += 1
                value |= UInt32(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }

        struct Iterator: IteratorProtocol {
            let bytes: ArraySlice<UInt8>
            var index: Int
            var slot: UInt32 = 0

            mutating func next() -> UInt32? {
                guard index < bytes.endIndex else { return nil }
                let value = EncodedPostings.value(in: bytes, at: &index)
                slot += value >> 3
                return slot << 3 | value & 7
            }
        }

        func makeIterator() -> Iterator { Iterator(bytes: bytes, index: bytes.startIndex) }
    }

    /// Where a common word's postings can be entered part way, so that one place's posting is found without reading
    /// those before it: every `stride`-th posting's slot, and where it starts in the word's bytes. With the fields that
    /// any of its postings holds, so a search knows the most the word can add to a place's relevance without reading
    /// them. About a sixteenth of a byte a posting. Made as the postings are encoded (`EncodedPostings.encode`).
    struct SkipTable: Sendable {
        static let stride = 128
        /// The union of the field bits of the word's postings.
        let fields: UInt8
        /// Per run of `stride` postings: its first posting's slot, then where that posting starts (counted from the word's
        /// first byte).
        let points: [UInt32]

        /// The field bits of the posting of the place at `slot` in `postings` (the word's, this table's), 0 without one.
        func fields(of slot: UInt32, in postings: EncodedPostings) -> UInt8 {
            // The last run whose first slot is not past it.
            var low = 0
            var high = points.count / 2
            while low < high {
                let middle = (low + high) / 2
                if points[2 * middle] <= slot { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { return 0 }
            let bytes = postings.bytes
            var index = bytes.startIndex + Int(points[2 * (low - 1) + 1])
            var current = points[2 * (low - 1)]
            // The run's first posting is at the slot the table names; those after it follow as deltas.
            var value = EncodedPostings.value(in: bytes, at: &index)
            while current < slot, index < bytes.endIndex {
                value = EncodedPostings.value(in: bytes, at: &index)
                current += value >> 3
            }
            return current == slot ? UInt8(value & 7) : 0
        }
    }

    /// The fields holding a query word in each place, found a place at a time: for a search that visits places nearest
    /// first and wants to know of each whether (and where) it holds the word, without first reading all of the word's
    /// postings.
    struct PlaceLookup {
        /// The union of the fields of every place holding the word: the most it can add to a relevance.
        let fields: UInt8
        /// The common words' postings, each with its skip table.
        fileprivate let common: [(postings: EncodedPostings, skip: SkipTable)]
        /// The other words' postings together, ascending by slot (a slot twice when two words are in one place).
        fileprivate let rare: [UInt32]

        /// The field bits of the words' postings of the place at `slot` (0: it holds none of them).
        func fields(of slot: UInt32) -> UInt8 {
            var fields: UInt8 = 0
            for (postings, skip) in common { fields |= skip.fields(of: slot, in: postings) }
            if !rare.isEmpty {
                var low = 0
                var high = rare.count
                while low < high {
                    let middle = (low + high) / 2
                    if rare[middle] >> 3 < slot { low = middle + 1 } else { high = middle }
                }
                while low < rare.count, rare[low] >> 3 == slot {
                    fields |= UInt8(rare[low] & 7)
                    low += 1
                }
            }
            return fields
        }
    }

    /// The lookup of the words `prefix` begins, or nil when they are too many for a lookup a place at a time to pay
    /// (more than `maxWords` words, or more than `maxRare` postings of words without a skip table).
    func placeLookup(ofWordsStartingWith prefix: String, maxWords: Int = 8, maxRare: Int = 1_024) -> PlaceLookup? {
        var fields: UInt8 = 0
        var common: [(postings: EncodedPostings, skip: SkipTable)] = []
        var rare: [UInt32] = []
        var words = 0
        var fits = true
        forEachWord(startingWith: prefix) { shard, index in
            guard fits else { return }
            words += 1
            let postings = shard.postings(of: index)
            if let skip = shard.skips[Int32(index)] {
                fields |= skip.fields
                common.append((postings, skip))
            } else {
                for posting in postings {
                    fields |= UInt8(posting & 7)
                    rare.append(posting)
                }
            }
            fits = words <= maxWords && rare.count <= maxRare
        }
        guard fits else { return nil }
        rare.sort { $0 >> 3 < $1 >> 3 }
        return PlaceLookup(fields: fields, common: common, rare: rare)
    }

    /// A place's distinct words, each with the bits of the fields holding it (a few: an array, not a dictionary, as a
    /// million places are read at start-up).
    typealias PlaceWords = [(word: String, bits: UInt8)]

    private var shards: [UInt16: Shard] = [:]

    /// The bit of a field in a posting.
    static func fieldBit(_ field: SearchText.Field) -> UInt8 {
        switch field {
        case .name: 1
        case .labels: 2
        case .description: 4
        }
    }

    /// The words a search reads in a place, each with its fields' bits.
    static func words(of summary: PlaceSummary) -> PlaceWords {
        var words: PlaceWords = []
        let fields = SearchText.wordsByField(name: summary.name, tags: summary.tags, cuisine: summary.cuisine, description: summary.description)
        for (field, fieldWords) in fields {
            let bit = fieldBit(field)
            for word in fieldWords {
                if let index = words.firstIndex(where: { $0.word == word }) {
                    words[index].bits |= bit
                } else {
                    words.append((word, bit))
                }
            }
        }
        return words
    }

    /// The shard a word (or a prefix of two bytes or more) is kept in.
    private static func shardKey<S: Sequence<UInt8>>(_ bytes: S) -> UInt16 {
        var iterator = bytes.makeIterator()
        let first = UInt16(iterator.next() ?? 0)
        return first << 8 | UInt16(iterator.next() ?? 0)
    }

    /// Makes the postings of places given in slot order (slot 0 first).
    init(_ summaries: [PlaceSummary]) {
        var builder = Builder()
        builder.add(summaries)
        self = builder.postings()
    }

    /// Gathers the postings of places handed over in slot order, a batch at a time (while the rest are still read), and
    /// makes them at the end.
    ///
    /// Each distinct word gets a number (`WordNumbers`); each posting is collected with its word's number, then put in
    /// order by a counting sort, which keeps each word's slots ascending as they came.
    struct Builder {
        private var numbers = WordNumbers()
        private var pairs: [(word: UInt32, posting: UInt32)] = []
        /// The slot of the next place.
        private var slot: UInt32 = 0

        /// Adds the next places, in slot order.
        ///
        /// Each place's words are those of `SearchPostings.words(of:)`, in the same order, but read as bytes and known by
        /// their numbers: no `String` is made for a word already numbered, nor an array for each field.
        mutating func add(_ summaries: some Collection<PlaceSummary>) {
            pairs.reserveCapacity(pairs.count + summaries.count * 4)
            var numbered: [(number: UInt32, bits: UInt8)] = []
            for summary in summaries {
                numbered.removeAll(keepingCapacity: true)
                number(summary.name, in: .name, into: &numbered)
                for tag in summary.tags { number(tag, in: .labels, into: &numbered) }
                if let cuisine = summary.cuisine { number(cuisine, in: .labels, into: &numbered) }
                number(summary.description, in: .description, into: &numbered)
                for (number, bits) in numbered { pairs.append((number, slot << 3 | UInt32(bits))) }
                slot += 1
            }
        }

        /// Numbers the words of one of a place's fields, adding each to the place's words or its field's bit to them.
        private mutating func number(_ text: String, in field: SearchText.Field, into numbered: inout [(number: UInt32, bits: UInt8)]) {
            let bit = SearchPostings.fieldBit(field)
            SearchText.forEachWord(in: text) { word in
                let number = numbers.number(of: word)
                if let index = numbered.firstIndex(where: { $0.number == number }) {
                    numbered[index].bits |= bit
                } else {
                    numbered.append((number, bit))
                }
            }
        }

        /// The postings of every place added (the builder is left empty).
        mutating func postings() -> SearchPostings {
            let vocabulary = numbers.words
            var pairs = pairs
            self = Builder()
            var starts = [Int](repeating: 0, count: vocabulary.count + 1)
            for pair in pairs { starts[Int(pair.word) + 1] += 1 }
            for index in 0..<vocabulary.count { starts[index + 1] += starts[index] }
            var ordered = [UInt32](repeating: 0, count: pairs.count)
            var next = starts
            for pair in pairs {
                ordered[next[Int(pair.word)]] = pair.posting
                next[Int(pair.word)] += 1
            }
            pairs = []
            var byShard: [UInt16: [UInt32]] = [:]
            for number in 0..<vocabulary.count { byShard[SearchPostings.shardKey(vocabulary[number]), default: []].append(UInt32(number)) }
            var postings = SearchPostings()
            for (key, numbers) in byShard {
                var shard = Shard()
                let sorted = numbers.sorted { vocabulary[Int($0)].lexicographicallyPrecedes(vocabulary[Int($1)]) }
                shard.words.reserveCapacity(sorted.count)
                shard.ends.reserveCapacity(sorted.count)
                for number in sorted {
                    shard.append(vocabulary[Int(number)], postings: ordered[starts[Int(number)]..<starts[Int(number) + 1]])
                }
                shard.fit()
                postings.shards[key] = shard
            }
            return postings
        }
    }

    /// Distinct words numbered in the order they first came, kept end to end (`WordList`), with a table from a word to
    /// its number: the postings' builder looks up every word of every place in it (ten million distinct words at 10M
    /// generated places, each name's number a word of its own), where a `[String: UInt32]` spent a tenth of the start-up
    /// hashing and probing, and held a 16-byte string a word.
    ///
    /// The table is open addressing with linear probing. Each entry is 0 (empty) or a word's 32-bit tag (its hash's high
    /// half) over its number plus one; the tag also places the entry, so the table grows without hashing any word again.
    /// The hash is seeded at random, so that no one can choose words that all land together.
    struct WordNumbers {
        private(set) var words = WordList()
        private var table = [UInt64](repeating: 0, count: 1 << 10)
        private let seed = UInt64.random(in: 1...UInt64.max)

        /// The number of `word`, given it now when it is new.
        mutating func number(of word: String) -> UInt32 {
            var word = word
            return word.withUTF8 { number(of: UnsafeRawBufferPointer($0)) }
        }

        /// The number of the word whose UTF-8 bytes are `word`, given it now when it is new.
        mutating func number(of word: UnsafeRawBufferPointer) -> UInt32 {
            let tag = UInt32(truncatingIfNeeded: WordNumbers.hash(word, seed: seed) >> 32)
            var mask = table.count - 1
            var index = Int(tag) & mask
            while true {
                let entry = table[index]
                if entry == 0 { break }
                if UInt32(truncatingIfNeeded: entry >> 32) == tag {
                    let number = Int(UInt32(truncatingIfNeeded: entry)) - 1
                    if words[number].elementsEqual(word) { return UInt32(number) }
                }
                index = (index + 1) & mask
            }
            let number = UInt32(words.count)
            words.append(word)
            table[index] = UInt64(tag) << 32 | UInt64(number + 1)
            // At most seven tenths full, so that a miss ends after a few probes.
            if words.count * 10 > table.count * 7 {
                var grown = [UInt64](repeating: 0, count: table.count * 2)
                mask = grown.count - 1
                for entry in table where entry != 0 {
                    var slot = Int(UInt32(truncatingIfNeeded: entry >> 32)) & mask
                    while grown[slot] != 0 { slot = (slot + 1) & mask }
                    grown[slot] = entry
                }
                table = grown
            }
            return number
        }

        /// A 64-bit hash of `bytes` under `seed`, eight bytes at a time (a multiply-and-shift mix of each).
        static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
            var hash = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
            var offset = 0
            while offset + 8 <= bytes.count {
                hash = mix(hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count {
                tail |= UInt64(bytes[offset]) << shift
                shift += 8
                offset += 1
            }
            return mix(mix(hash ^ tail))
        }

        /// SplitMix64's finalizer: every bit of `value` moves every bit of the result.
        @inline(__always)
        private static func mix(_ value: UInt64) -> UInt64 {
            var z = value &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Makes empty postings.
    init() {}

    /// Changes of one change set, gathered by shard and word before any shard is rewritten.
    struct Edits {
        /// Per shard, per word, the slots whose fields for the word change: their new bits (0 when the word leaves).
        fileprivate var byShard: [UInt16: [String: [UInt32: UInt8]]] = [:]

        var isEmpty: Bool { byShard.isEmpty }

        /// Records that the place at `slot` held `old` words and now holds `new` ones (nil: it is not there).
        mutating func replace(slot: UInt32, old: PlaceWords?, new: PlaceWords?) {
            let old = Dictionary((old ?? []).map { ($0.word, $0.bits) }, uniquingKeysWith: |)
            let new = Dictionary((new ?? []).map { ($0.word, $0.bits) }, uniquingKeysWith: |)
            guard old != new else { return }
            for (word, bits) in old where new[word] != bits {
                byShard[SearchPostings.shardKey(word.utf8), default: [:]][word, default: [:]][slot] = 0
            }
            for (word, bits) in new where old[word] != bits {
                byShard[SearchPostings.shardKey(word.utf8), default: [:]][word, default: [:]][slot] = bits
            }
        }
    }

    /// Applies a change set's edits, rewriting each shard they touch once.
    mutating func apply(_ edits: Edits) {
        for (key, words) in edits.byShard {
            let old = shards[key] ?? Shard()
            var shard = Shard()
            let edited = words.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var kept = 0
            // The postings of the old words copied as they are: all of them, less those of the edited words found.
            var keptPostings = old.count
            // Merges the shard's words with the edited ones, both in byte order: the old words before each edited one
            // are copied in one run.
            for word in edited {
                let next = old.firstWord(notBefore: word.utf8, from: kept)
                shard.appendUncounted(wordsIn: kept..<next, of: old)
                kept = next
                var before: [UInt32] = []
                if kept < old.words.count, old.words[kept].elementsEqual(word.utf8) {
                    before = Array(old.postings(of: kept))
                    keptPostings -= before.count
                    kept += 1
                }
                // The word's postings with the edited slots' replaced (or dropped): copied in runs between them, as a
                // common word holds a posting for a good share of all places.
                var postings: [UInt32] = []
                postings.reserveCapacity(before.count + (words[word]?.count ?? 0))
                var start = before.startIndex
                for (slot, bits) in (words[word] ?? [:]).sorted(by: { $0.key < $1.key }) {
                    var low = start
                    var high = before.endIndex
                    while low < high {
                        let middle = (low + high) / 2
                        if before[middle] >> 3 < slot { low = middle + 1 } else { high = middle }
                    }
                    postings.append(contentsOf: before[start..<low])
                    start = low < before.endIndex && before[low] >> 3 == slot ? low + 1 : low
                    if bits != 0 { postings.append(slot << 3 | UInt32(bits)) }
                }
                postings.append(contentsOf: before[start...])
                guard !postings.isEmpty else { continue }
                shard.append(word, postings: postings)
            }
            shard.appendUncounted(wordsIn: kept..<old.words.count, of: old)
            shard.count += keptPostings
            shard.fit()
            shards[key] = shard.words.isEmpty ? nil : shard
        }
    }

    /// Calls `body` with the postings of every word that `prefix` begins, as `SearchText` decides it.
    func forEachPosting(ofWordsStartingWith prefix: String, _ body: (UInt32) -> Void) {
        forEachWord(startingWith: prefix) { shard, index in
            for posting in shard.postings(of: index) { body(posting) }
        }
    }

    /// Calls `body` with each word that `prefix` begins, as `SearchText` decides it: its shard and its index there.
    private func forEachWord(startingWith prefix: String, _ body: (Shard, Int) -> Void) {
        let bytes = Array(prefix.utf8)
        guard let first = bytes.first else { return }
        if bytes.count >= 2 {
            shards[Self.shardKey(bytes)].map { visit($0, prefix, bytes, body) }
        } else {
            for second in 0...UInt16(255) {
                shards[UInt16(first) << 8 | second].map { visit($0, prefix, bytes, body) }
            }
        }
    }

    /// Calls `body` with each word of `shard` that `prefix` begins.
    private func visit(_ shard: Shard, _ prefix: String, _ bytes: [UInt8], _ body: (Shard, Int) -> Void) {
        // The first word not before the prefix, then every word whose bytes begin with it.
        var low = 0
        var high = shard.words.count
        while low < high {
            let middle = (low + high) / 2
            if shard.words[middle].lexicographicallyPrecedes(bytes) { low = middle + 1 } else { high = middle }
        }
        var index = low
        // A prefix of ASCII followed in the word by ASCII (or by nothing) ends on a boundary of characters, so its bytes
        // decide; otherwise the test by characters does.
        let ascii = bytes.allSatisfy { $0 < 0x80 }
        while index < shard.words.count, shard.words[index].starts(with: bytes) {
            // The bytes find the run; the words' own prefix test (by characters) is the definition.
            let word = shard.words[index]
            let next = word.dropFirst(bytes.count).first ?? 0
            if ascii && next < 0x80 || shard.words.string(at: index).hasPrefix(prefix) { body(shard, index) }
            index += 1
        }
    }

    /// The bytes the postings take (the shards' encoded postings and their ends), and those the words take (the table
    /// of shards, and each shard's words and their ends).
    var memoryBytes: (postings: Int, words: Int) {
        var postings = 0
        var words = HeapCensus.dictionary(shards)
        for shard in shards.values {
            postings += HeapCensus.array(shard.bytes) + HeapCensus.array(shard.ends) + HeapCensus.dictionary(shard.skips)
            postings += shard.skips.values.reduce(0) { $0 + HeapCensus.array($1.points) }
            words += HeapCensus.array(shard.words.bytes) + HeapCensus.array(shard.words.ends)
        }
        return (postings, words)
    }

    /// How many distinct words and postings it holds, and the bytes its arrays take (for the memory figures).
    var size: (words: Int, postings: Int, bytes: Int) {
        var words = 0
        var postings = 0
        var bytes = 0
        for shard in shards.values {
            words += shard.words.count
            postings += shard.count
            bytes += shard.words.bytes.capacity + shard.words.ends.capacity * 4 + shard.ends.capacity * 4 + shard.bytes.capacity
            bytes += shard.skips.values.reduce(0) { $0 + $1.points.capacity * 4 }
        }
        return (words, postings, bytes)
    }
}
