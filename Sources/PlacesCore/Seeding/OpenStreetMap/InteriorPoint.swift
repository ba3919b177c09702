import Foundation
import GeoIndex

/// The one point that stands for a mapped shape: a place needs a position, and OpenStreetMap maps many places as
/// outlines (a restaurant as its building, a park as its boundary).
///
/// An area's point is an interior point in the manner of JTS's `InteriorPointArea` (PostGIS's `ST_PointOnSurface`):
/// the middle of the widest span of a horizontal line through the middle of the shape's height. Unlike the centroid,
/// which falls outside an L- or U-shaped outline, it always lies inside the area (never in a hole). A line's point is
/// the point halfway along it.
enum InteriorPoint {
    /// A position as GeoJSON writes it: longitude (x), latitude (y).
    typealias Position = (x: Double, y: Double)
    /// A ring: its positions, the last repeating the first.
    typealias Ring = [Position]

    /// A point inside the area of `polygons`, each an outer ring and its holes; nil when no polygon has an area.
    static func ofArea(_ polygons: [[Ring]]) -> Coordinate? {
        var best: (width: Double, point: Position)?
        for rings in polygons {
            guard let outer = rings.first, outer.count >= 3 else { continue }
            guard let scan = scanLatitude(outer) else { continue }
            // Every edge of every ring that the line crosses, by where: inside lies between the 1st and 2nd crossing,
            // the 3rd and 4th, and so on (holes are rings too, so their spans fall outside).
            var crossings: [Double] = []
            for ring in rings {
                for index in ring.indices.dropFirst() {
                    let (a, b) = (ring[index - 1], ring[index])
                    if (a.y > scan) != (b.y > scan) {
                        crossings.append(a.x + (scan - a.y) * (b.x - a.x) / (b.y - a.y))
                    }
                }
            }
            crossings.sort()
            var index = 0
            while index + 1 < crossings.count {
                let width = crossings[index + 1] - crossings[index]
                if width > 0, width > (best?.width ?? 0) {
                    best = (width, ((crossings[index] + crossings[index + 1]) / 2, scan))
                }
                index += 2
            }
        }
        return best.map { Coordinate(latitude: $0.point.y, longitude: $0.point.x) }
    }

    /// A latitude through the ring's middle that passes through none of its vertices: halfway between the vertex
    /// latitudes nearest above and below the middle of its height (as JTS chooses its scan line).
    private static func scanLatitude(_ ring: Ring) -> Double? {
        var south = Double.infinity
        var north = -Double.infinity
        for position in ring {
            south = min(south, position.y)
            north = max(north, position.y)
        }
        guard north > south else { return nil }
        let middle = (south + north) / 2
        var below = south
        var above = north
        for position in ring {
            if position.y <= middle, position.y > below { below = position.y }
            if position.y > middle, position.y < above { above = position.y }
        }
        return (below + above) / 2
    }

    /// The point halfway along a line, by its length on the ground (a degree of longitude shrinks with latitude).
    static func ofLine(_ line: [Position]) -> Coordinate? {
        guard let first = line.first else { return nil }
        guard line.count > 1 else { return Coordinate(latitude: first.y, longitude: first.x) }
        let scale = cos(line.reduce(0) { $0 + $1.y } / Double(line.count) * .pi / 180)
        func length(_ a: Position, _ b: Position) -> Double {
            let dx = (b.x - a.x) * scale
            let dy = b.y - a.y
            return (dx * dx + dy * dy).squareRoot()
        }
        var total = 0.0
        for index in line.indices.dropFirst() { total += length(line[index - 1], line[index]) }
        guard total > 0 else { return Coordinate(latitude: first.y, longitude: first.x) }
        var left = total / 2
        for index in line.indices.dropFirst() {
            let (a, b) = (line[index - 1], line[index])
            let step = length(a, b)
            if step >= left, step > 0 {
                let t = left / step
                return Coordinate(latitude: a.y + (b.y - a.y) * t, longitude: a.x + (b.x - a.x) * t)
            }
            left -= step
        }
        let last = line[line.count - 1]
        return Coordinate(latitude: last.y, longitude: last.x)
    }
}
