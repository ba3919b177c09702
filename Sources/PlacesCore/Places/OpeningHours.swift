import Foundation

/// A weekly schedule of open intervals; an interval may run past midnight into the next day.
///
/// Written as JSON the way people read a shop door:
/// `{"mon": ["08:00-14:00", "17:00-22:00"], "fri": ["18:00-02:00"]}`. A missing day is closed;
/// an end at or before the start runs past midnight; `"00:00-24:00"` is open all day.
public struct OpeningHours: Sendable, Hashable, Codable {
    /// A day of the week, as the schedule names it.
    public enum Weekday: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
        case mon, tue, wed, thu, fri, sat, sun

        /// Monday is 0, Sunday 6.
        public var ordinal: Int {
            switch self {
            case .mon: 0
            case .tue: 1
            case .wed: 2
            case .thu: 3
            case .fri: 4
            case .sat: 5
            case .sun: 6
            }
        }

        public static func < (a: Weekday, b: Weekday) -> Bool { a.ordinal < b.ordinal }

        /// The days in the order of their names (`fri`, `mon`, `sat`, `sun`, `thu`, `tue`, `wed`): how JSON with sorted
        /// keys lists them.
        public static let namedOrder = allCases.sorted { $0.rawValue < $1.rawValue }
    }

    /// One open interval of a day, in minutes since that day's midnight.
    public struct Interval: Sendable, Hashable {
        /// Opening time, 0..<1440.
        public var opens: Int
        /// Closing time, 1...1440 (`00:00` is read as 1440, midnight); at or before `opens` means the next day.
        public var closes: Int

        /// True when the interval ends after midnight, on the next day.
        public var crossesMidnight: Bool { closes <= opens }

        /// Parses `HH:MM-HH:MM`.
        public static func parse(_ text: String) -> Interval? {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let opens = minutes(parts[0]), let closes = minutes(parts[1]) else { return nil }
            guard opens < 1440 else { return nil }
            // Closing at 00:00 means at midnight, the end of the opening day.
            return Interval(opens: opens, closes: closes == 0 ? 1440 : closes)
        }

        private static func minutes(_ text: Substring) -> Int? {
            let parts = String(text).trimmingWhitespace().split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
                let hours = Int(parts[0]), let minutes = Int(parts[1]),
                (0...24).contains(hours), (0..<60).contains(minutes), hours * 60 + minutes <= 1440
            else { return nil }
            return hours * 60 + minutes
        }

        /// The interval as written, `HH:MM-HH:MM`.
        public var text: String {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(11)
            write(into: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Appends the interval as written, `HH:MM-HH:MM`, to `bytes`.
        public func write(into bytes: inout [UInt8]) {
            func clock(_ minutes: Int) {
                let (hour, minute) = (minutes / 60, minutes % 60)
                bytes += [UInt8(48 + hour / 10), UInt8(48 + hour % 10), UInt8(ascii: ":"), UInt8(48 + minute / 10), UInt8(48 + minute % 10)]
            }
            clock(opens)
            bytes.append(UInt8(ascii: "-"))
            clock(closes)
        }
    }

    /// The open intervals of each day that has any.
    public var days: [Weekday: [Interval]]

    /// Makes a schedule from its days.
    public init(days: [Weekday: [Interval]]) { self.days = days }

    /// Parses the JSON shape above from already-decoded values, or throws `invalid_input` for `field`.
    public static func parse(_ value: [String: [String]], field: String = "openingHours") throws(PlacesError) -> OpeningHours {
        var days: [Weekday: [Interval]] = [:]
        for (key, texts) in value {
            guard let day = Weekday(rawValue: key.lowercased()) else {
                throw .invalid(field, "unknown day '\(key)': use mon, tue, wed, thu, fri, sat, sun")
            }
            guard texts.count <= 8 else { throw .invalid(field, "at most 8 intervals a day") }
            var intervals: [Interval] = []
            for text in texts {
                guard let interval = Interval.parse(text) else {
                    throw .invalid(field, "'\(text)' on \(key) is not an interval like 08:00-17:30")
                }
                intervals.append(interval)
            }
            if !intervals.isEmpty { days[day] = intervals.sorted { $0.opens < $1.opens } }
        }
        return OpeningHours(days: days)
    }

    /// The schedule as `day → ["HH:MM-HH:MM", …]`, the shape it is written in.
    public var textDays: [String: [String]] {
        var result: [String: [String]] = [:]
        for (day, intervals) in days { result[day.rawValue] = intervals.map(\.text) }
        return result
    }

    public init(from decoder: any Decoder) throws {
        let raw = try [String: [String]](from: decoder)
        do {
            self = try OpeningHours.parse(raw)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try textDays.encode(to: encoder)
    }
}

extension OpeningHours {
    /// A moment as a place's clock shows it: the weekday and the minutes since that day's midnight.
    public struct LocalTime: Sendable, Hashable {
        /// The local weekday.
        public var weekday: Weekday
        /// Minutes since local midnight, 0..<1440.
        public var minute: Int
    }

    /// True when some interval holds `time`: one of that day's (opening time included, closing time not), or one of
    /// the day before that runs past midnight.
    public func isOpen(at time: LocalTime) -> Bool {
        for interval in days[time.weekday] ?? [] {
            if interval.crossesMidnight {
                if time.minute >= interval.opens { return true }
            } else if time.minute >= interval.opens && time.minute < interval.closes {
                return true
            }
        }
        let previous = Weekday.allCases[(time.weekday.ordinal + 6) % 7]
        for interval in days[previous] ?? [] where interval.crossesMidnight {
            if time.minute < interval.closes { return true }
        }
        return false
    }
}

extension OpeningHours.LocalTime {
    /// The local time of `instant` in `zone`.
    public init(_ instant: Date, in zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: instant)
        // Calendar counts Sunday as 1.
        let days: [OpeningHours.Weekday] = [.sun, .mon, .tue, .wed, .thu, .fri, .sat]
        weekday = days[((parts.weekday ?? 1) - 1) % 7]
        minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }
}

extension Place {
    /// Whether the place is open at an instant on its own clock (`openAt` of a place's details): `unknown` without
    /// hours or a time zone this system knows.
    public func openStatus(at instant: Date) -> OpenStatus {
        guard let hours = openingHours, let zoneName = timeZone, let zone = TimeZone(identifier: zoneName) else { return .unknown }
        return hours.isOpen(at: OpeningHours.LocalTime(instant, in: zone)) ? .open : .closed
    }
}
