import Foundation
import GeoIndex
import Testing

@testable import PlacesCore

/// Search from the index's postings against a brute force that weighs every live place with `SearchText.relevance`:
/// the same hits, relevances, distances and order, page by page, with and without a circle, for words and prefixes
/// of one letter or more, as places are added, renamed, re-described, moved and deleted.
@Suite("Search from the index")
struct SearchIndexTests {
    static let vocabulary = [
        "Lantern", "lane", "Little", "Café", "cafeteria", "crêpes", "Harbor", "harbour", "Light", "lighthouse", "Noodle",
        "Straße", "東京", "7", "71", "715", "Zeppelin", "l", "Über",
    ]

    static func place(_ i: Int, _ rng: inout SplitMix64) -> PlaceSummary {
        func words(_ count: Int) -> String {
            (0..<count).map { _ in vocabulary[Int.random(in: 0..<vocabulary.count, using: &rng)] }.joined(separator: " ")
        }
        // Most places in one city (so circles hold many), some across the antimeridian.
        let far = Int.random(in: 0..<4, using: &rng) == 0
        var summary = PlaceSummary(
            id: "s\(Int.random(in: 0..<40, using: &rng))-\(i)",
            kind: i % 2 == 0 ? .gem : .restaurant,
            // A word of every third place's name and of no other field: its top (10) is what all its places score.
            name: (i % 3 == 0 ? "Quill " : "") + words(Int.random(in: 1...3, using: &rng)),
            coordinate: Coordinate(
                latitude: far ? Double.random(in: -30...30, using: &rng) : 40.7 + Double.random(in: -0.3...0.3, using: &rng),
                longitude: far ? Double.random(in: 179...180, using: &rng) : -74 + Double.random(in: -0.3...0.3, using: &rng)
            )
        )
        summary.tags = (0..<Int.random(in: 0...2, using: &rng)).map { _ in words(1).lowercased() }
        summary.cuisine = Bool.random(using: &rng) ? words(1) : nil
        summary.description = words(Int.random(in: 0...4, using: &rng))
        return summary
    }

    /// Every hit a search has, in order, as a brute force finds them.
    static func bruteForce(_ places: [PlaceSummary], _ query: PlaceSearchQuery) -> [String] {
        var hits: [(relevance: Int, distance: Double, id: String)] = []
        for place in places {
            let fields = SearchText.fieldWords(name: place.name, tags: place.tags, cuisine: place.cuisine, description: place.description)
            let relevance = SearchText.relevance(of: query.words, in: fields)
            guard relevance > 0 else { continue }
            var distance = 0.0
            if let circle = query.circle {
                distance = Geodesy.distanceMeters(circle.center, place.coordinate)
                guard distance <= circle.radiusMeters else { continue }
            }
            hits.append((relevance, distance, place.id))
        }
        hits.sort { ($0.relevance != $1.relevance) ? $0.relevance > $1.relevance : ($0.distance, $0.id) < ($1.distance, $1.id) }
        return hits.map { "\($0.id) \($0.relevance) \($0.distance)" }
    }

    /// Every hit the index has, paging with `limit`.
    static func paged(_ index: PlaceIndex, _ query: PlaceSearchQuery, limit: Int) throws -> [String] {
        var query = query
        query.page = PageRequest(limit: limit)
        var all: [String] = []
        while true {
            let page = try index.search(query)
            all += page.items.map { "\($0.place.id) \(Int($0.details.relevance)) \($0.place.distanceMeters ?? 0)" }
            guard let next = page.nextCursor else { return all }
            query.page = try PageRequest.parse(limit: "\(limit)", cursor: next)
        }
    }

    static func queries(_ rng: inout SplitMix64) throws -> [PlaceSearchQuery] {
        var queries: [PlaceSearchQuery] = []
        for _ in 0..<12 {
            let words = (0..<Int.random(in: 1...3, using: &rng)).map { _ -> String in
                let word = SearchText.words(vocabulary[Int.random(in: 0..<vocabulary.count, using: &rng)])[0]
                return String(word.prefix(Int.random(in: 1...word.count, using: &rng)))
            }
            let circle = Bool.random(using: &rng)
            queries.append(
                try PlaceSearchQuery.parse(
                    q: words.joined(separator: " "),
                    lat: circle ? "40.7" : nil,
                    lon: circle ? "-74" : nil,
                    radius: circle ? "\(Int.random(in: 1...20, using: &rng))" : nil,
                    page: PageRequest()
                )
            )
        }
        return queries
    }

    @Test("the same hits, relevances and order as a brute force, page by page")
    func matchesBruteForce() throws {
        // Enough places that the vocabulary's words have skip tables, so circles are answered nearest first too.
        var rng = SplitMix64(seed: 23)
        let places = (0..<3_000).map { Self.place($0, &rng) }
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: places, revision: 1))
        for query in try Self.queries(&rng) {
            let expected = Self.bruteForce(places, query)
            #expect(try Self.paged(index, query, limit: 100) == expected, "\(query.words) \(query.circle != nil)")
            #expect(try Self.paged(index, query, limit: Int.random(in: 1...9, using: &rng)) == expected, "\(query.words) paged")
        }
        // Words whose top many places reach: the circle's first pages are found nearest first.
        for q in ["quill", "qu", "quill l", "quill lantern"] {
            for radius in ["1", "5", "20"] {
                let query = try PlaceSearchQuery.parse(q: q, lat: "40.7", lon: "-74", radius: radius, page: PageRequest())
                let expected = Self.bruteForce(places, query)
                for limit in [1, 5, 20, 100] {
                    #expect(try Self.paged(index, query, limit: limit) == expected, "\(q) \(radius) \(limit)")
                }
            }
        }
        // The tiers: a page of name matches for one word needs no other place; two words may need the rest.
        let one = try PlaceSearchQuery.parse(q: "lantern", lat: nil, lon: nil, radius: nil, page: PageRequest(limit: 3))
        #expect(try index.search(one).items.map(\.details.relevance).allSatisfy { $0 >= 10 })
        #expect(try Self.paged(index, one, limit: 3) == Self.bruteForce(places, one))
    }

    @Test("as places are added, renamed, re-described, moved and deleted, a change set at a time")
    func followsChanges() throws {
        var rng = SplitMix64(seed: 24)
        var places = (0..<1_200).map { Self.place($0, &rng) }
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: places, revision: 1))
        var next = places.count
        for revision in 2..<14 {
            var upserted: [PlaceSummary] = []
            var deleted: [String] = []
            for _ in 0..<Int.random(in: 1...25, using: &rng) {
                let index = Int.random(in: 0..<places.count, using: &rng)
                switch Int.random(in: 0..<5, using: &rng) {
                case 0:
                    deleted.append(places[index].id)
                    places.remove(at: index)
                case 1:
                    places.append(Self.place(next, &rng))
                    next += 1
                    upserted.append(places[places.count - 1])
                default:
                    // The same id with other words (and sometimes elsewhere), or the same words with a new rating.
                    var changed = Self.place(next, &rng)
                    next += 1
                    changed.id = places[index].id
                    if Bool.random(using: &rng) {
                        changed = places[index]
                        changed.rating = RatingAggregate(count: 1, sum: 5)
                    }
                    places[index] = changed
                    upserted.append(changed)
                }
            }
            let gone = Set(deleted)
            index.apply(PlaceChanges(upserted: upserted.filter { !gone.contains($0.id) }, deleted: deleted, revision: Int64(revision)))
            for query in try Self.queries(&rng) {
                #expect(try Self.paged(index, query, limit: 7) == Self.bruteForce(places, query), "revision \(revision) \(query.words)")
            }
            let fresh = PlaceIndex()
            fresh.replaceAll(PlaceSnapshot(summaries: places, revision: 1))
            #expect(index.searchSize.words == fresh.searchSize.words && index.searchSize.postings == fresh.searchSize.postings)
        }
    }

    @Test("a lookup a place at a time finds the fields its words' postings hold, common words and rare", arguments: [200, 3_000])
    func placeLookup(count: Int) {
        var rng = SplitMix64(seed: 26)
        let places = (0..<count).map { Self.place($0, &rng) }
        let postings = SearchPostings(places)
        for prefix in ["l", "la", "lan", "lantern", "caf", "7", "71", "zeppelin", "東", "x"] {
            var expected = [UInt8](repeating: 0, count: count)
            postings.forEachPosting(ofWordsStartingWith: prefix) { expected[Int($0 >> 3)] |= UInt8($0 & 7) }
            guard let lookup = postings.placeLookup(ofWordsStartingWith: prefix, maxWords: 20, maxRare: 10_000) else {
                Issue.record("no lookup for \(prefix)")
                continue
            }
            #expect(lookup.fields == expected.reduce(0, |), "\(prefix)")
            #expect((0..<count).map { lookup.fields(of: UInt32($0)) } == expected, "\(prefix)")
        }
        // Too many words, or too many postings without a skip table: no lookup.
        #expect(postings.placeLookup(ofWordsStartingWith: "l", maxWords: 1) == nil)
    }

    @Test("a cursor holding any numbers answers a page, never a crash")
    func craftedCursors() throws {
        var rng = SplitMix64(seed: 25)
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: (0..<50).map { Self.place($0, &rng) }, revision: 1))
        for bits in [Double.infinity, -.infinity, .nan, 1e300] {
            for circle in [false, true] {
                let key = [PageRequest.keyPart(bits)] + (circle ? [PageRequest.keyPart(bits)] : []) + ["s1-1"]
                let query = try PlaceSearchQuery.parse(
                    q: "l",
                    lat: circle ? "40.7" : nil,
                    lon: circle ? "-74" : nil,
                    radius: nil,
                    page: PageRequest(limit: 5, after: key)
                )
                _ = try index.search(query)
            }
        }
    }

    @Test("a word's postings read back as they were given, from the first slot to the largest, in one to five bytes each")
    func encodedPostingsReadBack() throws {
        var rng = SplitMix64(seed: 40)
        var slot: UInt32 = 0
        var postings: [UInt32] = [0 << 3 | 1]
        for _ in 0..<5_000 {
            // Gaps of one place, of a few, and of millions (a rare word), with any of the three field bits.
            let gap: UInt32 = [1, UInt32.random(in: 2...40, using: &rng), UInt32.random(in: 1_000...3_000_000, using: &rng)][Int.random(in: 0..<3, using: &rng)]
            guard slot + gap < 1 << 29 else { break }
            slot += gap
            postings.append(slot << 3 | UInt32.random(in: 1...7, using: &rng))
        }
        postings.append((1 << 29 - 1) << 3 | 7)
        var bytes: [UInt8] = [0xAA]  // another word's bytes before
        let (count, skipTable) = SearchPostings.EncodedPostings.encode(postings, into: &bytes)
        #expect(count == postings.count)
        let encoded = SearchPostings.EncodedPostings(bytes: bytes[1...])
        #expect(Array(encoded) == postings)
        #expect(encoded.count == postings.count)
        #expect(bytes.count - 1 < 4 * postings.count, "deltas take fewer bytes than the slots")
        // Its skip table finds each place's posting (and none for a place without one) from the runs' first slots.
        let skip = try #require(skipTable)
        #expect(skip.points.count == 2 * ((postings.count + SearchPostings.SkipTable.stride - 1) / SearchPostings.SkipTable.stride))
        #expect(skip.fields == postings.reduce(0) { $0 | UInt8($1 & 7) })
        let held = Dictionary(uniqueKeysWithValues: postings.map { ($0 >> 3, UInt8($0 & 7)) })
        for posting in postings {
            let slot = posting >> 3
            #expect(skip.fields(of: slot, in: encoded) == posting & 7)
            for other in [slot + 1, slot &- 1, slot + 2] where held[other] == nil && other < 1 << 29 {
                #expect(skip.fields(of: other, in: encoded) == 0)
            }
        }
        // A common word (a place in two) takes a byte a posting.
        var common: [UInt8] = []
        _ = SearchPostings.EncodedPostings.encode((0..<1_000).map { UInt32($0 * 2) << 3 | 1 }, into: &common)
        #expect(common.count == 1_000)
    }

    @Test("a text's words read as bytes are its words, ASCII or not")
    func wordsAsBytes() {
        let texts = [
            "", " ", "Harbor", "Café  \"de\" FLORE*", "OR AND NEAR()", "a1-B2_c3 ZZ9 ", "--7--", "Straße 東京 Über", "x",
            String(repeating: "Lantern lane ", count: 400),
        ]
        for text in texts {
            var read: [String] = []
            SearchText.forEachWord(in: text) { read.append(String(decoding: $0, as: UTF8.self)) }
            #expect(read == SearchText.words(text), "\(text.prefix(30))")
        }
    }

    @Test("postings built for many places at once hold what each place's words give, field by field")
    func builtPostingsMatchEachPlacesWords() {
        var rng = SplitMix64(seed: 27)
        let places = (0..<500).map { Self.place($0, &rng) }
        let postings = SearchPostings(places)
        var expected: [String: [UInt32]] = [:]
        for (slot, place) in places.enumerated() {
            for (word, bits) in SearchPostings.words(of: place) { expected[word, default: []].append(UInt32(slot) << 3 | UInt32(bits)) }
        }
        #expect(!expected.isEmpty)
        for word in expected.keys {
            var found: [UInt32] = []
            postings.forEachPosting(ofWordsStartingWith: word) { found.append($0) }
            // A word read as a prefix finds the words it begins too.
            let begun = expected.filter { $0.key.utf8.starts(with: word.utf8) }.values.flatMap { $0 }
            #expect(found.sorted() == begun.sorted(), "\(word)")
        }
    }

    @Test("the builder numbers each distinct word once, in the order words first came, as its table grows")
    func wordNumbersAreFirstComeAndStable() {
        var numbers = SearchPostings.WordNumbers()
        // Words of every length around the hash's eight-byte steps, some not ASCII, and many more than the table's
        // first size, so that it grows several times.
        let words = (0..<20_000).map { index in
            [String(index), "w\(index)x", String(repeating: "ab", count: index % 13) + "\(index)", "café\(index % 500)", "ß"][index % 5]
        }
        var expected: [String: UInt32] = [:]
        var order: [String] = []
        for word in words {
            let number = numbers.number(of: word)
            if let known = expected[word] {
                #expect(number == known, "\(word)")
            } else {
                #expect(number == UInt32(order.count), "\(word)")
                expected[word] = number
                order.append(word)
            }
        }
        // Asked again, every word answers its number; the words are kept in that order.
        for word in words { #expect(numbers.number(of: word) == expected[word]) }
        #expect(numbers.words.count == order.count)
        #expect((0..<order.count).allSatisfy { numbers.words.string(at: $0) == order[$0] })
    }
}
