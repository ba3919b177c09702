import ArgumentParser
import Foundation
import PlacesCore
import PlacesSQLite

extension Places {
    /// `places nearby`: the places within a radius of a point, read from the database file directly.
    struct Nearby: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the places near a point, nearest first.",
            discussion: "Reads the database file directly; no server is needed. Radius is in miles, capped at 20."
        )

        @Option(name: .long, parsing: .unconditional, help: "Latitude of the centre, in degrees (-90...90).")
        var lat: String

        @Option(name: .long, parsing: .unconditional, help: "Longitude of the centre, in degrees (-180...180).")
        var lon: String

        @Option(name: .long, parsing: .unconditional, help: "Radius in miles (default 5, capped at 20).")
        var radius: String?

        @Option(name: .long, parsing: .unconditional, help: "At most this many places (1...500, default 50).")
        var limit: String?

        @Option(name: .long, help: "Only places of this kind: gem or restaurant.")
        var kind: String?

        @Flag(name: .long, help: "Print the answer as JSON, as the HTTP API does.")
        var json = false

        @OptionGroup var databaseOptions: DatabaseOptions

        func run() async throws {
            do {
                let query = try NearbyQuery.parse(lat: lat, lon: lon, radius: radius, limit: limit, kind: kind)
                let path = databaseOptions.path
                guard FileManager.default.fileExists(atPath: path) else {
                    throw PlacesError(.notFound, "no database at \(path); run `places seed` or `places serve` first")
                }
                let database = try PlacesDatabase(path: path, readOnly: true)
                let service = PlaceService(repository: database.places, index: PlaceIndex())
                try await service.loadIndex()
                let answer = service.nearby(query)
                print(json ? try NearbyOutput.json(answer) : NearbyOutput.table(answer), terminator: "")
            } catch {
                throw Failure.exit(error)
            }
        }
    }
}
