import Foundation

/// One page of a list: the items and, when more follow, the opaque cursor of the next page.
@PublicInit
public struct Page<Item: Sendable>: Sendable {
    /// This page's items.
    public var items: [Item]
    /// Pass as `cursor` to get the next page; absent on the last page.
    public var nextCursor: String?
}

extension Page: Encodable where Item: Encodable {}

/// Which page a list request asks for: `limit` (1–100, default 20) and an opaque `cursor` from a previous page.
///
/// Paging is by key: a cursor holds the sort key of the last item of the page before, as the list's repository wrote
/// it, and the next page starts after it in the list's order. It stays right when items are added or removed between
/// pages (no item is shown twice or skipped for that), and clients see only opaque text.
public struct PageRequest: Sendable, Hashable {
    /// Items when a request names no limit.
    public static let defaultLimit = 20
    /// The largest limit accepted.
    public static let maximumLimit = 100
    /// The longest cursor accepted (the sort keys of this server's lists are much shorter).
    public static let maximumCursorLength = 1_024

    /// At most this many items.
    public var limit: Int
    /// The sort key of the last item of the page before; nil for the first page.
    public var after: [String]?

    /// Makes a request for the first page, or for the page after the item with sort key `after`.
    public init(limit: Int = PageRequest.defaultLimit, after: [String]? = nil) {
        self.limit = limit
        self.after = after
    }

    /// Parses `limit` and `cursor` as a query string spells them.
    public static func parse(limit: String?, cursor: String?) throws(PlacesError) -> PageRequest {
        var request = PageRequest()
        if let limit {
            guard let value = Int(limit), (1...maximumLimit).contains(value) else {
                throw .invalid("limit", "limit must be a whole number from 1 to \(maximumLimit)")
            }
            request.limit = value
        }
        if let cursor {
            guard let key = PageRequest.key(cursor: cursor) else { throw PageRequest.foreignCursor }
            request.after = key
        }
        return request
    }

    /// How many items to fetch: one more than the page holds, to tell whether more follow.
    public var fetchLimit: Int { limit + 1 }

    /// The sort key of the page before, which must have `parts` parts (each list's order has its own);
    /// `invalid_input` for a cursor of another list.
    public func after(parts: Int) throws(PlacesError) -> [String]? {
        guard let after else { return nil }
        guard after.count == parts else { throw PageRequest.foreignCursor }
        return after
    }

    /// The page of `rows`, fetched with `fetchLimit` in the list's order, each with its sort key.
    public func page<Item>(_ rows: [(item: Item, key: [String])]) -> Page<Item> {
        let kept = rows.prefix(limit)
        let next = rows.count > limit ? kept.last.map { PageRequest.cursor(key: $0.key) } : nil
        return Page(items: kept.map(\.item), nextCursor: next)
    }

    /// The error for a cursor this server did not hand out for this list.
    public static var foreignCursor: PlacesError { .invalid("cursor", "cursor is not one this server handed out") }

    /// A sort key's opaque text: `k` and the base64url of its parts as a JSON list.
    static func cursor(key: [String]) -> String {
        let json = (try? JSONEncoder().encode(key)) ?? Data("[]".utf8)
        return "k" + json.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The sort key a cursor holds; nil when it is not one `cursor(key:)` makes.
    static func key(cursor: String) -> [String]? {
        guard cursor.utf8.count <= maximumCursorLength, cursor.first == "k" else { return nil }
        let body = cursor.dropFirst()
        guard body.utf8.allSatisfy({ $0.isBase64URL }) else { return nil }
        var base64 = body.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        // No sort key this server writes holds a NUL (no stored text does), and a crafted one must not reach a database.
        guard let data = Data(base64Encoded: base64), let key = try? JSONDecoder().decode([String].self, from: data),
            !key.isEmpty, !key.contains(where: { $0.utf8.contains(0) })
        else { return nil }
        return key
    }
}

extension UInt8 {
    /// True for the 64 characters of base64url.
    fileprivate var isBase64URL: Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || self == UInt8(ascii: "-") || self == UInt8(ascii: "_")
    }
}

/// Sort keys made of numbers: a double as the decimal text of its bits, so it comes back exactly as it went.
extension PageRequest {
    /// A double's exact text in a sort key.
    public static func keyPart(_ value: Double) -> String { String(value.bitPattern) }

    /// The double a sort key's part holds; `invalid_input` when it holds none.
    public static func double(_ part: String) throws(PlacesError) -> Double {
        guard let bits = UInt64(part) else { throw foreignCursor }
        return Double(bitPattern: bits)
    }
}
