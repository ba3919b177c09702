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
        var low = 0
        var high = count
        while low < high {
            let mid = (low &+ high) >> 1
            if self[mid].lon < lon { low = mid &+ 1 } else { high = mid }
        }
        return low
    }

    /// The first index whose longitude is above `lon`.
    @inline(__always)
    func firstIndex(above lon: Float) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low &+ high) >> 1
            if self[mid].lon <= lon { low = mid &+ 1 } else { high = mid }
        }
        return low
    }
}
