import Foundation
import GeoIndex

/// The fixed grid of cells about 1 km on a side that a saved location is snapped to before a meet uses it, so that
/// no answer depends on it closer than its cell.
///
/// Rows are 1 km of latitude tall (1,000 m on the sphere of radius 6,371,008.8 m: 0.0089932°), counted from the
/// South Pole. Each row is cut into the whole number of equal columns that makes them closest to 1 km wide at the
/// row's middle latitude (at least one), counted eastwards from the antimeridian. A location stands for its cell's
/// centre. The grid never moves: the same location always snaps to the same centre, so asking again tells nothing
/// new.
public enum MeetGrid {
    /// A cell's side, in metres.
    public static let cellMeters = 1_000.0
    /// A row's height, in degrees of latitude.
    static let rowDegrees = cellMeters / (Geodesy.earthRadiusMeters * .pi / 180)
    /// How many rows cover the Earth from pole to pole (the last one is cut short at the North Pole).
    static let rows = Int((180 / rowDegrees).rounded(.up))

    /// The centre of the cell that holds `location`.
    public static func snapped(_ location: Coordinate) -> Coordinate {
        let row = min(rows - 1, max(0, Int(((location.latitude + 90) / rowDegrees).rounded(.down))))
        let south = -90 + Double(row) * rowDegrees
        let north = min(90, south + rowDegrees)
        let middle = (south + north) / 2
        let rowWidthMeters = 2 * .pi * Geodesy.earthRadiusMeters * cos(middle * .pi / 180)
        let columns = max(1, Int((rowWidthMeters / cellMeters).rounded()))
        let columnDegrees = 360 / Double(columns)
        let column = min(columns - 1, max(0, Int(((location.longitude + 180) / columnDegrees).rounded(.down))))
        return Coordinate(latitude: middle, longitude: -180 + (Double(column) + 0.5) * columnDegrees)
    }
}
