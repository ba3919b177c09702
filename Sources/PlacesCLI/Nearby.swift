import ArgumentParser
import Foundation
import PlacesCore
import PlacesHTTP
import PlacesSQLite

extension Places {
    /// `places nearby`: the places within a radius of a point, read from the database file directly.
    struct Nearby: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the places near a point, nearest first (or best first with --sort score).",
            discussion: "Reads the database file directly; no server is needed. Radius is in miles, capped at 20."
        )

        @Option(name: .long, parsing: .unconditional, help: "Latitude of the centre, in degrees (-90...90).")
        var lat: String?

        @Option(name: .long, parsing: .unconditional, help: "Longitude of the centre, in degrees (-180...180).")
        var lon: String?

        @Option(name: .long, parsing: .unconditional, help: "Radius in miles (default 5, capped at 20).")
        var radius: String?

        @Option(name: .long, parsing: .unconditional, help: "Radius in kilometres (instead of --radius).")
        var radiusKm: String?

        @Option(name: .long, help: "Answer as this user: their default location and radius fill in, their units print.")
        var user: String?

        @Option(name: .long, help: "The order: distance (nearest first, the default) or score (best first, then nearest).")
        var sort: String?

        @OptionGroup var listing: PlaceListingOptions

        @OptionGroup var databaseOptions: DatabaseOptions

        func run() async throws {
            do {
                let filter = try listing.filters.filter()
                _ = try databaseOptions.existingFile("run `places seed` or `places serve` first")
                let services = try await Composition.open(databaseOptions, readOnly: true).services
                var settings: UserSettings?
                if let user {
                    settings = try await services.accounts.settings(userID: try await services.accounts.user(username: user).id)
                }
                let query = try NearbyQuery.parse(
                    lat: lat,
                    lon: lon,
                    radius: radius,
                    radiusKm: radiusKm,
                    limit: listing.limit,
                    sort: sort,
                    filter: filter,
                    defaults: settings.map { .init(center: $0.defaultLocation?.coordinate, radiusMiles: $0.defaultRadiusMiles) }
                )
                let answer = try await services.places.nearbyLoadingIndex(query)
                print(listing.json ? NearbyOutput.json(answer) : NearbyOutput.table(answer, units: settings?.units), terminator: "")
            } catch {
                throw Failure.exit(error)
            }
        }
    }
}

/// What nearby and meet both take: how many places at most, the filters, and JSON or a table.
struct PlaceListingOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: "At most this many places (1...500, default 50).")
    var limit: String?

    @OptionGroup var filters: PlaceFilterOptions

    @Flag(name: .long, help: "Print the answer as JSON, as the HTTP API does.")
    var json = false
}

/// The filters nearby and meet take: `--kind`, `--tag` (repeatable), `--cuisine`, `--min-price`, `--max-price`,
/// `--min-rating` and `--open-at`.
struct PlaceFilterOptions: ParsableArguments {
    @Option(name: .long, help: "Only places of this kind: gem or restaurant.")
    var kind: String?

    @Option(name: .long, help: "Only places with this tag; repeatable (all must match).")
    var tag: [String] = []

    @Option(name: .long, help: "Only restaurants of this cuisine.")
    var cuisine: String?

    @Option(name: .long, help: "Only places at or above this price level (1-4).")
    var minPrice: String?

    @Option(name: .long, help: "Only places at or below this price level (1-4).")
    var maxPrice: String?

    @Option(name: .long, help: "Only places rated at least this on average (1-5).")
    var minRating: String?

    @Option(name: .long, help: "Only places open at this ISO-8601 time (places without hours stay, marked unknown).")
    var openAt: String?

    /// The filter the options ask for.
    func filter() throws(PlacesError) -> PlaceFilter {
        try PlaceFilter.parse(
            kind: kind,
            tags: tag,
            cuisine: cuisine,
            minPrice: minPrice,
            maxPrice: maxPrice,
            minRating: minRating,
            openAt: openAt
        )
    }
}
