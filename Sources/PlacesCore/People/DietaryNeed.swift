/// What a person can eat, from a fixed list. A place serves a need when it carries the need's name as a tag
/// (`vegan`, `gluten-free`).
public enum DietaryNeed: String, Sendable, Hashable, Codable, CaseIterable {
    case vegetarian
    case vegan
    case halal
    case kosher
    case glutenFree = "gluten-free"
    case dairyFree = "dairy-free"
    case nutFree = "nut-free"

    /// The names, as the API spells them, for an error message.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
