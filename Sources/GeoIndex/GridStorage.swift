/// The grid's content as a value: one longitude-sorted array per latitude band.
///
/// It is copy-on-write, so a reader takes a snapshot (a few retains) and queries it without any lock while a writer
/// mutates its own copy; only the bands a write touches are copied.
struct GridStorage: Sendable {
    let layout: BandLayout
    var bands: [[GridEntry]]
    /// Per band, every 8th entry's longitude (see `BandView`); rebuilt for a band whenever it changes.
    var directories: [[Float]]
    var count = 0

    init(layout: BandLayout) {
        self.layout = layout
        bands = Array(repeating: [], count: layout.bandCount)
        directories = Array(repeating: [], count: layout.bandCount)
    }

    /// Bytes held for positions and keys: the bands' capacities plus each array's header and the band table.
    var memoryBytes: Int {
        var total = bands.capacity * MemoryLayout<[GridEntry]>.stride + directories.capacity * MemoryLayout<[Float]>.stride
        for band in bands where band.capacity > 0 {
            total += band.capacity * MemoryLayout<GridEntry>.stride + 32
        }
        for directory in directories where directory.capacity > 0 {
            total += directory.capacity * MemoryLayout<Float>.stride + 32
        }
        return total
    }

    /// Replaces everything; each band is allocated at its exact size, which is what keeps the index lean.
    mutating func build(_ entries: [(key: UInt32, coordinate: Coordinate)]) {
        var sizes = [Int](repeating: 0, count: layout.bandCount)
        var bandOf = [Int32](repeating: 0, count: entries.count)
        for (i, entry) in entries.enumerated() {
            let b = layout.band(latitude: entry.coordinate.latitude)
            bandOf[i] = Int32(b)
            sizes[b] += 1
        }
        var grouped = [[GridEntry]](repeating: [], count: layout.bandCount)
        for b in 0..<layout.bandCount where sizes[b] > 0 {
            grouped[b].reserveCapacity(sizes[b])
        }
        for (i, entry) in entries.enumerated() {
            grouped[Int(bandOf[i])].append(GridEntry(key: entry.key, at: entry.coordinate))
        }
        for b in 0..<layout.bandCount where sizes[b] > 1 {
            grouped[b].sort { $0.lon < $1.lon }
        }
        bands = grouped
        directories = grouped.map(BandView.samples)
        count = entries.count
    }

    mutating func insert(key: UInt32, at coordinate: Coordinate) {
        let entry = GridEntry(key: key, at: coordinate)
        let b = layout.band(latitude: coordinate.latitude)
        let position = bands[b].withUnsafeBufferPointer { $0.firstIndex(above: entry.lon) }
        bands[b].insert(entry, at: position)
        directories[b] = BandView.samples(of: bands[b])
        count += 1
    }

    mutating func remove(key: UInt32, at coordinate: Coordinate) -> Bool {
        let b = layout.band(latitude: coordinate.latitude)
        let lon = Float(coordinate.longitude)
        let found: Int? = bands[b].withUnsafeBufferPointer { band in
            let start = band.firstIndex(notBelow: lon)
            var i = start
            while i < band.count, band[i].lon == lon {
                if band[i].key == key { return i }
                i += 1
            }
            // A coordinate that rounds differently than when it was stored: still find the key in its band.
            return band.firstIndex { $0.key == key }
        }
        guard let index = found else { return false }
        bands[b].remove(at: index)
        directories[b] = BandView.samples(of: bands[b])
        count -= 1
        return true
    }

    mutating func move(key: UInt32, from: Coordinate, to: Coordinate) -> Bool {
        guard remove(key: key, at: from) else { return false }
        insert(key: key, at: to)
        return true
    }

    mutating func apply(_ change: GridChange) {
        switch change {
        case .insert(let key, let at): insert(key: key, at: at)
        case .remove(let key, let at): _ = remove(key: key, at: at)
        case .move(let key, let from, let to): _ = move(key: key, from: from, to: to)
        }
    }
}
