/// What sort of place this is.
public enum PlaceKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A hidden gem: a viewpoint, a mural, a stairway, a tiny museum.
    case gem
    /// Somewhere to eat or drink, with cuisine, price level and opening hours.
    case restaurant

    /// Parses a kind as users write it (case-insensitive), or throws `invalid_input` naming `field`.
    public static func parse(_ text: String, field: String = "kind") throws(PlacesError) -> PlaceKind {
        let trimmed = text.trimmingWhitespace().lowercased()
        guard let kind = PlaceKind(rawValue: trimmed) else {
            throw .invalid(field, "unknown kind '\(text)': expected gem or restaurant")
        }
        return kind
    }
}
