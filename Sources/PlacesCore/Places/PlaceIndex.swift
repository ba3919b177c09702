import GeoIndex

/// The in-memory side of the places: the grid index plus what a nearby answer shows of each place.
///
/// The database is the source of truth; this follows it through the change counter (`revision`), applying
/// changes in commit order. Each place gets a slot (the grid's key) that is never reused until the next full
/// load, so a slot a reader holds always names the same place.
public final class PlaceIndex: Sendable {
    private struct Table {
        var grid = GridIndex()
        var slotsByID: [String: UInt32] = [:]
        var summaries: [PlaceSummary?] = []
        var kinds: [PlaceKind?] = []
        var revision: Int64 = 0
        var live = 0
    }

    private let table = ReadWriteLocked(Table())

    /// Makes an empty index at revision 0.
    public init() {}

    /// The change counter the index is current at.
    public var revision: Int64 { table.read { $0.revision } }

    /// How many live places the index holds.
    public var count: Int { table.read { $0.live } }

    /// True when deleted places hold so many slots that a fresh full load would be leaner.
    public var wantsCompaction: Bool {
        table.read { $0.summaries.count > 2 * $0.live + 10_000 }
    }

    /// Bytes the grid uses for positions and keys.
    public var gridMemoryBytes: Int { table.read { $0.grid.memoryBytes } }

    /// Replaces everything with a snapshot (start-up, or after a change set too large to apply one by one).
    public func replaceAll(_ snapshot: PlaceSnapshot) {
        var fresh = Table()
        fresh.slotsByID.reserveCapacity(snapshot.summaries.count)
        fresh.summaries.reserveCapacity(snapshot.summaries.count)
        fresh.kinds.reserveCapacity(snapshot.summaries.count)
        var entries: [(key: UInt32, coordinate: Coordinate)] = []
        entries.reserveCapacity(snapshot.summaries.count)
        for summary in snapshot.summaries {
            let slot = UInt32(fresh.summaries.count)
            fresh.slotsByID[summary.id] = slot
            fresh.summaries.append(summary)
            fresh.kinds.append(summary.kind)
            entries.append((slot, summary.coordinate))
        }
        fresh.revision = snapshot.revision
        fresh.live = snapshot.summaries.count
        // Everything is built before the lock is taken: queries keep being answered from the old table meanwhile.
        fresh.grid.build(entries)
        // Swapped, not assigned: the old table is freed after the lock is released, not while queries wait.
        table.write { current in swap(&current, &fresh) }
    }

    /// Applies a change set in order; changes at or before the current revision are ignored.
    public func apply(_ changes: PlaceChanges) {
        table.write { table in
            guard changes.revision > table.revision else { return }
            var gridChanges: [GridChange] = []
            for id in changes.deleted {
                guard let slot = table.slotsByID.removeValue(forKey: id), let old = table.summaries[Int(slot)] else { continue }
                gridChanges.append(.remove(key: slot, at: old.coordinate))
                table.summaries[Int(slot)] = nil
                table.kinds[Int(slot)] = nil
                table.live -= 1
            }
            for summary in changes.upserted {
                if let slot = table.slotsByID[summary.id], let old = table.summaries[Int(slot)] {
                    if old.coordinate != summary.coordinate {
                        gridChanges.append(.move(key: slot, from: old.coordinate, to: summary.coordinate))
                    }
                    table.summaries[Int(slot)] = summary
                    table.kinds[Int(slot)] = summary.kind
                } else {
                    let slot = UInt32(table.summaries.count)
                    table.slotsByID[summary.id] = slot
                    table.summaries.append(summary)
                    table.kinds.append(summary.kind)
                    table.live += 1
                    gridChanges.append(.insert(key: slot, at: summary.coordinate))
                }
            }
            table.grid.apply(gridChanges)
            table.revision = changes.revision
        }
    }

    /// The places within the query's circle that pass its filter, ordered by (distance, id), at most `limit` of them.
    public func nearby(_ query: NearbyQuery) -> [NearbyPlace] {
        table.read { table in
            let kinds = table.kinds
            let summaries = table.summaries
            let matcher = query.filter.matcher()
            let filter: ((UInt32) -> Bool)?
            if query.filter.isEmpty {
                filter = nil
            } else if query.filter == PlaceFilter(kind: query.kind) {
                // The common kind-only filter reads the compact kinds array, not the summaries.
                filter = { slot in kinds[Int(slot)] == query.kind }
            } else {
                filter = { slot in summaries[Int(slot)].map(matcher.matches) ?? false }
            }
            let hits = table.grid.within(
                query.center,
                radiusMeters: query.radiusMeters,
                limit: query.limit,
                where: filter,
                tieBreak: { a, b in (summaries[Int(a)]?.id ?? "") < (summaries[Int(b)]?.id ?? "") }
            )
            return hits.compactMap { hit in
                summaries[Int(hit.key)].map { summary in
                    NearbyPlace(
                        summary: summary,
                        distanceMeters: hit.distanceMeters,
                        openStatus: query.filter.openAt == nil ? nil : matcher.openStatus(summary)
                    )
                }
            }
        }
    }

    /// The summaries of these ids that are live, by id.
    public func summaries(_ ids: [String]) -> [String: PlaceSummary] {
        table.read { table in
            var found: [String: PlaceSummary] = [:]
            for id in ids {
                if let slot = table.slotsByID[id], let summary = table.summaries[Int(slot)] { found[id] = summary }
            }
            return found
        }
    }
}
