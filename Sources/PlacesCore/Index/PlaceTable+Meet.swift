import GeoIndex

extension PlaceTable {
    /// Meet's answer: the places within 20 miles of every origin, the least distance from the farthest origin first,
    /// then the least sum of distances, then by id.
    ///
    /// The walk is nearby's `sort=score` walk of the map's cells (`nearbyFromCells`) with other bounds: for a cell,
    /// the farthest origin's lower bound on the distance to it (each origin's `GeoCircle.minimumDistance`), and the sum
    /// of those bounds. A cell some origin's circle cannot reach is passed over with everything in it; cells are
    /// visited least bound first, and once the page is full and the next cell's bounds cannot beat its last place,
    /// no cell left can, and the walk stops: the answer is exact, and it reads the cells near the fairest spot only.
    func meet(_ query: MeetQuery) -> [MeetPlace] {
        let circles = query.origins.compactMap { GeoCircle(center: $0, radiusMeters: query.radiusMeters) }
        guard !circles.isEmpty, circles.count == query.origins.count, query.limit > 0 else { return [] }
        let places = places
        let ranks = ranks
        let lookup = lookup
        let kind = query.filter.kind
        let minRating = query.filter.minRating.map(Float.init) ?? -.infinity
        let matcher = query.filter.matcher()
        let filter = slotFilter(query.filter, matcher)
        var best = BestRanked<MeetRank>(k: query.limit, id: lookup.id)
        var kept: [UInt32: [Double]] = [:]
        var queue = CellVisits()

        // A cell every circle reaches, with its bounds, never better than its parent's (so the queue's order holds).
        func consider(_ cell: MapGrid.Cell, within parent: CellVisits.Visit?) {
            let found = cell.zoom == RatingCells.zoom ? ratingCells.record(cell)?.bests(kind) : cells.record(cell)?.bests(kind)
            guard let bounds = found, bounds.score > -.infinity, bounds.average >= minRating else { return }
            let box = cell.widenedBounds
            var farthest = 0.0
            var total = 0.0
            for circle in circles {
                let distance = circle.minimumDistance(to: box)
                guard distance <= circle.radiusMeters else { return }
                farthest = max(farthest, distance)
                total += distance
            }
            // The farthest origin's bound as a score: the least is the best.
            var score = -farthest
            if let parent {
                score = min(score, parent.score)
                total = max(total, parent.distance)
            }
            queue.push(CellVisits.Visit(cell: cell, score: score, distance: total))
        }

        for cell in CellVisits.roots { consider(cell, within: nil) }
        var distances = [Double](repeating: 0, count: circles.count)
        while let visit = queue.popFirst() {
            if let last = best.last, -visit.score > last.farthest || (-visit.score == last.farthest && visit.distance > last.total) { break }
            if let finer = CellVisits.finer(visit.cell) {
                for cell in finer { consider(cell, within: visit) }
                continue
            }
            scan(visit.cell, kind, lookup) { slot, x, y, z in
                var farthest = 0.0
                var total = 0.0
                for (i, circle) in circles.enumerated() {
                    guard let distance = circle.distance(x: x, y: y, z: z) else { return }
                    distances[i] = distance
                    farthest = max(farthest, distance)
                    total += distance
                }
                let rank = MeetRank(farthest: farthest, total: total, idPrefix: ranks[Int(slot)].idPrefix)
                // The cheap test first: a place that cannot make the page is not filtered.
                guard best.wouldKeep(slot, rank) else { return }
                if let filter, !filter(slot) { return }
                best.offer(slot, rank)
                kept[slot] = distances
            }
        }
        let asksOpenStatus = query.filter.openAt != nil
        return best.sortedEntries().compactMap { entry in
            guard let place = places[Int(entry.slot)], let found = kept[entry.slot] else { return nil }
            return MeetPlace(
                place,
                distances: found.map { PlaceDistance(meters: $0) },
                openStatus: asksOpenStatus ? matcher.openStatus(place.attributes) : nil
            )
        }
    }
}

/// Where a place stands in a meet's order: the least distance from the farthest origin, then the least sum of
/// distances, then by id.
private struct MeetRank: RankOrder {
    var farthest: Double
    var total: Double
    /// The id's first eight bytes (see `PlaceRank.idPrefix`).
    var idPrefix: UInt64

    @inline(__always)
    static func precedes(_ a: MeetRank, _ b: MeetRank, aID: () -> String, bID: () -> String) -> Bool {
        if a.farthest != b.farthest { return a.farthest < b.farthest }
        if a.total != b.total { return a.total < b.total }
        if a.idPrefix != b.idPrefix { return a.idPrefix < b.idPrefix }
        return aID() < bID()
    }
}
