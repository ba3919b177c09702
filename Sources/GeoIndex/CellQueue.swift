/// One cell of the nearest-first search: a longitude chunk of a band, `step` chunks east (positive) or west
/// (negative) of the chunk holding the centre, with a lower bound of the squared chord to anything inside it.
struct SearchCell {
    var lowerBound: Double
    /// The band's own bound (latitude gap only), reused by the cells that follow in the same band.
    var latitudeBound: Double
    var band: Int32
    var step: Int32
}

/// A binary min-heap of cells by lower bound.
struct CellQueue {
    private var items: [SearchCell] = []

    init() { items.reserveCapacity(64) }

    mutating func push(_ cell: SearchCell) {
        items.append(cell)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) >> 1
            guard items[i].lowerBound < items[parent].lowerBound else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func popMin() -> SearchCell? {
        guard let last = items.popLast() else { return nil }
        guard !items.isEmpty else { return last }
        let top = items[0]
        items[0] = last
        var i = 0
        let n = items.count
        while true {
            let l = 2 * i + 1
            guard l < n else { break }
            let r = l + 1
            let child = r < n && items[r].lowerBound < items[l].lowerBound ? r : l
            guard items[child].lowerBound < items[i].lowerBound else { break }
            items.swapAt(i, child)
            i = child
        }
        return top
    }
}
