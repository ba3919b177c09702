import Dispatch
import GeoIndex

/// The index's content as a copy-on-write value: the grid, each slot's place and kind, and each id's slot.
///
/// Every part is stored in chunks or shards (`GridIndex` by latitude band), so a writer that changes a copy while
/// readers query the original copies only the chunks it touches, not a million places.
struct PlaceTable: Sendable {
    var grid = GridIndex()
    var slots = PlaceSlots()
    /// Each slot's place; nil once deleted (slots are not reused until the next full load).
    var places = ChunkedArray<IndexedPlace?>()
    /// Each slot's kind, kept apart so the common kind-only filter reads one byte a candidate.
    var kinds = ChunkedArray<PlaceKind?>()
    /// Each slot's place in the map's order (best score first, then id), kept apart for the same reason.
    var ranks = ChunkedArray<PlaceRank>()
    /// How many places each cell of the map's grid holds, per kind, at the coarse zooms (for clusters).
    var cells = MapCells()
    /// The best ratings in each cell of zoom 13, per kind (for discover, below the map's cells).
    var ratingCells = RatingCells()
    /// Every place's words, for search.
    var words = SearchPostings()
    var revision: Int64 = 0
    /// The database's generation the revision counts in (see `PlaceSnapshot.generation`).
    var generation = ""
    var live = 0

    /// Makes an empty table.
    init() {}

    /// Makes a table holding a snapshot, each place's JSON made once here (as a load that received it whole).
    init(_ snapshot: PlaceSnapshot) {
        let load = PlaceTableLoad(capacity: snapshot.summaries.count)
        load.receive(snapshot.summaries)
        self = load.table(at: snapshot)
    }

    /// Applies a change set in order (the caller checked its revision).
    mutating func apply(_ changes: PlaceChanges) {
        var gridChanges: [GridChange] = []
        // The map's counts change after the places do, in the same order; the extremes and best ratings of the cells
        // they may lower are then worked out again from the places as the whole set leaves them.
        var cellChanges: [(coordinate: Coordinate, kind: PlaceKind, change: CellChange)] = []
        var wordEdits = SearchPostings.Edits()
        for id in changes.deleted {
            guard let slot = slots.remove(id, in: places), let old = places[Int(slot)] else { continue }
            wordEdits.replace(slot: slot, old: SearchPostings.words(of: old.summary), new: nil)
            gridChanges.append(.remove(key: slot, at: old.coordinate))
            cellChanges.append((old.coordinate, old.kind, .remove))
            places[Int(slot)] = nil
            kinds[Int(slot)] = nil
            live -= 1
        }
        for summary in changes.upserted {
            if let slot = slots.slot(of: summary.id, in: places), let old = places[Int(slot)] {
                if old.coordinate != summary.coordinate {
                    gridChanges.append(.move(key: slot, from: old.coordinate, to: summary.coordinate))
                }
                if old.coordinate != summary.coordinate || old.kind != summary.kind {
                    cellChanges.append((old.coordinate, old.kind, .remove))
                    cellChanges.append((summary.coordinate, summary.kind, .add(slot: slot, rating: summary.rating)))
                } else if old.rating != summary.rating {
                    cellChanges.append((summary.coordinate, summary.kind, .rerate(from: old.rating, to: summary.rating)))
                }
                let oldSummary = old.summary
                if oldSummary.name != summary.name || oldSummary.tags != summary.tags || oldSummary.cuisine != summary.cuisine
                    || oldSummary.description != summary.description
                {
                    wordEdits.replace(slot: slot, old: SearchPostings.words(of: oldSummary), new: SearchPostings.words(of: summary))
                }
                places[Int(slot)] = IndexedPlace.make(summary)
                kinds[Int(slot)] = summary.kind
                ranks[Int(slot)] = PlaceRank(summary)
            } else {
                let slot = UInt32(places.count)
                places.append(IndexedPlace.make(summary))
                slots.insert(slot, for: summary.id, in: places)
                kinds.append(summary.kind)
                ranks.append(PlaceRank(summary))
                live += 1
                wordEdits.replace(slot: slot, old: nil, new: SearchPostings.words(of: summary))
                gridChanges.append(.insert(key: slot, at: summary.coordinate))
                cellChanges.append((summary.coordinate, summary.kind, .add(slot: slot, rating: summary.rating)))
            }
        }
        grid.apply(gridChanges)
        words.apply(wordEdits)
        let lookup = lookup
        for change in cellChanges {
            switch change.change {
            case .add(let slot, let rating):
                cells.add(change.coordinate, kind: change.kind, slot: slot, rating: rating, lookup)
                ratingCells.add(change.coordinate, kind: change.kind, rating: rating)
            case .remove:
                cells.remove(change.coordinate, kind: change.kind)
                ratingCells.touch(change.coordinate)
            case .rerate(let old, let new):
                cells.rerate(change.coordinate, kind: change.kind, from: old, to: new)
                ratingCells.rerate(change.coordinate, kind: change.kind, from: old, to: new)
            }
        }
        let table = self
        cells.repair(lookup) { cell, kind in table.scannedCell(cell, kind, lookup) }
        ratingCells.repair { cell in table.scannedRatings(cell) }
        revision = changes.revision
    }

    /// The places within the query's circle that pass its filter, in its order (by distance, or by score then distance;
    /// ties by id), at most `limit` of them; `whileScanning` runs once from inside the scan.
    ///
    /// The grid's nearest-first walk answers by distance; the map's cells answer when their bounds help: by score, or
    /// with `minRating` (see `nearbyFromCells`).
    func nearby(_ query: NearbyQuery, whileScanning: (() -> Void)?) -> [NearbyPlace] {
        let cellsBound = query.sort == .score || query.filter.minRating != nil
        return cellsBound ? nearbyFromCells(query, whileScanning: whileScanning) : nearbyFromGrid(query, whileScanning: whileScanning)
    }

    /// `nearby` from the grid alone: its nearest-first walk for the order by distance; for the order by score, every
    /// place in the circle (the benchmark's baseline for `nearbyFromCells`, which answers alike).
    func nearbyFromGrid(_ query: NearbyQuery, whileScanning: (() -> Void)?) -> [NearbyPlace] {
        let places = places
        let matcher = query.filter.matcher()
        var filter = slotFilter(query.filter, matcher)
        if let whileScanning {
            var pending = true
            let test = filter
            filter = { slot in
                if pending {
                    pending = false
                    whileScanning()
                }
                return test?(slot) ?? true
            }
        }
        var hits = grid.within(
            query.center,
            radiusMeters: query.radiusMeters,
            limit: query.sort == .distance ? query.limit : nil,
            where: filter,
            tieBreak: { a, b in (places[Int(a)]?.id ?? "") < (places[Int(b)]?.id ?? "") }
        )
        if query.sort == .score {
            let ranks = ranks
            var best = BestRanked<ScoredRank>(k: query.limit, id: { places[Int($0)]?.id ?? "" })
            for hit in hits {
                best.offer(
                    hit.key,
                    ScoredRank(value: ranks[Int(hit.key)].score, distance: hit.distanceMeters, idPrefix: ranks[Int(hit.key)].idPrefix)
                )
            }
            hits = best.sortedEntries().map { GridHit(key: $0.slot, distanceMeters: $0.rank.distance) }
        }
        let asksOpenStatus = query.filter.openAt != nil
        var answer: [NearbyPlace] = []
        answer.reserveCapacity(hits.count)
        for hit in hits {
            guard let place = places[Int(hit.key)] else { continue }
            answer.append(
                NearbyPlace(
                    place,
                    distance: PlaceDistance(meters: hit.distanceMeters),
                    openStatus: asksOpenStatus ? matcher.openStatus(place.attributes) : nil
                )
            )
        }
        return answer
    }

    /// The test of a slot against a filter; nil when nothing is filtered.
    func slotFilter(_ filter: PlaceFilter, _ matcher: PlaceFilter.Matcher) -> ((UInt32) -> Bool)? {
        let kinds = kinds
        let places = places
        if filter.isEmpty { return nil }
        // The common kind-only filter reads the compact kinds, not the places.
        if filter == PlaceFilter(kind: filter.kind) { return { slot in kinds[Int(slot)] == filter.kind } }
        return { slot in places[Int(slot)]?.passes(matcher) ?? false }
    }

    /// One page of the places in the query's box that pass its filter, best score first, then by id.
    func within(_ query: ViewportQuery) -> ViewportAnswer {
        let places = places
        let ranks = ranks
        let matcher = query.filter.matcher()
        let filter = slotFilter(query.filter, matcher)
        let id: (UInt32) -> String = { slot in places[Int(slot)]?.id ?? "" }
        let after = query.after.map { (rank: PlaceRank(score: $0.score, id: $0.id), id: $0.id) }
        // One more than the page, to tell whether more follow.
        var best = BestRanked<PlaceRank>(k: query.limit + 1, id: id)
        grid.forEachKey(in: query.box, coordinate: coordinate) { slot in
            let rank = ranks[Int(slot)]
            if let after, !PlaceRank.precedes(after.rank, rank, aID: { after.id }, bID: { id(slot) }) { return }
            if let filter, !filter(slot) { return }
            best.offer(slot, rank)
        }
        let slots = best.sorted()
        let page = slots.prefix(query.limit).compactMap { places[Int($0)] }
        let statuses = query.filter.openAt == nil ? [] : page.map { matcher.openStatus($0.attributes) }
        return ViewportAnswer(box: query.box, places: page, openStatuses: statuses, more: slots.count > query.limit)
    }
}

/// What a change does to a place's cells of the map's grid.
private enum CellChange {
    /// The place, at this slot with this rating, enters them.
    case add(slot: UInt32, rating: RatingAggregate)
    /// The place leaves them.
    case remove
    /// The place stays, its rating changed from `from` to `to`.
    case rerate(from: RatingAggregate, to: RatingAggregate)
}
