import GeoIndex

extension PlaceTable {
    /// Nearby's answer from the cells of the map's grid, for the orders and filters those cells bound: `sort=score`
    /// (best score first, then nearest, then by id), and `minRating` in either order.
    ///
    /// `MapCells` keeps, per cell and kind at every zoom from 0 to 10, the best score and the best average rating of
    /// its places, and `RatingCells` keeps them at zoom 13 (cells about a kilometre across). The walk starts from zoom
    /// 0's cells and visits cells best first: the highest best score (for `sort=score`), then the nearest (by a lower
    /// bound on the distance to the cell). A cell whose best average is below `minRating`, or that lies outside the
    /// circle, is passed over with everything in it. A cell of zoom 13 is scanned; one of zoom 10 hands on its 64
    /// cells of zoom 13, a coarser one its four. Once the page is full and the next cell's bounds cannot beat its last
    /// place (a lower best score; or the same best score and a greater distance), no cell left can, and the walk
    /// stops: the answer is exact, and the k best need no scan of the whole circle.
    ///
    /// The distances are the grid's (`GeoCircle`), so `sort=distance` with `minRating` answers what the grid's walk
    /// would, place for place.
    func nearbyFromCells(_ query: NearbyQuery, whileScanning: (() -> Void)?) -> [NearbyPlace] {
        guard let circle = GeoCircle(center: query.center, radiusMeters: query.radiusMeters) else { return [] }
        let places = places
        let ranks = ranks
        let lookup = lookup
        let byScore = query.sort == .score
        let kind = query.filter.kind
        let minRating = query.filter.minRating.map(Float.init) ?? -.infinity
        let matcher = query.filter.matcher()
        let filter = slotFilter(query.filter, matcher)
        var best = BestRanked<ScoredRank>(k: query.limit, id: lookup.id)
        var queue = CellVisits()
        var pending = whileScanning

        // A cell worth a visit, with its bounds, never better than its parent's (so the queue's order holds).
        func consider(_ cell: MapGrid.Cell, within parent: CellVisits.Visit?) {
            let found = cell.zoom == RatingCells.zoom ? ratingCells.record(cell)?.bests(kind) : cells.record(cell)?.bests(kind)
            // A cell without places of the kind has no score.
            guard let bounds = found, bounds.score > -.infinity else { return }
            // Rounded up, an average of exactly minRating is never passed over.
            guard bounds.average >= minRating else { return }
            var distance = circle.minimumDistance(to: cell.widenedBounds)
            guard distance <= circle.radiusMeters else { return }
            var score = byScore ? Double(bounds.score) : 0
            if let parent {
                score = min(score, parent.score)
                distance = max(distance, parent.distance)
            }
            queue.push(CellVisits.Visit(cell: cell, score: score, distance: distance))
        }

        for cell in CellVisits.roots { consider(cell, within: nil) }
        while let visit = queue.popFirst() {
            if let last = best.last, visit.score < last.value || (visit.score == last.value && visit.distance > last.distance) { break }
            if let finer = CellVisits.finer(visit.cell) {
                for cell in finer { consider(cell, within: visit) }
                continue
            }
            if let run = pending {
                pending = nil
                run()
            }
            scan(visit.cell, kind, lookup) { slot, x, y, z in
                guard let distance = circle.distance(x: x, y: y, z: z) else { return }
                let placeRank = ranks[Int(slot)]
                let rank = ScoredRank(value: byScore ? placeRank.score : 0, distance: distance, idPrefix: placeRank.idPrefix)
                // The cheap test first: a place that cannot make the page is not filtered.
                guard best.wouldKeep(slot, rank) else { return }
                if let filter, !filter(slot) { return }
                best.offer(slot, rank)
            }
        }
        let asksOpenStatus = query.filter.openAt != nil
        return best.sortedEntries().compactMap { entry in
            guard let place = places[Int(entry.slot)] else { return nil }
            return NearbyPlace(
                place,
                distance: PlaceDistance(meters: entry.rank.distance),
                openStatus: asksOpenStatus ? matcher.openStatus(place.attributes) : nil
            )
        }
    }
}

extension PlaceTable {
    /// A cell of zoom 13's bests as the index holds its places now (`RatingCells`' repair); nil when it holds none.
    func scannedRatings(_ cell: MapGrid.Cell) -> RatingCells.Record? {
        let places = places
        var record: RatingCells.Record?
        scan(cell, nil, lookup) { slot, _, _, _ in
            guard let place = places[Int(slot)] else { return }
            record = record ?? RatingCells.Record()
            record?[place.kind].rate(place.rating)
        }
        return record
    }
}
