/// One place inside the index: 32 bytes (unit vector for the exact distance test, key, and a Float longitude that
/// keeps each band sorted and binary-searchable).
struct GridEntry: Sendable {
    var x: Double
    var y: Double
    var z: Double
    var key: UInt32
    var lon: Float

    init(key: UInt32, at coordinate: Coordinate) {
        let v = UnitVector(coordinate)
        x = v.x
        y = v.y
        z = v.z
        self.key = key
        lon = Float(coordinate.longitude)
    }
}

extension UnsafeBufferPointer where Element == GridEntry {
    /// The first index whose longitude is not below `lon` (entries are sorted by `lon`).
    @inline(__always)
    func firstIndex(notBelow lon: Float) -> Int {
        firstIndex(in: 0..<count, past: lon, inclusive: false)
    }

    /// The first index whose longitude is above `lon`.
    @inline(__always)
    func firstIndex(above lon: Float) -> Int {
        firstIndex(in: 0..<count, past: lon, inclusive: true)
    }

    /// The first index in `range` whose longitude is past `lon`: above it when `inclusive`, otherwise not below it.
    @inline(__always)
    func firstIndex(in range: Range<Int>, past lon: Float, inclusive: Bool) -> Int {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let mid = (low &+ high) >> 1
            let before = inclusive ? self[mid].lon <= lon : self[mid].lon < lon
            if before { low = mid &+ 1 } else { high = mid }
        }
        return low
    }
}
