/// One answer of a grid query: a key and its great-circle distance from the query's centre.
public struct GridHit: Sendable, Hashable {
    /// The caller's key for the place.
    public let key: UInt32
    /// Great-circle distance from the centre, in metres (the same value `Geodesy.distanceMeters` gives).
    public let distanceMeters: Double

    /// Makes a hit.
    public init(key: UInt32, distanceMeters: Double) {
        self.key = key
        self.distanceMeters = distanceMeters
    }
}
