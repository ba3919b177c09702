/// The documented limits of a place's fields (Seeds/README.md, "Place fields").
public enum PlaceLimits {
    /// Longest id, in characters.
    public static let idLength = 100
    /// Longest name, in characters.
    public static let nameLength = 200
    /// Longest description, in characters.
    public static let descriptionLength = 5_000
    /// Longest address, in characters.
    public static let addressLength = 300
    /// Longest city, in characters.
    public static let cityLength = 100
    /// Most tags on one place.
    public static let tagCount = 20
    /// Longest tag, in characters.
    public static let tagLength = 40
    /// Longest cuisine, in characters.
    public static let cuisineLength = 60
    /// Longest phone number, in characters.
    public static let phoneLength = 40
    /// Longest website URL, in characters.
    public static let websiteLength = 2_000
}
