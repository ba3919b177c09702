import Foundation
import GeoIndex
import PlacesCore

/// The places the tests store, made one way: each suite names only what its cases read (where, what kind, which
/// seed file owns it), and the rest is the same everywhere.
public enum TestPlaces {
    /// The moment fixtures are made at, unless a test gives its own (whole seconds, so every engine stores it exactly).
    public static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A place at (lat, lon), called "Place `id`" unless named, made and last changed `at`. It belongs to the seed
    /// file `seedSource` unless it has an owner: a place someone added through the API belongs to no seed file.
    public static func place(
        _ id: String,
        lat: Double = 40,
        lon: Double = -74,
        kind: PlaceKind = .gem,
        name: String? = nil,
        description: String = "",
        city: String? = nil,
        tags: [String] = [],
        owner: String? = nil,
        seedSource: String? = "test.json",
        at time: Date = now
    ) -> Place {
        Place(
            id: id,
            kind: kind,
            name: name ?? "Place \(id)",
            description: description,
            coordinate: Coordinate(latitude: lat, longitude: lon),
            city: city,
            tags: tags,
            ownerID: owner,
            seedSource: owner == nil ? seedSource : nil,
            createdAt: time,
            updatedAt: time
        )
    }
}
