import Foundation

// How both storage engines write values as text, so a database copied from one engine to the other reads the same
// (and a page's cursor, made of stored text, means the same on both).

/// Place fields stored as JSON text: tags (an array of strings) and opening hours (an object of day → ranges).
public enum StoredText {
    /// Tags as a JSON array of strings; written by hand because a million seed rows make JSONEncoder's cost show.
    public static func encodeTags(_ tags: [String]) -> String {
        var json = "["
        for (index, tag) in tags.enumerated() {
            if index > 0 { json += "," }
            json += "\""
            // Most tags are plain ASCII words: no escaping, so append them whole.
            if tag.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x80 && $0 != 0x22 && $0 != 0x5C }) {
                json += tag
                json += "\""
                continue
            }
            for scalar in tag.unicodeScalars {
                switch scalar {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                case "\n": json += "\\n"
                case "\r": json += "\\r"
                case "\t": json += "\\t"
                case _ where scalar.value < 0x20:
                    json += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                default: json.unicodeScalars.append(scalar)
                }
            }
            json += "\""
        }
        return json + "]"
    }

    /// Tags from their JSON array; read with the seed files' own parser, which is much faster than JSONDecoder
    /// when a million summaries load at start-up.
    public static func decodeTags(_ json: String?) -> [String] {
        guard let json, json != "[]", case .list(let items)? = try? JSONText.parse(json) else { return [] }
        return items.compactMap { item in
            if case .text(let tag) = item { return tag }
            return nil
        }
    }

    /// Opening hours from their JSON object; nil when absent or unreadable.
    public static func decodeHours(_ json: String?) -> OpeningHours? {
        guard let json, case .object(let days)? = try? JSONText.parse(json) else { return nil }
        var texts: [String: [String]] = [:]
        for (day, value) in days {
            guard case .list(let items) = value else { return nil }
            texts[day] = items.compactMap { item in
                if case .text(let text) = item { return text }
                return nil
            }
        }
        return try? OpeningHours.parse(texts)
    }

    /// The schedule as stored: `{"fri":["18:00-02:00"],"mon":["08:00-14:00","17:00-22:00"]}`, days in the order of
    /// their names, as `JSONEncoder` with sorted keys writes it. Written by hand: a seed stores a million of them, and
    /// the encoder took most of its writer's time.
    public static func encodeHours(_ hours: OpeningHours) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(16 + hours.days.count * 24)
        for day in OpeningHours.Weekday.namedOrder {
            guard let intervals = hours.days[day] else { continue }
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            bytes += day.rawValue.utf8
            bytes += [UInt8(ascii: "\""), UInt8(ascii: ":"), UInt8(ascii: "[")]
            for (index, interval) in intervals.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(UInt8(ascii: "\""))
                interval.write(into: &bytes)
                bytes.append(UInt8(ascii: "\""))
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Decoded column values shared by the places that store the same text.
///
/// A million summaries held in memory mostly repeat a few tag lists, cuisines, time zones and opening hours;
/// decoding each distinct text once and reusing the value keeps one copy of its storage instead of a million
/// (a two-tag list alone costs about 80 bytes a place) and skips the repeated parsing. Only the first
/// `capacity` distinct texts of each column are remembered, so places that are all different cost no more.
public struct SharedValues {
    public static let capacity = 4_096
    private var tagLists: [String: [String]] = [:]
    private var openingHours: [String: OpeningHours] = [:]
    private var texts: [String: String] = [:]

    public init() {}

    /// The tags a JSON array holds.
    public mutating func tags(_ json: String?) -> [String] {
        guard let json else { return [] }
        if let tags = tagLists[json] { return tags }
        let tags = StoredText.decodeTags(json)
        if tagLists.count < Self.capacity { tagLists[json] = tags }
        return tags
    }

    /// The opening hours a JSON object holds, nil when absent or unreadable.
    public mutating func hours(_ json: String?) -> OpeningHours? {
        guard let json else { return nil }
        if let hours = openingHours[json] { return hours }
        let hours = StoredText.decodeHours(json)
        if let hours, openingHours.count < Self.capacity { openingHours[json] = hours }
        return hours
    }

    /// The text itself, sharing storage with an equal text seen before.
    public mutating func text(_ text: String?) -> String? {
        guard let text else { return nil }
        if let shared = texts[text] { return shared }
        if texts.count < Self.capacity { texts[text] = text }
        return text
    }
}

/// Times as stored: ISO-8601 UTC text with milliseconds, which sorts as it reads.
public enum Timestamp {
    public static func text(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    public static func date(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}

