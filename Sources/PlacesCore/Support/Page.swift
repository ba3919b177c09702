/// One page of a list: the items and, when more follow, the opaque cursor of the next page.
public struct Page<Item: Sendable>: Sendable {
    /// This page's items.
    public var items: [Item]
    /// Pass as `cursor` to get the next page; absent on the last page.
    public var nextCursor: String?

    /// Makes a page.
    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

extension Page: Encodable where Item: Encodable {}

/// Which page a list request asks for: `limit` (1–100, default 20) and an opaque `cursor` from a previous page.
public struct PageRequest: Sendable, Hashable {
    /// Items when a request names no limit.
    public static let defaultLimit = 20
    /// The largest limit accepted.
    public static let maximumLimit = 100

    /// At most this many items.
    public var limit: Int
    /// How many items earlier pages held.
    public var offset: Int

    /// Makes a request for the page at `offset`.
    public init(limit: Int = PageRequest.defaultLimit, offset: Int = 0) {
        self.limit = limit
        self.offset = offset
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
            guard cursor.hasPrefix("o"), let offset = Int(cursor.dropFirst()), offset > 0, offset < 1_000_000_000 else {
                throw .invalid("cursor", "cursor is not one this server handed out")
            }
            request.offset = offset
        }
        return request
    }

    /// This request with room for one item more than the page holds: fetch with it, then hand the items to `page`.
    public var lookingAhead: PageRequest {
        PageRequest(limit: limit + 1, offset: offset)
    }

    /// The page of `items`, which were fetched with one extra item to tell whether more follow.
    public func page<Item>(_ items: [Item]) -> Page<Item> {
        let more = items.count > limit
        return Page(items: Array(items.prefix(limit)), nextCursor: more ? "o\(offset + limit)" : nil)
    }
}
