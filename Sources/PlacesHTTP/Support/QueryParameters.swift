import Foundation
import Hummingbird
import PlacesCore

/// A request's query string, decoded the way browsers and `curl --data-urlencode` encode it: names and values
/// percent-decoded, `+` read as a space.
///
/// Each route declares the names it reads (`Names`); any other name is refused, naming it, as an unknown key of a
/// body is: a misspelt filter (`tags=` for `tag=`) must not answer unfiltered. A name given twice is refused, since
/// the answer would depend on which one the server happened to read, unless the route declares it repeatable
/// (`tag=a&tag=b`). A NUL (`%00`) in a name or a value is refused.
struct QueryParameters: Sendable {
    /// The names a route reads from its query string, in the order its errors list them.
    struct Names: Sendable, ExpressibleByArrayLiteral {
        /// Every name the route reads.
        let known: [String]
        /// The names that may be given more than once.
        let repeatable: Set<String>
        /// Whether the route reads no query string and ignores whatever one it is given, as a web page does.
        let ignoresAll: Bool

        /// The names `known`, of which `repeatable` may be given more than once.
        init(_ known: [String], repeatable: Set<String> = []) {
            self.known = known
            self.repeatable = repeatable
            ignoresAll = false
        }

        private init(ignoringAll: Void) {
            known = []
            repeatable = []
            ignoresAll = true
        }

        init(arrayLiteral known: String...) {
            self.init(known)
        }

        /// The query-string names of a page of a list.
        static let page: Names = ["limit", "cursor"]

        /// Any query string, ignored: the page's own files, whose links people share with `?utm_source=…` and the like
        /// added. The API's routes refuse names they do not read.
        static let ignored = Names(ignoringAll: ())
    }

    private var values: [String: String] = [:]
    private var lists: [String: [String]] = [:]

    /// No parameters.
    init() {}

    /// Parses a raw query string (without the `?`) of a route that reads `names`.
    init(_ query: String?, accepting names: Names) throws(PlacesError) {
        guard let query, !query.isEmpty, !names.ignoresAll else { return }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try QueryParameters.decode(parts[0], field: String(parts[0]))
            try TextRules.checkNoNUL(name, field: name)
            guard names.known.contains(name) else { throw QueryParameters.unknown(name, names: names) }
            let value = parts.count > 1 ? try QueryParameters.decode(parts[1], field: name) : ""
            try TextRules.checkNoNUL(value, field: name)
            if names.repeatable.contains(name) {
                lists[name, default: []].append(value)
                continue
            }
            guard values.updateValue(value, forKey: name) == nil else {
                throw .invalid(name, "\(PlacesError.quoted(name)) is given more than once")
            }
        }
    }

    /// The error for a name the route does not read.
    private static func unknown(_ name: String, names: Names) -> PlacesError {
        guard !names.known.isEmpty else {
            return .invalid(name, "unknown query parameter \(PlacesError.quoted(name)); this route reads no query parameters")
        }
        let expected = names.known.joined(separator: ", ")
        return .invalid(name, "unknown query parameter \(PlacesError.quoted(name)); expected one of: \(expected)")
    }

    /// The value of `name`, or nil when the query does not name it.
    subscript(_ name: String) -> String? { values[name] }

    /// Every value of a repeatable `name`, in order.
    func all(_ name: String) -> [String] { lists[name] ?? [] }

    /// `+` as a space and `%XX` as a byte; the bytes must be UTF-8. Most names and values have neither (`lat=37.7`),
    /// and are taken as they are.
    static func decode(_ text: Substring, field: String) throws(PlacesError) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            utf8.formIndex(after: &index)
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index != utf8.endIndex, let high = hexValue(utf8[index]) else { throw malformed(field) }
                utf8.formIndex(after: &index)
                guard index != utf8.endIndex, let low = hexValue(utf8[index]) else { throw malformed(field) }
                utf8.formIndex(after: &index)
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw malformed(field) }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func malformed(_ field: String) -> PlacesError {
        .invalid(field, "the query string holds a malformed percent-encoding")
    }
}

extension PageRequest {
    /// The page a query asks for with `limit` and `cursor`.
    init(_ parameters: QueryParameters) throws(PlacesError) {
        self = try PageRequest.parse(limit: parameters["limit"], cursor: parameters["cursor"])
    }
}
