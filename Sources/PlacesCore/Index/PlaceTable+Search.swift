import GeoIndex

/// Which places hold a query's words, and in which fields: one bit a slot per word and field.
///
/// Made from the postings of the words each query word begins, so a query costs the postings it reads and a pass over
/// a bit a place, never a place's text.
private struct MatchBits {
    /// Per query word, per field (name, labels, description), a bit a slot: `bits[(word * 3 + field) * blocks + block]`.
    private var bits: [UInt64]
    private let words: Int
    let blocks: Int

    init(_ words: [String], postings: SearchPostings, slots: Int) {
        let blocks = (slots + 63) / 64
        self.blocks = blocks
        self.words = words.count
        bits = [UInt64](repeating: 0, count: 3 * words.count * blocks)
        bits.withUnsafeMutableBufferPointer { bits in
            for (number, word) in words.enumerated() {
                let name = 3 * number * blocks
                postings.forEachPosting(ofWordsStartingWith: word) { posting in
                    let slot = Int(posting >> 3)
                    let bit = UInt64(1) << UInt64(slot & 63)
                    if posting & 1 != 0 { bits[name + slot >> 6] |= bit }
                    if posting & 2 != 0 { bits[name + blocks + slot >> 6] |= bit }
                    if posting & 4 != 0 { bits[name + 2 * blocks + slot >> 6] |= bit }
                }
            }
        }
    }

    /// The places of a block holding every word in their names, and those holding every word somewhere.
    @inline(__always)
    func block(_ index: Int) -> (inNames: UInt64, matching: UInt64) {
        bits.withUnsafeBufferPointer { bits in
            var inNames = UInt64.max
            var matching = UInt64.max
            for word in 0..<words {
                let name = bits[3 * word * blocks + index]
                inNames &= name
                matching &= name | bits[(3 * word + 1) * blocks + index] | bits[(3 * word + 2) * blocks + index]
            }
            return (inNames, matching)
        }
    }

    /// True when the place at `slot` holds every word.
    @inline(__always)
    func matches(_ slot: Int) -> Bool {
        block(slot >> 6).matching & (UInt64(1) << UInt64(slot & 63)) != 0
    }

    /// The relevance of the place at `slot`, as `SearchText.relevance` weighs its fields.
    @inline(__always)
    func relevance(_ slot: Int) -> Int {
        bits.withUnsafeBufferPointer { bits in
            let block = slot >> 6
            let bit = UInt64(1) << UInt64(slot & 63)
            var total = 0
            for word in 0..<words {
                if bits[3 * word * blocks + block] & bit != 0 { total += SearchText.Field.name.weight }
                if bits[(3 * word + 1) * blocks + block] & bit != 0 { total += SearchText.Field.labels.weight }
                if bits[(3 * word + 2) * blocks + block] & bit != 0 { total += SearchText.Field.description.weight }
            }
            return total
        }
    }
}

extension PlaceTable {
    /// One page of the places a search matches, as `SearchText` defines matching and relevance: by relevance, then
    /// (inside a circle, or from the point the query is `near`) by distance, then by id.
    ///
    /// The k best are found without weighing every match. A place holding every word in its name scores at least 10 a
    /// word; one that lacks a word there scores at most 5 for it, so at most 15 a word for the others and 5 for that
    /// one. The places with every word in their names are weighed first, and when the page is full of places
    /// scoring more than any other could, no other is weighed (for one word: whenever a page's worth have it in their
    /// names). Inside a circle, the first page is found nearest first when it can be (`mostRelevantNearest`);
    /// otherwise the grid finds the places in it (a 20-mile circle holds a few percent of them), and only the matches
    /// among those are weighed.
    func search(_ query: PlaceSearchQuery, nearestFirst: Bool = true) throws(PlacesError) -> Page<PlaceSearchHit> {
        let places = places
        let ranks = ranks
        let circle = query.circle
        let near = query.near
        let measured = circle != nil || near != nil
        let after: (rank: ScoredRank, id: String)?
        if let key = try query.page.after(parts: measured ? 3 : 2) {
            let id = key[key.count - 1]
            let rank = ScoredRank(
                value: try PageRequest.double(key[0]),
                distance: measured ? try PageRequest.double(key[1]) : 0,
                idPrefix: PlaceRank(score: 0, id: id).idPrefix
            )
            after = (rank, id)
        } else {
            after = nil
        }
        let id: (UInt32) -> String = { slot in places[Int(slot)]?.id ?? "" }
        if nearestFirst, let circle, let nearest = mostRelevantNearest(query.words, in: circle, after: after, k: query.page.fetchLimit) {
            return query.page.page(nearest.compactMap { slot, rank in hit(slot, rank, measured: true) })
        }
        let matches = MatchBits(query.words, postings: words, slots: places.count)
        var best = BestRanked<ScoredRank>(k: query.page.fetchLimit, id: id)
        // Postings name live places only: a match needs no look at its place until it is on the page.
        func offer(_ slot: Int, distance: Double) {
            let rank = ScoredRank(value: Double(matches.relevance(slot)), distance: distance, idPrefix: ranks[slot].idPrefix)
            if let after, !ScoredRank.precedes(after.rank, rank, aID: { after.id }, bID: { id(UInt32(slot)) }) { return }
            best.offer(UInt32(slot), rank)
        }
        if let circle {
            // Inside a circle the grid finds the places (as nearby does, with the same distances), and the bits say
            // which match.
            for hit in grid.within(circle.center, radiusMeters: circle.radiusMeters, where: { matches.matches(Int($0)) }) {
                offer(Int(hit.key), distance: hit.distanceMeters)
            }
        } else {
            // Near a point, a match's distance is worked out only when it is offered.
            let distance: (Int) -> Double = { slot in
                guard let near, let place = places[slot] else { return 0 }
                return Geodesy.distanceMeters(near, place.coordinate)
            }
            func offerEach(_ bits: UInt64, block: Int) {
                var bits = bits
                while bits != 0 {
                    let slot = block << 6 | bits.trailingZeroBitCount
                    offer(slot, distance: distance(slot))
                    bits &= bits - 1
                }
            }
            for block in 0..<matches.blocks { offerEach(matches.block(block).inNames, block: block) }
            // The most a place lacking some word in its name can score: every field for the other words, the others
            // for that one.
            let everyField = SearchText.Field.allCases.reduce(0) { $0 + $1.weight }
            let othersAtMost = Double(everyField * (query.words.count - 1) + everyField - SearchText.Field.name.weight)
            if !((best.last?.value).map({ $0 > othersAtMost }) ?? false) {
                for block in 0..<matches.blocks {
                    let (inNames, matching) = matches.block(block)
                    offerEach(matching & ~inNames, block: block)
                }
            }
        }
        return query.page.page(best.sortedEntries().compactMap { slot, rank in hit(slot, rank, measured: measured) })
    }

    /// The hit of the place at `slot` ranked `rank`, with its key for the next page's cursor.
    private func hit(_ slot: UInt32, _ rank: ScoredRank, measured: Bool) -> (PlaceSearchHit, [String])? {
        guard let place = places[Int(slot)] else { return nil }
        let relevance = rank.value
        let distance = measured ? rank.distance : nil
        let hit = PlaceSearchHit(summary: place.summary, relevance: relevance, distanceMeters: distance)
        return (hit, ([relevance] + (distance.map { [$0] } ?? [])).map(PageRequest.keyPart) + [place.id])
    }

    /// Inside a circle, the first `k` places by rank when they all score the most that any place could; nil when that
    /// cannot be known cheaply (the search then weighs every match in the circle).
    ///
    /// The most a place can score is known from the words alone: their postings' fields (a common word's skip table
    /// holds them). A word held only in names adds 10 to every place holding it, so a generated name's word, or
    /// "pizza" held in names and cuisines, has a top that many places reach. Those places rank among themselves by
    /// distance, then id, as nearby ranks places, so the grid's nearest-first walk finds them, testing each place near
    /// the centre a posting lookup at a time; once it has `k`, no place left can come before them. Its cost follows the
    /// page and the places around the centre, where weighing every match follows the places of the circle and the
    /// words' postings (ten times the work at ten times the places).
    ///
    /// It gives up (nil) when a query word is many words (a prefix of one letter), when a later page's cursor stands
    /// among the top's places (their distances would be needed to skip them), when the circle holds fewer than `k`
    /// places at the top, and when it has tested `budget` places without finding `k`.
    private func mostRelevantNearest(
        _ queryWords: [String],
        in circle: (center: Coordinate, radiusMeters: Double),
        after: (rank: ScoredRank, id: String)?,
        k: Int
    ) -> [(slot: UInt32, rank: ScoredRank)]? {
        var lookups: [SearchPostings.PlaceLookup] = []
        for word in queryWords {
            guard let lookup = words.placeLookup(ofWordsStartingWith: word) else { return nil }
            // A word no place holds: nothing matches.
            guard lookup.fields != 0 else { return [] }
            lookups.append(lookup)
        }
        // A place scores the top when it holds each word in every field any place holds it in.
        let top = lookups.reduce(0) { total, lookup in
            total + SearchText.Field.allCases.reduce(0) { $0 + (lookup.fields & SearchPostings.fieldBit($1) != 0 ? $1.weight : 0) }
        }
        // Past a cursor of a lower relevance no place at the top is left; at the top itself, it would need distances.
        if let after, after.rank.value <= Double(top) { return nil }
        let budget = 1_024 + 32 * k
        var tested = 0
        let places = places
        let ranks = ranks
        let hits = grid.within(
            circle.center,
            radiusMeters: circle.radiusMeters,
            limit: k,
            where: { slot in
                tested += 1
                // Out of budget: every place passes, which fills the walk's page at once and ends it.
                if tested > budget { return true }
                return lookups.allSatisfy { $0.fields(of: slot) == $0.fields }
            },
            tieBreak: { a, b in
                let (first, second) = (ranks[Int(a)].idPrefix, ranks[Int(b)].idPrefix)
                return first != second ? first < second : (places[Int(a)]?.id ?? "") < (places[Int(b)]?.id ?? "")
            }
        )
        guard tested <= budget, hits.count == k else { return nil }
        return hits.map { ($0.key, ScoredRank(value: Double(top), distance: $0.distanceMeters, idPrefix: ranks[Int($0.key)].idPrefix)) }
    }
}
