import Foundation
import PlacesCore

/// A JSON object from a request body (or a JSON value on the command line), read field by field into the typed values
/// of Core's commands, with the field named in every error.
///
/// Unknown names are refused (a typo such as `displayname` must not be silently ignored), and `null` is told apart
/// from an absent name (a patch clears one field and keeps the other). Texts come as sent: the rules of the domain
/// (limits, trimming, control characters) are Core's `TextRules`, applied by the services.
public struct FieldReader: Sendable {
    /// The object's fields, by name as sent.
    public let fields: [String: FieldValue]

    /// Reads `value` as an object whose names all belong to `allowed`.
    public init(_ value: FieldValue, allowed: Set<String>) throws(PlacesError) {
        guard case .object(let fields) = value else { throw .invalid("body", "the body must be a JSON object") }
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            let names = allowed.sorted().joined(separator: ", ")
            throw .invalid(unknown, "unknown field \(PlacesError.quoted(unknown)); expected one of: \(names)")
        }
        self.fields = fields
    }

    /// Parses a JSON document, or throws `invalid_input` saying where it breaks. A NUL (`\u0000`) in any text or name
    /// of it, however deep, is refused here, naming the field (`candidates.nearby.kind`; a list's entries by the list's
    /// name), so no command ever carries one.
    public static func parse(_ bytes: [UInt8]) throws(PlacesError) -> FieldValue {
        guard !bytes.isEmpty else { throw .invalid("body", "the body is empty; send a JSON object") }
        let value: FieldValue
        do {
            value = try JSONText.parse(bytes: bytes)
        } catch {
            throw .invalid("body", "the body is not valid JSON: \(error)")
        }
        try checkNoNUL(value, field: nil)
        return value
    }

    /// Refuses a NUL in any text or name of `value`, the field at `field` (nil for the body itself).
    private static func checkNoNUL(_ value: FieldValue, field: String?) throws(PlacesError) {
        switch value {
        case .text(let text):
            try TextRules.checkNoNUL(text, field: field ?? "body")
        case .list(let values):
            for value in values { try checkNoNUL(value, field: field) }
        case .object(let fields):
            // In name order, so the field named is the same whatever order the object's names came in.
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                let path = field.map { "\($0).\(name)" } ?? name
                try TextRules.checkNoNUL(name, field: path)
                try checkNoNUL(value, field: path)
            }
        default:
            return
        }
    }

    /// True when the object names `name`, even as null.
    public func has(_ name: String) -> Bool { fields[name] != nil }

    /// True when the object names `name` as null (clear it).
    public func isNull(_ name: String) -> Bool { fields[name] == .null }

    /// The text of `name` exactly as sent (a password: never trimmed or normalised); nil when absent or null.
    public func rawText(_ name: String) throws(PlacesError) -> String? {
        guard let value = fields[name], value != .null else { return nil }
        guard case .text(let text) = value else { throw .invalid(name, "\(name) must be text") }
        return text
    }

    /// The boolean `name`; nil when absent or null.
    public func bool(_ name: String) throws(PlacesError) -> Bool? {
        guard let value = fields[name], value != .null else { return nil }
        guard case .bool(let flag) = value else { throw .invalid(name, "\(name) must be true or false") }
        return flag
    }

    /// The finite number `name`; nil when absent or null.
    public func number(_ name: String) throws(PlacesError) -> Double? {
        guard let value = fields[name], value != .null else { return nil }
        guard case .number(let number) = value, number.isFinite else { throw .invalid(name, "\(name) must be a number") }
        return number
    }

    /// The nested object `name`, read with its own allowed names; nil when absent or null.
    public func object(_ name: String, allowed: Set<String>) throws(PlacesError) -> FieldReader? {
        guard let value = fields[name], value != .null else { return nil }
        guard case .object = value else { throw .invalid(name, "\(name) must be an object") }
        do {
            return try FieldReader(value, allowed: allowed)
        } catch {
            throw .invalid("\(name).\(error.field ?? "")", error.message)
        }
    }
}
