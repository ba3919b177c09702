import ArgumentParser
import Foundation
import PlacesCore
import PlacesHTTP
import PlacesSQLite

/// The place fields every `places place add|update` takes, as options named like the API's fields.
struct PlaceFieldOptions: ParsableArguments {
    @Option(name: .long, help: "gem or restaurant.") var kind: PlaceKind?
    @Option(name: .long, help: "Display name.") var name: String?
    @Option(name: .long, help: "Free text.") var description: String?
    @Option(name: .long, parsing: .unconditional, help: "Latitude in degrees.") var lat: String?
    @Option(name: .long, parsing: .unconditional, help: "Longitude in degrees.") var lon: String?
    @Option(name: .long, help: "Street address.") var address: String?
    @Option(name: .long, help: "City.") var city: String?
    @Option(name: .long, help: "A tag; repeatable (replaces the tags).") var tag: [String] = []
    @Option(name: .long, help: "Cuisine (restaurants).") var cuisine: String?
    @Option(name: .long, help: "Price level 1–4.") var priceLevel: String?
    @Option(name: .long, help: "Phone number.") var phone: String?
    @Option(name: .long, help: "http(s) website.") var website: String?
    @Option(
        name: .long,
        help: #"Opening hours as JSON (a week is no flag's shape), e.g. '{"mon":["08:00-17:00"],"sun":null}'."#
    ) var openingHours: String?
    @Option(name: .long, help: "IANA time zone of the hours.") var timeZone: String?
    @Option(name: .long, help: "Clear this field (repeatable), e.g. --clear cuisine.") var clear: [PlaceField] = []

    /// A field `--clear` may name.
    enum PlaceField: String, CaseIterable, ExpressibleByArgument {
        case kind, name, description, lat, lon, address, city, tags, cuisine, priceLevel, phone, website, openingHours, timeZone
    }

    /// The change the options ask for: each option sets its field, `--clear` clears one.
    func patch() throws(PlacesError) -> PlacePatch {
        func number(_ text: String?, _ field: String) throws(PlacesError) -> Patch<Double> {
            guard let text else { return .keep }
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
                throw .invalid(field, "\(field) must be a number")
            }
            return .set(value)
        }

        func priceLevelPatch() throws(PlacesError) -> Patch<Int> {
            guard let priceLevel else { return .keep }
            guard let level = Int(priceLevel.trimmingCharacters(in: .whitespaces)) else {
                throw .invalid("priceLevel", "priceLevel must be a whole number from 1 to 4")
            }
            return .set(level)
        }

        func openingHoursPatch() throws(PlacesError) -> Patch<[String: [String]]> {
            guard let openingHours else { return .keep }
            let value = try FieldReader.parse(Array(openingHours.utf8))
            let body = try FieldReader(.object(["openingHours": value]), allowed: ["openingHours"])
            return try PlacePatch.openingHours(body).map(Patch.set) ?? .clear
        }

        /// What the flags ask of one field: `--clear` naming it wins over a value given.
        func unlessCleared<Value>(_ given: Patch<Value>, _ field: PlaceField) -> Patch<Value> {
            clear.contains(field) ? .clear : given
        }

        return PlacePatch(
            name: unlessCleared(.given(name), .name),
            kind: unlessCleared(.given(kind), .kind),
            lat: unlessCleared(try number(lat, "lat"), .lat),
            lon: unlessCleared(try number(lon, "lon"), .lon),
            description: unlessCleared(.given(description), .description),
            address: unlessCleared(.given(address), .address),
            city: unlessCleared(.given(city), .city),
            tags: unlessCleared(tag.isEmpty ? .keep : .set(tag), .tags),
            cuisine: unlessCleared(.given(cuisine), .cuisine),
            priceLevel: unlessCleared(try priceLevelPatch(), .priceLevel),
            phone: unlessCleared(.given(phone), .phone),
            website: unlessCleared(.given(website), .website),
            openingHours: unlessCleared(try openingHoursPatch(), .openingHours),
            timeZone: unlessCleared(.given(timeZone), .timeZone)
        )
    }
}

extension PlaceKind: ExpressibleByArgument {}

extension Places {
    /// `places place …`: places on the database file, as the operator (any place, seeded ones included).
    struct PlaceCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "place",
            abstract: "Add, change, delete, restore or show a place on the database file.",
            discussion: "The operator's tool: it may change any place, including seeded ones (a re-seed brings those back to their file).",
            subcommands: [Add.self, Update.self, Delete.self, Restore.self, Show.self]
        )

        static func show(_ place: Place, json: Bool) throws {
            if json {
                try printJSON(PlaceResponse(place))
                return
            }
            var lines = ["\(place.id)  \(place.kind.rawValue)  \(place.name)"]
            lines.append("  at \(place.coordinate.latitude), \(place.coordinate.longitude)\(place.city.map { " in \($0)" } ?? "")")
            if !place.tags.isEmpty { lines.append("  tags: \(place.tags.joined(separator: ", "))") }
            if let cuisine = place.cuisine { lines.append("  cuisine: \(cuisine)") }
            if let level = place.priceLevel { lines.append("  price: \(String(repeating: "$", count: level))") }
            if let average = place.rating.average {
                lines.append("  rating: \(String(format: "%.2f", average)) from \(place.rating.count), score \(String(format: "%.2f", place.rating.score))")
            }
            if let owner = place.ownerID { lines.append("  owner: \(owner)") }
            if place.deletedAt != nil { lines.append("  deleted") }
            print(lines.joined(separator: "\n"))
        }

        struct Add: PlaceAnswering {
            static let configuration = CommandConfiguration(abstract: "Add a place (same rules as POST /v1/places).")

            @OptionGroup var fields: PlaceFieldOptions
            @Option(name: .long, help: "Username of the owner (default: none, like a seeded place).") var owner: String?
            @Flag(name: .long, help: "Add it even if a place with the same name is within 50 m.") var allowDuplicate = false
            @Flag(name: .long, help: "Print the place as the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func place(_ services: PlacesServices) async throws -> Place {
                let patch = try fields.patch()
                let place = NewPlace(fields: patch, allowDuplicate: allowDuplicate)
                let ownerUser = try await owner.asyncMap { name in try await services.accounts.user(username: name) }
                return try await services.places.create(place, owner: ownerUser)
            }
        }

        struct Update: PlaceAnswering {
            static let configuration = CommandConfiguration(abstract: "Change the fields given (same rules as PATCH /v1/places/{id}).")

            @Argument(help: "The place's id.") var id: String
            @OptionGroup var fields: PlaceFieldOptions
            @Flag(name: .long, help: "Print the place as the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func place(_ services: PlacesServices) async throws -> Place {
                try await services.places.update(id: id, try fields.patch(), by: .operatorCLI)
            }
        }

        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Soft-delete a place (restore brings it back).")

            @Argument(help: "The place's id.") var id: String
            @Flag(name: .long, help: "Print the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func run() async throws {
                do {
                    try await Composition.open(databaseOptions).services.places.delete(id: id, by: .operatorCLI)
                    if json { try printJSON(Deleted(id: id)) } else { print("deleted \(id)") }
                } catch {
                    throw Failure.exit(error)
                }
            }
        }

        struct Restore: PlaceAnswering {
            static let configuration = CommandConfiguration(abstract: "Bring a deleted place back.")

            @Argument(help: "The place's id.") var id: String
            @Flag(name: .long, help: "Print the place as the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func place(_ services: PlacesServices) async throws -> Place {
                try await services.places.restore(id: id, by: .operatorCLI)
            }
        }

        struct Show: PlaceAnswering {
            static let configuration = CommandConfiguration(abstract: "Show one live place.")
            static let readsOnly = true

            @Argument(help: "The place's id.") var id: String
            @Flag(name: .long, help: "Print the place as the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func place(_ services: PlacesServices) async throws -> Place {
                try await services.places.place(id: id)
            }
        }
    }

    /// `places search WORDS`: full-text search, as `GET /v1/places/search`.
    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find places by name, description, tags or cuisine (prefixes; case and accents ignored)."
        )

        @Argument(help: "The words to find.") var words: [String]
        @Option(name: .long, parsing: .unconditional, help: "Only near this latitude.") var lat: String?
        @Option(name: .long, parsing: .unconditional, help: "Only near this longitude.") var lon: String?
        @Option(name: .long, parsing: .unconditional, help: "Radius in miles around lat/lon (default 5, max 20).") var radius: String?
        @Option(
            name: .long,
            parsing: .unconditional,
            help: "LAT,LON: among places that match alike, nearer ones first (excludes none; not with --lat/--lon)."
        ) var near: String?
        @Option(name: .long, help: "At most this many (1–100, default 20).") var limit: String?
        @Option(name: .long, help: "The cursor of the next page, from an earlier answer.") var cursor: String?
        @Flag(name: .long, help: "Print the page as the API's JSON.") var json = false
        @OptionGroup var databaseOptions: DatabaseOptions

        func run() async throws {
            do {
                let page = try PageRequest.parse(limit: limit, cursor: cursor)
                let query = try PlaceSearchQuery.parse(
                    q: words.joined(separator: " "),
                    lat: lat,
                    lon: lon,
                    radius: radius,
                    near: near,
                    page: page
                )
                let result = try await Composition.open(databaseOptions, readOnly: true).services.places.search(query)
                if json {
                    try printJSON(result)
                    return
                }
                for hit in result.items.map(\.place) {
                    let distance = hit.distanceMiles.map { String(format: "%.2f mi  ", $0) } ?? ""
                    print("\(distance)\(hit.kind.rawValue)  \(hit.name)  \(hit.city ?? "")  \(hit.id)")
                }
                if let next = result.nextCursor { print("more: --cursor \(next)") }
            } catch {
                throw Failure.exit(error)
            }
        }
    }
}

/// A `places place` command that answers with a place: printed as the API's JSON with `--json`, else as text.
protocol PlaceAnswering: AsyncParsableCommand {
    /// Whether to print the API's JSON.
    var json: Bool { get }
    /// The database it works on.
    var databaseOptions: DatabaseOptions { get }
    /// Whether the command only reads (the database then opens read-only).
    static var readsOnly: Bool { get }
    /// The place the command answers with, after what it does.
    func place(_ services: PlacesServices) async throws -> Place
}

extension PlaceAnswering {
    static var readsOnly: Bool { false }

    func run() async throws {
        do {
            let services = try await Composition.open(databaseOptions, readOnly: Self.readsOnly).services
            try Places.PlaceCommand.show(try await place(services), json: json)
        } catch {
            throw Failure.exit(error)
        }
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}

/// What `place delete --json` prints.
struct Deleted: Encodable {
    var id: String
    var deleted = true
}
