import Foundation
import GeoIndex
import Hummingbird
import HummingbirdTesting
import Logging
import PlacesCore
import PlacesHTTP
import PlacesSQLite

/// An application over a fresh in-memory database holding `places`, for one test.
enum TestApp {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func place(_ id: String, _ lat: Double, _ lon: Double, kind: PlaceKind = .gem, name: String? = nil) -> Place {
        Place(
            id: id,
            kind: kind,
            name: name ?? "Place \(id)",
            coordinate: Coordinate(latitude: lat, longitude: lon),
            city: "Testville",
            seedSource: "test.json",
            createdAt: now,
            updatedAt: now
        )
    }

    static func make(_ places: [Place]) async throws -> some ApplicationProtocol {
        let database = try PlacesDatabase.inMemory()
        try await database.places.withSeedTransaction { writer in
            for place in places { try writer.upsert(place) }
        }
        let service = PlaceService(repository: database.places, index: PlaceIndex())
        try await service.loadIndex()
        return buildApplication(
            settings: ServerSettings(host: "127.0.0.1", port: 0),
            services: PlacesServices(places: service),
            logger: Logger(label: "test")
        )
    }

    /// The JSON object of a response body.
    static func object(_ body: ByteBuffer) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(buffer: body))
        guard let object = value as? [String: Any] else { throw CocoaError(.coderReadCorrupt) }
        return object
    }

    /// The error code and field of an error response.
    static func error(_ body: ByteBuffer) throws -> (code: String?, field: String?) {
        let error = try object(body)["error"] as? [String: Any]
        return (error?["code"] as? String, error?["field"] as? String)
    }
}
