// TEMPORARY brute-force stand-in with the agreed API; replaced by the real grid index.
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

public struct Coordinate: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
    public var isValid: Bool { latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180 }
}

public enum Geodesy {
    public static let earthRadiusMeters = 6_371_008.8
    public static let metersPerMile = 1_609.344
    public static func distanceMeters(_ a: Coordinate, _ b: Coordinate) -> Double {
        let p1 = a.latitude * .pi / 180, p2 = b.latitude * .pi / 180
        let dp = p2 - p1, dl = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * earthRadiusMeters * asin(min(1, sqrt(h)))
    }
}

public struct GridHit: Sendable, Hashable {
    public let key: UInt32
    public let distanceMeters: Double
}

public enum GridChange: Sendable {
    case insert(key: UInt32, at: Coordinate)
    case remove(key: UInt32, at: Coordinate)
    case move(key: UInt32, from: Coordinate, to: Coordinate)
}

public final class GridIndex: Sendable {
    private let points = Mutex<[UInt32: Coordinate]>([:])
    public init() {}
    public var count: Int { points.withLock { $0.count } }
    public var memoryBytes: Int { count * 24 }
    public func build(_ entries: [(key: UInt32, coordinate: Coordinate)]) {
        points.withLock { p in
            p = [:]
            for e in entries { p[e.key] = e.coordinate }
        }
    }
    public func apply(_ changes: [GridChange]) {
        points.withLock { p in
            for c in changes {
                switch c {
                case .insert(let k, let at): p[k] = at
                case .remove(let k, _): p[k] = nil
                case .move(let k, _, let to): p[k] = to
                }
            }
        }
    }
    public func insert(key: UInt32, at: Coordinate) { apply([.insert(key: key, at: at)]) }
    @discardableResult public func remove(key: UInt32, at: Coordinate) -> Bool {
        points.withLock { $0.removeValue(forKey: key) != nil }
    }
    @discardableResult public func move(key: UInt32, from: Coordinate, to: Coordinate) -> Bool {
        points.withLock { p in
            guard p[key] != nil else { return false }
            p[key] = to
            return true
        }
    }
    public func within(
        _ center: Coordinate, radiusMeters: Double, limit: Int? = nil, where filter: ((UInt32) -> Bool)? = nil,
        tieBreak: ((UInt32, UInt32) -> Bool)? = nil
    ) -> [GridHit] {
        let all = points.withLock { $0 }
        var hits: [GridHit] = []
        for (k, c) in all {
            let d = Geodesy.distanceMeters(center, c)
            if d <= radiusMeters, filter?(k) ?? true { hits.append(GridHit(key: k, distanceMeters: d)) }
        }
        hits.sort { a, b in
            if a.distanceMeters != b.distanceMeters { return a.distanceMeters < b.distanceMeters }
            return tieBreak?(a.key, b.key) ?? (a.key < b.key)
        }
        if let limit, hits.count > limit { hits.removeLast(hits.count - limit) }
        return hits
    }
}
