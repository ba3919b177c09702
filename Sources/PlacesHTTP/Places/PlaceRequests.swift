import Foundation
import PlacesCore

// Request bodies of /v1/places turned into Core's commands.

extension PlacePatch: RequestCommand {
    /// What `PATCH /v1/places/{id}` accepts.
    public static let fields: Set<String> = [
        "kind", "name", "description", "lat", "lon", "address", "city", "tags", "cuisine", "priceLevel", "phone", "website",
        "openingHours", "timeZone",
    ]

    /// The change a body asks for: absent keeps a field, null clears it.
    public init(body: FieldReader) throws(PlacesError) {
        func number(_ name: String) throws(PlacesError) -> Patch<Double> {
            guard body.has(name) else { return .keep }
            return try body.number(name).map(Patch.set) ?? .clear
        }
        var priceLevel = Patch<Int>.keep
        if body.has("priceLevel") { priceLevel = try body.wholeNumber("priceLevel").map(Patch.set) ?? .clear }
        var tags = Patch<[String]>.keep
        if body.has("tags") { tags = try body.texts("tags", field: "tags", what: "text").map(Patch.set) ?? .clear }
        var hours = Patch<[String: [String]]>.keep
        if body.has("openingHours") { hours = try PlacePatch.openingHours(body).map(Patch.set) ?? .clear }
        self.init(
            name: try body.patchText("name"),
            kind: try body.patchText("kind").map { text throws(PlacesError) in try PlaceKind.parse(text.trimmingCharacters(in: .whitespaces)) },
            lat: try number("lat"),
            lon: try number("lon"),
            description: try body.patchText("description"),
            address: try body.patchText("address"),
            city: try body.patchText("city"),
            tags: tags,
            cuisine: try body.patchText("cuisine"),
            priceLevel: priceLevel,
            phone: try body.patchText("phone"),
            website: try body.patchText("website"),
            openingHours: hours,
            timeZone: try body.patchText("timeZone")
        )
    }

    /// `openingHours`: an object of day names, each a list of intervals or null (closed); nil when absent or null.
    public static func openingHours(_ body: FieldReader) throws(PlacesError) -> [String: [String]]? {
        guard let value = body.fields["openingHours"], value != .null else { return nil }
        guard case .object(let days) = value else {
            throw .invalid("openingHours", #"openingHours must be an object like {"mon": ["08:00-17:00"]}"#)
        }
        var hours: [String: [String]] = [:]
        for (day, intervals) in days {
            switch intervals {
            case .null: hours[day] = []
            case .list(let items):
                hours[day] = try items.map { item throws(PlacesError) in
                    guard case .text(let text) = item else { throw .invalid("openingHours", "intervals must be text like 08:00-17:00") }
                    return text
                }
            default: throw .invalid("openingHours", "intervals must be a list like [\"08:00-17:00\"]")
            }
        }
        return hours
    }
}

extension NewPlace: RequestCommand {
    /// What `POST /v1/places` accepts.
    public static let fields = PlacePatch.fields.union(["allowDuplicate"])

    /// The place a body adds (null is the same as absent).
    public init(body: FieldReader) throws(PlacesError) {
        self.init(fields: try PlacePatch(body: body), allowDuplicate: try body.bool("allowDuplicate") ?? false)
    }
}

extension RatePlace: RequestCommand {
    /// The fields a rating body may carry.
    public static let fields: Set<String> = ["stars", "review"]

    /// The rating a `PUT /v1/places/{id}/rating` body gives.
    public init(body: FieldReader) throws(PlacesError) {
        self.init(stars: try body.wholeNumber("stars"), review: try body.rawText("review"))
    }
}
