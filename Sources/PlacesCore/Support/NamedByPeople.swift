/// A group or a collection: something people name and describe, under the same rules for both. The name is 1–80
/// characters others read and cannot be cleared; the description is up to 500 characters, line breaks allowed.
protocol NamedByPeople {
    /// The name.
    var name: String { get set }
    /// The description, if any.
    var description: String? { get set }
}

extension NamedByPeople {
    /// A name as sent, checked; `missing` is the message when it is absent or blank.
    static func checkedName(_ raw: String?, missing: String) throws(PlacesError) -> String {
        guard let name = try TextRules.shownName(raw, field: "name", limit: 80) else { throw .invalid("name", missing) }
        return name
    }

    /// A description as sent, checked; nil when absent or blank.
    static func checkedDescription(_ raw: String?) throws(PlacesError) -> String? {
        try TextRules.text(raw, field: "description", limit: 500, allowLineBreaks: true)
    }

    /// Applies a patch's name and description: each kept, or set (a description may also be cleared).
    mutating func apply(name: Patch<String>, description: Patch<String>) throws(PlacesError) {
        if name.changes { self.name = try Self.checkedName(name.applied(to: nil), missing: "name cannot be empty") }
        if description.changes { self.description = try Self.checkedDescription(description.applied(to: nil)) }
    }
}

extension Group: NamedByPeople {}

extension PlaceCollection: NamedByPeople {}
