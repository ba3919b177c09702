import Foundation
import GRDB
import GeoIndex

/// One way of answering "the places within R of c" (all, or the k nearest), in (distance, key) order.
protocol BenchEngine {
    var name: String { get }
    func query(_ center: Coordinate, radiusMeters: Double, limit: Int?) throws -> [GridHit]
}

/// The index under test.
struct GridEngine: BenchEngine {
    let name = "grid"
    let grid: GridIndex
    func query(_ center: Coordinate, radiusMeters: Double, limit: Int?) -> [GridHit] {
        grid.within(center, radiusMeters: radiusMeters, limit: limit)
    }
}

/// Sorts hits by (distance, key), the order every engine answers in.
func sortedHits(_ hits: [GridHit], limit: Int?) -> [GridHit] {
    let sorted = hits.sorted { $0.distanceMeters != $1.distanceMeters ? $0.distanceMeters < $1.distanceMeters : $0.key < $1.key }
    return limit.map { Array(sorted.prefix($0)) } ?? sorted
}

/// The floor reference: a unit-vector chord test over every place, then the exact distance and a sort.
struct BruteForceEngine: BenchEngine {
    let name = "brute"
    let coordinates: [Coordinate]
    let vectors: [SIMD4<Double>]

    init(coordinates: [Coordinate]) {
        self.coordinates = coordinates
        vectors = coordinates.map(BruteForceEngine.unit)
    }

    static func unit(_ c: Coordinate) -> SIMD4<Double> {
        let p = c.latitude * .pi / 180
        let l = c.longitude * .pi / 180
        return SIMD4(cos(p) * cos(l), cos(p) * sin(l), sin(p), 0)
    }

    func query(_ center: Coordinate, radiusMeters: Double, limit: Int?) -> [GridHit] {
        let u = BruteForceEngine.unit(center)
        let angle = min(radiusMeters / Geodesy.earthRadiusMeters, .pi)
        let chord = 2 * sin(angle / 2)
        let bound = chord * chord * (1 + 1e-6) + 1e-12
        var hits: [GridHit] = []
        for (i, v) in vectors.enumerated() {
            let d = v - u
            guard (d * d).sum() <= bound else { continue }
            let meters = Geodesy.distanceMeters(center, coordinates[i])
            if meters <= radiusMeters { hits.append(GridHit(key: UInt32(i), distanceMeters: meters)) }
        }
        return sortedHits(hits, limit: limit)
    }
}

/// SQLite's R*Tree through GRDB: a bounding-box query, then the exact distance as a post-filter, then a sort.
final class RTreeEngine: BenchEngine {
    let name = "rtree"
    let coordinates: [Coordinate]
    let queue: DatabaseQueue

    init(coordinates: [Coordinate]) throws {
        self.coordinates = coordinates
        queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE place_box USING rtree(id, minLat, maxLat, minLon, maxLon)")
            let insert = try db.makeStatement(sql: "INSERT INTO place_box VALUES (?, ?, ?, ?, ?)")
            for (i, c) in coordinates.enumerated() {
                try insert.execute(arguments: [i, c.latitude, c.latitude, c.longitude, c.longitude])
            }
        }
    }

    func query(_ center: Coordinate, radiusMeters: Double, limit: Int?) throws -> [GridHit] {
        let degrees = radiusMeters / Geodesy.earthRadiusMeters * 180 / .pi
        let minLat = center.latitude - degrees
        let maxLat = center.latitude + degrees
        // Longitude half-width of the box; the whole circle of longitudes when a pole is near.
        let cosLat = cos(min(abs(center.latitude) + degrees, 90) * .pi / 180)
        let width = cosLat > 1e-9 ? degrees / cosLat : 360
        var boxes: [(Double, Double)] = []
        if width >= 180 {
            boxes = [(-180, 180)]
        } else if center.longitude - width < -180 {
            boxes = [(center.longitude - width + 360, 180), (-180, center.longitude + width)]
        } else if center.longitude + width > 180 {
            boxes = [(center.longitude - width, 180), (-180, center.longitude + width - 360)]
        } else {
            boxes = [(center.longitude - width, center.longitude + width)]
        }
        var hits: [GridHit] = []
        try queue.read { db in
            let statement = try db.cachedStatement(
                sql: "SELECT id FROM place_box WHERE maxLat >= ? AND minLat <= ? AND maxLon >= ? AND minLon <= ?"
            )
            for box in boxes {
                let ids = try Int.fetchCursor(statement, arguments: [minLat, maxLat, box.0, box.1])
                while let id = try ids.next() {
                    let meters = Geodesy.distanceMeters(center, coordinates[id])
                    if meters <= radiusMeters { hits.append(GridHit(key: UInt32(id), distanceMeters: meters)) }
                }
            }
        }
        return sortedHits(hits, limit: limit)
    }
}
