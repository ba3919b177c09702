import GeoIndex

/// A place's distance from a question's centre, in the three units every answer shows it in.
///
/// The one place where miles and kilometres are made from metres, so every answer (nearby, search, favourites,
/// collections) agrees to the last digit.
public struct PlaceDistance: Sendable, Hashable {
    /// Great-circle distance in metres.
    public let meters: Double

    /// The distance in statute miles.
    public var miles: Double { meters / Geodesy.metersPerMile }

    /// The distance in kilometres.
    public var kilometers: Double { meters / 1_000 }
}
