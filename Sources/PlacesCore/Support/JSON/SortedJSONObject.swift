/// JSON objects as `PlacesJSON`'s encoder writes them (compact, keys sorted by their bytes, no escapes in keys),
/// merged as encoding both values' members together would have written them: members in the byte order of their
/// keys, an `overlay` member in place of a `base` member of the same key, and two objects under one key merged the
/// same way. A part that many readers share is encoded once this way, and what is each reader's own is spliced in.
enum SortedJSONObject {
    /// A member of an object: where its key's text (without quotes) and its value stand.
    struct Member {
        var key: Range<Int>
        var value: Range<Int>
    }

    /// `base` with `overlay`'s members merged in.
    static func merge(_ base: ArraySlice<UInt8>, _ overlay: ArraySlice<UInt8>) throws -> [UInt8] {
        var merged: [UInt8] = []
        merged.reserveCapacity(base.count + overlay.count)
        try merge(base, overlay, into: &merged)
        return merged
    }

    private static func merge(_ base: ArraySlice<UInt8>, _ overlay: ArraySlice<UInt8>, into merged: inout [UInt8]) throws {
        let baseMembers = try members(base)
        let overlayMembers = try members(overlay)
        var b = 0
        var o = 0
        var first = true
        func write(_ bytes: ArraySlice<UInt8>, _ member: Member) {
            merged.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            merged.append(UInt8(ascii: "\""))
            merged.append(contentsOf: bytes[member.key])
            merged.append(contentsOf: #"":"#.utf8)
        }
        while b < baseMembers.count || o < overlayMembers.count {
            let fromBase = b < baseMembers.count ? baseMembers[b] : nil
            let fromOverlay = o < overlayMembers.count ? overlayMembers[o] : nil
            if let fromBase, let fromOverlay, base[fromBase.key].elementsEqual(overlay[fromOverlay.key]) {
                write(overlay, fromOverlay)
                let baseValue = base[fromBase.value]
                let overlayValue = overlay[fromOverlay.value]
                if baseValue.first == UInt8(ascii: "{"), overlayValue.first == UInt8(ascii: "{") {
                    try merge(baseValue, overlayValue, into: &merged)
                } else {
                    merged.append(contentsOf: overlayValue)
                }
                b += 1
                o += 1
            } else if let fromBase, fromOverlay.map({ base[fromBase.key].lexicographicallyPrecedes(overlay[$0.key]) }) ?? true {
                write(base, fromBase)
                merged.append(contentsOf: base[fromBase.value])
                b += 1
            } else if let fromOverlay {
                write(overlay, fromOverlay)
                merged.append(contentsOf: overlay[fromOverlay.value])
                o += 1
            }
        }
        if first { merged.append(UInt8(ascii: "{")) }
        merged.append(UInt8(ascii: "}"))
    }

    /// The members of `object`, in their order.
    static func members(_ object: ArraySlice<UInt8>) throws -> [Member] {
        var index = object.startIndex
        func expect(_ byte: UInt8) throws {
            guard index < object.endIndex, object[index] == byte else {
                throw PlacesError(.internalError, "encoded JSON is not a compact object: '\(Character(Unicode.Scalar(byte)))' expected at byte \(index - object.startIndex)")
            }
            index += 1
        }
        /// Moves past the string whose opening quote is at `index`.
        func skipString() throws {
            try expect(UInt8(ascii: "\""))
            while index < object.endIndex, object[index] != UInt8(ascii: "\"") {
                index += object[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            try expect(UInt8(ascii: "\""))
        }
        try expect(UInt8(ascii: "{"))
        var found: [Member] = []
        if index < object.endIndex, object[index] == UInt8(ascii: "}") { return found }
        while true {
            let keyStart = index + 1
            try skipString()
            let key = keyStart..<(index - 1)
            try expect(UInt8(ascii: ":"))
            let valueStart = index
            var depth = 0
            scan: while index < object.endIndex {
                switch object[index] {
                case UInt8(ascii: "\""): try skipString(); continue scan
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { break scan }
                    depth -= 1
                case UInt8(ascii: ","): if depth == 0 { break scan }
                default: break
                }
                index += 1
            }
            found.append(Member(key: key, value: valueStart..<index))
            if index < object.endIndex, object[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"))
            return found
        }
    }
}
