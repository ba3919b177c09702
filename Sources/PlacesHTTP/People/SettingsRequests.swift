import Foundation
import PlacesCore

extension SettingsPatch: RequestCommand {
    /// The top-level fields of a settings body.
    public static let fields: Set<String> = [
        "language", "units", "defaultLocation", "defaultRadiusMiles", "notifications", "accessibility", "dietaryNeeds", "maxPrice",
        "shareLocationForMeet",
    ]

    /// The change a `PATCH` (or `PUT`) `/v1/me/settings` body asks for; `null` puts a field back to its default.
    public init(body: FieldReader) throws(PlacesError) {
        var units = Patch<UserSettings.Units>.keep
        if case .set(let text) = try body.patchText("units") {
            guard let parsed = UserSettings.Units(rawValue: text.trimmingCharacters(in: .whitespaces)) else {
                throw .invalid("units", "units must be mi or km")
            }
            units = .set(parsed)
        } else if body.isNull("units") {
            units = .clear
        }
        var location = Patch<UserSettings.Location>.keep
        if body.has("defaultLocation") {
            if let object = try body.object("defaultLocation", allowed: ["lat", "lon"]) {
                guard let lat = try object.number("lat"), let lon = try object.number("lon") else {
                    throw .invalid("defaultLocation", "defaultLocation needs lat and lon")
                }
                location = .set(UserSettings.Location(lat: lat, lon: lon))
            } else {
                location = .clear
            }
        }
        var radius = Patch<Double>.keep
        if body.has("defaultRadiusMiles") { radius = try body.number("defaultRadiusMiles").map(Patch.set) ?? .clear }
        var needs = Patch<[DietaryNeed]>.keep
        if body.has("dietaryNeeds") {
            let names = try body.texts("dietaryNeeds", field: "dietaryNeeds", what: "needs (\(DietaryNeed.names))")
            needs = try names.map { names throws(PlacesError) in
                .set(
                    try names.map { name throws(PlacesError) in
                        guard let need = DietaryNeed(rawValue: name) else {
                            throw .invalid("dietaryNeeds", "\(PlacesError.quoted(name)) is not a dietary need; the needs are \(DietaryNeed.names)")
                        }
                        return need
                    }
                )
            } ?? .clear
        }
        var maxPrice = Patch<Int>.keep
        if body.has("maxPrice") { maxPrice = try body.wholeNumber("maxPrice").map(Patch.set) ?? .clear }
        var share = Patch<Bool>.keep
        if body.has("shareLocationForMeet") { share = try body.bool("shareLocationForMeet").map(Patch.set) ?? .clear }
        self.init(
            language: try body.patchText("language"),
            units: units,
            defaultLocation: location,
            defaultRadiusMiles: radius,
            notifications: try SettingsPatch.flags(body, "notifications", SettingsPatch.Flags<UserSettings.Notifications>.all),
            accessibility: try SettingsPatch.flags(body, "accessibility", SettingsPatch.Flags<UserSettings.Accessibility>.all),
            dietaryNeeds: needs,
            maxPrice: maxPrice,
            shareLocationForMeet: share
        )
    }

    /// A group of on/off preferences: kept when absent, all back to their defaults when null, else the flags given.
    private static func flags<Preferences>(
        _ body: FieldReader,
        _ name: String,
        _ all: [Flags<Preferences>.Flag]
    ) throws(PlacesError) -> Patch<Flags<Preferences>> {
        guard body.has(name) else { return .keep }
        guard let object = try body.object(name, allowed: Set(all.map(\.name))) else { return .clear }
        var changes: [Flags<Preferences>.Flag: Patch<Bool>] = [:]
        for flag in all where object.has(flag.name) {
            do {
                changes[flag] = try object.bool(flag.name).map(Patch.set) ?? .clear
            } catch {
                throw .invalid("\(name).\(flag.name)", error.message)
            }
        }
        return .set(Flags(changes))
    }
}
