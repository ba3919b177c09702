#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension GridStorage {
    /// The first `k` entries within the circle in (distance, tie-break) order, visiting cells nearest first.
    ///
    /// Each band is walked outwards from the centre's chunk, east and west, and bands outwards from the centre's band;
    /// a cell's successor never has a smaller lower bound, so once the cheapest cell left cannot beat the k-th hit,
    /// no unvisited cell can, and the search stops.
    func nearest(in q: QueryCircle, k: Int, filter: ((UInt32) -> Bool)?, order: HitOrder) -> [GridHit] {
        var best = BestHits(capacity: k, order: order)
        var cells = CellQueue()
        let home = layout.band(latitude: q.latitude)
        cells.push(centerCell(band: home, q))
        var visited = 0
        // Where each band's east and west walks stand: cells are found by walking outwards from the centre's
        // longitude, so a band costs one binary search, not two per cell.
        let thetaDegrees = q.theta * (180 / Double.pi) + GridStorage.longitudeSlack
        let lowest = q.coversSphere ? 0 : layout.band(latitude: q.latitude - thetaDegrees)
        let highest = q.coversSphere ? layout.bandCount - 1 : layout.band(latitude: q.latitude + thetaDegrees)
        var cursors = [BandCursor](repeating: BandCursor(), count: highest - lowest + 1)
        while let cell = cells.popMin() {
            // Past the k-th chord by more than rounding: nothing in the cell can reach or tie the k-th distance.
            let bound = best.isFull ? min(q.chordLimit, best.worstChord * (1 + 1e-9)) : q.chordLimit
            if cell.lowerBound > bound { break }
            visited += 1
            if visited > GridStorage.cellBudget, !best.isFull {
                return nearestByGrowingRadius(q, k: k, from: cell.lowerBound, filter: filter, order: order)
            }
            let b = Int(cell.band)
            if b >= lowest, b <= highest {
                visit(cell, q, filter, &best, &cursors[b - lowest])
            }
            if cell.step == 0 {
                if b >= home, b + 1 < layout.bandCount { push(centerCell(band: b + 1, q), q, &cells) }
                if b <= home, b > 0 { push(centerCell(band: b - 1, q), q, &cells) }
                push(chunkCell(band: b, step: 1, latitudeBound: cell.latitudeBound, q), q, &cells)
                push(chunkCell(band: b, step: -1, latitudeBound: cell.latitudeBound, q), q, &cells)
            } else {
                let next = cell.step > 0 ? cell.step + 1 : cell.step - 1
                push(chunkCell(band: b, step: next, latitudeBound: cell.latitudeBound, q), q, &cells)
            }
        }
        return best.sorted()
    }

    /// Cells the nearest-first walk may visit before it gives up on sparse surroundings (fine cells, few places,
    /// a large radius) and switches to full scans of doubling radius, whose cost follows the places, not the cells.
    static let cellBudget = 2_048

    /// The k nearest by "all within r" scans, doubling r from the distance already searched empty-handed.
    private func nearestByGrowingRadius(
        _ q: QueryCircle,
        k: Int,
        from chordSquared: Double,
        filter: ((UInt32) -> Bool)?,
        order: HitOrder
    ) -> [GridHit] {
        let center = Coordinate(latitude: q.latitude, longitude: q.longitude)
        let searched = 2 * asin(min(1, chordSquared.squareRoot() / 2)) * Geodesy.earthRadiusMeters
        var radius = max(searched, 1_000)
        while true {
            radius = min(2 * radius, q.radiusMeters)
            guard let circle = QueryCircle(center: center, radiusMeters: radius) else { return [] }
            let hits = all(in: circle, filter: filter, order: order)
            if hits.count >= k || radius >= q.radiusMeters || circle.coversSphere { return Array(hits.prefix(k)) }
        }
    }

    @inline(__always)
    private func push(_ cell: SearchCell?, _ q: QueryCircle, _ cells: inout CellQueue) {
        if let cell, cell.lowerBound <= q.chordLimit { cells.push(cell) }
    }

    /// The chunk of band `b` holding the centre's longitude; its bound is the latitude gap alone.
    private func centerCell(band b: Int, _ q: QueryCircle) -> SearchCell {
        let south = layout.edgeRadians[b]
        let north = layout.edgeRadians[b + 1]
        let gap = q.phi < south ? south - q.phi : (q.phi > north ? q.phi - north : 0)
        let half = sin(gap / 2)
        let bound = GridStorage.deflated(4 * half * half)
        return SearchCell(lowerBound: bound, latitudeBound: bound, band: Int32(b), step: 0)
    }

    /// The chunk `step` chunks away from the centre's, or nil past the half of the band that side owns.
    ///
    /// Its bound is the larger of the band's latitude gap and the distance from the centre to the meridian plane at
    /// the chunk's nearest edge (asin(cos φ0 · sin Δλ), flat beyond 90°): everything in the chunk lies beyond it.
    private func chunkCell(band b: Int, step: Int32, latitudeBound: Double, _ q: QueryCircle) -> SearchCell? {
        let n = layout.chunkCounts[b]
        let width = layout.chunkWidths[b]
        let east = (n - 1) / 2
        let j = Int(step.magnitude)
        guard j <= (step > 0 ? east : n - 1 - east) else { return nil }
        let c0 = centerChunk(band: b, q)
        let near: Double
        if step > 0 {
            near = (-180 + Double(c0 + 1) * width - q.longitude) + Double(j - 1) * width
        } else {
            near = (q.longitude - (-180 + Double(c0) * width)) + Double(j - 1) * width
        }
        let gap = min(near, 360 - near - width) - GridStorage.longitudeSlack
        let m = min(max(gap, 0), 90) * (Double.pi / 180)
        let s = q.cosPhi * sin(m)
        let lonBound = GridStorage.deflated(2 * s * s / (1 + (1 - s * s).squareRoot()))
        return SearchCell(lowerBound: max(latitudeBound, lonBound), latitudeBound: latitudeBound, band: Int32(b), step: step)
    }

    /// A bound lowered by more than the rounding of its computation and of the band and chunk assignment.
    @inline(__always)
    static func deflated(_ chordSquared: Double) -> Double {
        max(0, chordSquared * (1 - 1e-9) - 1e-15)
    }

    @inline(__always)
    private func centerChunk(band b: Int, _ q: QueryCircle) -> Int {
        let n = layout.chunkCounts[b]
        let t = ((q.longitude + 180) / layout.chunkWidths[b]).rounded(.down)
        return t < 0 ? 0 : min(Int(t), n - 1)
    }

    /// Tests the entries of a cell against the current k-th and the radius, advancing the band's walk.
    ///
    /// East cell j holds the entries whose longitude offset from the centre lies below its far edge; the last cell
    /// on a side takes everything the two walks have not met over yet, so rounding at the seam loses nothing.
    private func visit(
        _ cell: SearchCell,
        _ q: QueryCircle,
        _ filter: ((UInt32) -> Bool)?,
        _ best: inout BestHits,
        _ cursor: inout BandCursor
    ) {
        let b = Int(cell.band)
        let n = layout.chunkCounts[b]
        let width = layout.chunkWidths[b]
        let c0 = centerChunk(band: b, q)
        let eastCells = (n - 1) / 2
        let westCells = n - 1 - eastCells
        let eastNear = -180 + Double(c0 + 1) * width - q.longitude
        let westNear = q.longitude - (-180 + Double(c0) * width)
        let step = Int(cell.step)
        withBand(b) { band in
            let count = band.count
            guard count > 0 else { return }
            if step == 0 {
                cursor.start = band.firstIndex(notBelow: Float(q.longitude))
            }
            var bound = best.isFull ? min(q.chordLimit, best.worstChord * (1 + 1e-9)) : q.chordLimit
            @inline(__always) func test(_ entry: GridEntry) {
                let c2 = q.center.chordSquared(entry.x, entry.y, entry.z)
                guard c2 <= bound else { return }
                if let filter, !filter(entry.key) { return }
                guard let hit = q.hit(entry, chordSquared: c2) else { return }
                best.offer(hit, chord: c2)
                if best.isFull { bound = min(q.chordLimit, best.worstChord * (1 + 1e-9)) }
            }
            if step >= 0 {
                let far = eastNear + Double(step) * width
                let last = step == eastCells
                while cursor.east + cursor.west < count {
                    var i = cursor.start + cursor.east
                    var offset = -q.longitude
                    if i >= count {
                        i -= count
                        offset += 360
                    }
                    let entry = band[i]
                    if !last, Double(entry.lon) + offset >= far { break }
                    test(entry)
                    cursor.east += 1
                }
            }
            if step <= 0 {
                let far = westNear + Double(-step) * width
                let last = -step == westCells
                while cursor.east + cursor.west < count {
                    var i = cursor.start - 1 - cursor.west
                    var offset = -q.longitude
                    if i < 0 {
                        i += count
                        offset -= 360
                    }
                    let entry = band[i]
                    if !last, Double(entry.lon) + offset < -far { break }
                    test(entry)
                    cursor.west += 1
                }
            }
        }
    }
}

/// How far the nearest-first walk has read a band: from `start` (the centre's longitude), `east` entries eastwards
/// and `west` entries westwards, circularly.
struct BandCursor {
    var start = 0
    var east = 0
    var west = 0
}
