import Foundation
import PlacesCore

/// A request's query string, decoded the way browsers and `curl --data-urlencode` encode it: names and values
/// percent-decoded, `+` read as a space. A name given twice is refused, since the answer would depend on which
/// one the server happened to read, unless the route declares it repeatable (`tag=a&tag=b`).
struct QueryParameters {
    private var values: [String: String] = [:]
    private var lists: [String: [String]] = [:]

    /// Parses a raw query string (without the `?`); names in `repeatable` may be given more than once.
    init(_ query: String?, repeatable: Set<String> = []) throws(PlacesError) {
        guard let query, !query.isEmpty else { return }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try QueryParameters.decode(parts[0], field: String(parts[0]))
            let value = parts.count > 1 ? try QueryParameters.decode(parts[1], field: name) : ""
            if repeatable.contains(name) {
                lists[name, default: []].append(value)
                continue
            }
            guard values.updateValue(value, forKey: name) == nil else {
                throw .invalid(name, "\(PlacesError.quoted(name)) is given more than once")
            }
        }
    }

    /// The value of `name`, or nil when the query does not name it.
    subscript(_ name: String) -> String? { values[name] }

    /// Every value of a repeatable `name`, in order.
    func all(_ name: String) -> [String] { lists[name] ?? [] }

    private static func decode(_ text: Substring, field: String) throws(PlacesError) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        guard let decoded = spaced.removingPercentEncoding else {
            throw .invalid(field, "the query string holds a malformed percent-encoding")
        }
        return decoded
    }
}
