import ArgumentParser
import Foundation
import PlacesCore

extension Places {
    /// `places meet`: where a group can meet, read from the database file directly.
    struct Meet: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the places within 20 miles of every origin, the fairest first.",
            discussion: """
                Fairest first: the least distance from the farthest origin, then the least sum of distances, then by \
                id. For example: places meet --at 37.76,-122.42 --at 37.80,-122.27 --kind restaurant. Reads the \
                database file directly; no server is needed.
                """
        )

        @Option(name: .long, parsing: .unconditionalSingleValue, help: "Where one person is, as LAT,LON; 2 to 20 of them.")
        var at: [String] = []

        @OptionGroup var listing: PlaceListingOptions

        @OptionGroup var databaseOptions: DatabaseOptions

        func run() async throws {
            do {
                let query = try MeetQuery.parse(at: at, limit: listing.limit, filter: try listing.filters.filter())
                _ = try databaseOptions.existingFile("run `places seed` or `places serve` first")
                let services = try await Composition.open(databaseOptions, readOnly: true).services
                let answer = try await services.places.meetLoadingIndex(query)
                print(listing.json ? String(decoding: answer.json(), as: UTF8.self) + "\n" : NearbyOutput.table(answer), terminator: "")
            } catch {
                throw Failure.exit(error)
            }
        }
    }
}
