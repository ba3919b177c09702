#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fixed geometry of the grid: latitude bands, their edges' sines and cosines, and how each band is cut into
/// longitude chunks for nearest-first search. Immutable, so snapshots share it with one retain.
final class BandLayout: Sendable {
    /// Band height in degrees.
    let bandDegrees: Double
    let bandCount: Int
    /// Edge latitudes in radians; edge `i` is the south edge of band `i`, edge `bandCount` is the north pole.
    let edgeRadians: [Double]
    let edgeCos: [Double]
    /// Longitude chunks per band (at least 1) and their width in degrees (360 / count, so they tile the band).
    let chunkCounts: [Int]
    let chunkWidths: [Double]

    init(bandDegrees: Double, chunkMetersFactor: Double) {
        let height = min(max(bandDegrees, 0.001), 90)
        self.bandDegrees = height
        let bands = Int((180 / height).rounded(.up))
        bandCount = bands
        var radians: [Double] = []
        var cosines: [Double] = []
        radians.reserveCapacity(bands + 1)
        cosines.reserveCapacity(bands + 1)
        for i in 0...bands {
            let degrees = min(-90 + Double(i) * height, 90)
            let r = degrees * (Double.pi / 180)
            radians.append(r)
            // cos(±π/2) in floating point is ~6e-17, not 0: pin the poles so "touches a pole" tests are exact.
            cosines.append(abs(degrees) == 90 ? 0 : cos(r))
        }
        edgeRadians = radians
        edgeCos = cosines
        var counts: [Int] = []
        var widths: [Double] = []
        for i in 0..<bands {
            // Chunks about as wide (in metres) as the band is tall, at the band's widest edge.
            let widest = max(cosines[i], cosines[i + 1])
            let chunks = max(1, min(1 << 20, Int(360 * widest / (height * chunkMetersFactor))))
            counts.append(chunks)
            widths.append(360 / Double(chunks))
        }
        chunkCounts = counts
        chunkWidths = widths
    }

    /// The band holding a latitude (degrees); the north pole belongs to the last band.
    @inline(__always)
    func band(latitude: Double) -> Int {
        let t = ((latitude + 90) / bandDegrees).rounded(.down)
        // Written so NaN and out-of-range values land in a valid band instead of trapping in Int(_:).
        guard t >= 0 else { return 0 }
        return t < Double(bandCount) ? Int(t) : bandCount - 1
    }
}
