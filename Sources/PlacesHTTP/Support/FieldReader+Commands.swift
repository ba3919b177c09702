import Foundation
import PlacesCore

// Reading a request body's fields into the typed values of Core's commands: the edge checks types and names the
// field; the rules of the domain are the services'.

extension FieldReader {
    /// The list of texts `name`; nil when absent or null. `field` names it in errors, `what` says what it holds.
    public func texts(_ name: String, field: String, what: String) throws(PlacesError) -> [String]? {
        guard let value = fields[name], value != .null else { return nil }
        guard case .list(let values) = value else { throw .invalid(field, "\(name) must be a list of \(what)") }
        var texts: [String] = []
        for value in values {
            guard case .text(let text) = value else { throw .invalid(field, "\(name) must hold \(what)") }
            texts.append(text)
        }
        return texts
    }

    /// The whole number `name`; nil when absent or null (its range is the domain's to check).
    public func wholeNumber(_ name: String) throws(PlacesError) -> Int? {
        guard let number = try number(name) else { return nil }
        guard number == number.rounded(), abs(number) < 1e15 else { throw .invalid(name, "\(name) must be a whole number") }
        return Int(number)
    }

    /// The ISO-8601 instant `name`; nil when absent or null.
    public func instant(_ name: String) throws(PlacesError) -> Date? {
        guard let text = try rawText(name) else { return nil }
        guard let date = ISO8601Time.date(text.trimmingCharacters(in: .whitespaces)) else {
            throw .invalid(name, "\(name) must be an ISO-8601 time such as 2026-11-22T18:30:00Z")
        }
        return date
    }

    /// A field of a patch: kept when absent, cleared when null, else its text as sent.
    public func patchText(_ name: String) throws(PlacesError) -> Patch<String> {
        guard let value = fields[name] else { return .keep }
        if value == .null { return .clear }
        guard case .text(let text) = value else { throw .invalid(name, "\(name) must be text") }
        return .set(text)
    }
}
