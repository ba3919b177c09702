import ArgumentParser
import GeoIndex
import PlacesCore
import PlacesHTTP

extension Places {
    /// `places collection …`: collections of places, as a user.
    struct CollectionCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "collection",
            abstract: "Collections of places, acting as a user on the database file.",
            subcommands: [Create.self, EveryPage<List>.self, Show.self, Update.self, OneCall<Delete>.self, Add.self, TwoCall<Remove>.self, Order.self]
        )

        /// The flag that replaces each deprecated field.
        static let flags = ["name": "--name", "description": "--description", "groupId": "--group"]

        struct Create: ActingCommand {
            static let configuration = CommandConfiguration(abstract: "Make a collection: your own, or a group's with --group.")
            @Option(name: .long, help: "Its name.") var name: String?
            @Option(name: .long, help: "What it is for.") var description: String?
            @Option(name: .long, help: "The group it belongs to.") var group: String?
            @Argument(help: ArgumentHelp("Deprecated: fields as NAME=VALUE.", visibility: .hidden)) var fields: [String] = []
            @OptionGroup var acting: ActingOptions

            func answer(_ together: Together) async throws -> PlaceCollection {
                let command = try DeprecatedFields(arguments: fields, flags: CollectionCommand.flags).command(
                    flags: { NewCollection(name: name, description: description, groupId: group) },
                    flagsGiven: name != nil || description != nil || group != nil,
                    allowed: NewCollection.fields,
                    read: NewCollection.init(body:)
                )
                return try await together.services.collections.create(together.caller, command)
            }
        }

        enum List: ServiceList {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "The user's collections and their groups'.")
            static let pages: UserPages = CollectionService.list(_:page:)
        }

        struct Show: ActingCommand {
            static let configuration = CommandConfiguration(abstract: "A collection's places in order, with distances from --lat/--lon.")
            @Argument(help: "The collection's id.") var id: String
            @Option(name: .long, parsing: .unconditional, help: "Latitude to measure from.") var lat: String?
            @Option(name: .long, parsing: .unconditional, help: "Longitude to measure from.") var lon: String?
            @OptionGroup var acting: ActingOptions

            func answer(_ together: Together) async throws -> CollectionDetail {
                let center = lat == nil && lon == nil ? nil : try NearbyQuery.parse(lat: lat, lon: lon, limit: nil, filter: PlaceFilter()).center
                return try await together.services.collections.detail(together.caller, id: id, center: center)
            }
        }

        struct Update: ActingCommand {
            static let configuration = CommandConfiguration(abstract: "Rename or describe a collection.")
            @Argument(help: "The collection's id.") var id: String
            @Option(name: .long, help: "Its new name.") var name: String?
            @Option(name: .long, help: "Its new description.") var description: String?
            @Flag(name: .long, help: "Clear the description.") var clearDescription = false
            @Argument(help: ArgumentHelp("Deprecated: fields as NAME=VALUE.", visibility: .hidden)) var fields: [String] = []
            @OptionGroup var acting: ActingOptions

            func answer(_ together: Together) async throws -> PlaceCollection {
                let patch = try DeprecatedFields(arguments: fields, flags: CollectionCommand.flags).command(
                    flags: { CollectionPatch(name: .given(name), description: clearDescription ? .clear : .given(description)) },
                    flagsGiven: name != nil || description != nil || clearDescription,
                    allowed: NewCollection.fields,
                    read: CollectionPatch.init(body:)
                )
                return try await together.services.collections.update(together.caller, id: id, patch)
            }
        }

        enum Delete: CollectionCall {
            static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a collection.")
            static let call = Done.after("deleted", CollectionService.delete(_:id:))
        }

        struct Add: ActingCommand {
            static let configuration = CommandConfiguration(abstract: "Add a place, at the end or at --position (0-based).")
            @Argument(help: "The collection's id.") var id: String
            @Argument(help: "The place's id.") var placeID: String
            @Option(name: .long, help: "Where to insert it, 0-based.") var position: Int?
            @OptionGroup var acting: ActingOptions

            func answer(_ together: Together) async throws -> CollectionDetail {
                try await together.services.collections.add(together.caller, id: id, CollectionAddition(placeId: placeID, position: position))
            }
        }

        enum Remove: PairCall {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a place.")
            static let arguments = (first: ArgumentHelp("The collection's id.", valueName: "id"), second: ArgumentHelp("The place's id.", valueName: "place-id"))
            static let call = Done.after("removed", CollectionService.remove(_:id:placeID:))
        }

        struct Order: ActingCommand {
            static let configuration = CommandConfiguration(abstract: "Put the places in this order (each once).")
            @Argument(help: "The collection's id.") var id: String
            @Argument(help: "Every place id, in the new order.") var placeIDs: [String]
            @OptionGroup var acting: ActingOptions

            func answer(_ together: Together) async throws -> CollectionDetail {
                try await together.services.collections.reorder(together.caller, id: id, placeIDs: placeIDs)
            }
        }
    }
}

/// A `places collection` subcommand that is one call of the collection service about the collection it names.
protocol CollectionCall: ServiceCall where Service == CollectionService {}

extension CollectionCall {
    static var argument: ArgumentHelp { ArgumentHelp("The collection's id.", valueName: "id") }
}

extension PlaceCollection: CommandLineText {
    /// Its id, name and kind, and the group it belongs to.
    var commandLineText: String {
        "\(id)  \(name)  (\(kind)\(groupId.map { " of \($0)" } ?? ""))"
    }
}

extension CollectionDetail: CommandLineText {
    /// The collection, then its places in order with their distances when measured.
    var commandLineText: String {
        let places = self.places.map(\.place).enumerated().map { index, place in
            let distance = place.distanceMiles.map { String(format: "  %.2f mi", $0) } ?? ""
            return "  \(index + 1). \(place.name) (\(place.id))\(distance)"
        }
        return ([collection.commandLineText] + places).joined(separator: "\n")
    }
}
