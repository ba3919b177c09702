import GeoIndex

/// The cells a walk of the map's grid has yet to visit, best first: the highest bound on score, then the least bound
/// on distance (a binary heap). Nearby's `sort=score` walk bounds a score and a distance; meet's bounds the farthest
/// origin's distance (as a score, negated) and the sum of distances.
struct CellVisits {
    struct Visit {
        let cell: MapGrid.Cell
        /// No place in the cell scores more (0 for all when the order is by distance).
        let score: Double
        /// No place in the cell is nearer, in metres.
        let distance: Double

        @inline(__always)
        func precedes(_ other: Visit) -> Bool {
            score != other.score ? score > other.score : distance < other.distance
        }
    }

    private var heap: [Visit] = []

    mutating func push(_ visit: Visit) {
        heap.append(visit)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[i].precedes(heap[parent]) else { return }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    mutating func popFirst() -> Visit? {
        guard let first = heap.first else { return nil }
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first }
        heap[0] = last
        var i = 0
        while true {
            let left = 2 * i + 1
            guard left < heap.count else { break }
            var next = left
            if left + 1 < heap.count, heap[left + 1].precedes(heap[left]) { next = left + 1 }
            guard heap[next].precedes(heap[i]) else { break }
            heap.swapAt(i, next)
            i = next
        }
        return first
    }
}

extension CellVisits {
    /// Where a walk starts: the cells of zoom 0.
    static var roots: [MapGrid.Cell] {
        (0..<MapGrid.cellsPerSide(0)).flatMap { row in (0..<MapGrid.cellsPerSide(0)).map { MapGrid.Cell(zoom: 0, row: row, column: $0) } }
    }

    /// The cells a visit of `cell` hands on: a coarse cell's four, one of `MapCells.finestZoom` its 64 of
    /// `RatingCells.zoom`; nil for a cell of that zoom, which is scanned.
    static func finer(_ cell: MapGrid.Cell) -> [MapGrid.Cell]? {
        if cell.zoom < MapCells.finestZoom { return cell.children }
        guard cell.zoom == MapCells.finestZoom else { return nil }
        let shift = RatingCells.zoom - MapCells.finestZoom
        return (0..<(1 << shift)).flatMap { row in
            (0..<(1 << shift)).map { column in
                MapGrid.Cell(zoom: RatingCells.zoom, row: cell.row << shift + row, column: cell.column << shift + column)
            }
        }
    }
}
