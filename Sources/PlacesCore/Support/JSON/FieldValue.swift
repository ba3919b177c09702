/// One input value of a place field as a file or request spelled it, before validation.
///
/// CSV cells arrive as `.text`; JSON and GeoJSON keep their own types. `PlaceDraft` reads every
/// format through this one shape, so a rule (a range, an alias, a limit) is written once.
public enum FieldValue: Sendable, Hashable {
    /// A string (a CSV cell, a JSON string).
    case text(String)
    /// A JSON number.
    case number(Double)
    /// A JSON boolean.
    case bool(Bool)
    /// A JSON array.
    case list([FieldValue])
    /// A JSON object.
    case object([String: FieldValue])
    /// JSON null or an empty CSV cell.
    case null
}
