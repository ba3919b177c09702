/// OpenStreetMap's `opening_hours` (https://wiki.openstreetmap.org/wiki/Key:opening_hours), the common subset that a
/// weekly schedule can hold exactly.
///
/// The subset:
/// - `24/7` is every day from 00:00 to 24:00. It stands alone as a rule, without weekdays.
/// - A value is rules separated by `;`. A later rule replaces the hours of the days it selects: in
///   `Mo-Su 08:00-20:00; Su off` Sunday is closed.
/// - A `,` followed by a weekday starts an additional rule, which adds its hours to the days it selects:
///   `Mo-Fr 10:00-20:00, We 21:00-23:00` gives Wednesday both spans. A `,` followed by a time separates the spans of
///   one rule, and a `,` inside a weekday selector separates its weekdays.
/// - A rule begins with an optional weekday selector: the two-letter names `Mo Tu We Th Fr Sa Su` in any letter case,
///   ranges such as `Mo-Fr`, ranges that wrap past Sunday such as `Sa-Mo`, and lists of both such as `Mo-We,Fr`.
///   A rule without one applies to every day.
/// - Then come time spans `HH:MM-HH:MM` (or `H:MM`), separated by `,`. A span belongs to the day it starts on. An end
///   at or before the start, or past 24:00 (up to 48:00, less than 24 hours after the start), is on the next day;
///   `24:00` and `00:00` as an end are midnight. A span of zero length is refused.
/// - A rule may end in the state `off` or `closed`, in any letter case, then without spans: the selected days are
///   closed, after either separator. The state `open` is accepted after spans, where it changes nothing.
/// - Spaces may surround `-`, `,` and `;`, and one `;` may end the value.
///
/// Anything else returns nil, so that a place is kept without hours rather than with wrong ones: holidays (`PH`,
/// `SH`), years, months, dates, weeks, `easter`, times of the sun (`sunrise`, `dusk`), comments, `||` fallback rules,
/// open ends (`18:00+`), nth weekdays (`Su[1]`), repeated times (`10:00-16:00/01:30`), the state `unknown`, weekdays
/// without times or state, a time without an end, an empty value, and more than 8 intervals on one day.
public enum OSMOpeningHours {
    /// The weekly schedule the value describes, or nil when it uses anything outside the subset (never a guess).
    public static func parse(_ text: String) -> OpeningHours? {
        if let result = text.utf8.withContiguousStorageIfAvailable({ parse(bytes: $0) }) { return result }
        return Array(text.utf8).withUnsafeBufferPointer { parse(bytes: $0) }
    }

    /// The most intervals one day may hold, as `OpeningHours.parse` allows.
    private static let maximumIntervalsADay = 8

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> OpeningHours? {
        // Eight slots for each day, then eight for the rule being read: no allocation until the result.
        withUnsafeTemporaryAllocation(of: OpeningHours.Interval.self, capacity: 8 * maximumIntervalsADay) { slots in
            parse(bytes: bytes, week: Week(slots: slots))
        }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>, week: Week) -> OpeningHours? {
        var week = week
        var scanner = Scanner(bytes: bytes)
        let spans = UnsafeMutableBufferPointer(rebasing: week.slots[(7 * maximumIntervalsADay)...])

        scanner.skipSpaces()
        guard !scanner.atEnd else { return nil }
        if scanner.take24Slash7() {
            scanner.skipSpaces()
            guard scanner.atEnd || scanner.peek == UInt8(ascii: ";") else { return nil }
            spans[0] = OpeningHours.Interval(opens: 0, closes: 1440)
            for day in 0..<7 { week.set(day, to: spans, count: 1) }
            if !scanner.atEnd {
                guard scanner.endRule() == .normal else { return nil }
            }
            if scanner.atEnd { return week.schedule() }
        }

        var additional = false
        while true {
            guard let rule = scanner.rule(into: spans) else { return nil }
            var mask = rule.days
            var day = 0
            while mask != 0 {
                if mask & 1 != 0 {
                    if rule.closed {
                        week.set(day, to: spans, count: 0)
                    } else if additional {
                        guard week.add(day, spans, count: rule.spans) else { return nil }
                    } else {
                        week.set(day, to: spans, count: rule.spans)
                    }
                }
                mask >>= 1
                day += 1
            }
            switch scanner.endRule() {
            case .end: return week.schedule()
            case .normal: additional = false
            case .additional: additional = true
            case nil: return nil
            }
        }
    }

    /// The intervals of each day being read, in fixed slots: day `d` (Monday 0) holds `slots[8d ..< 8d + count(d)]`.
    private struct Week {
        let slots: UnsafeMutableBufferPointer<OpeningHours.Interval>
        /// Four bits a day, Monday lowest.
        var counts: UInt32 = 0

        func count(_ day: Int) -> Int { Int((counts >> UInt32(4 * day)) & 0xF) }

        private mutating func setCount(_ day: Int, _ count: Int) {
            counts = counts & ~(0xF << UInt32(4 * day)) | UInt32(count) << UInt32(4 * day)
        }

        /// Replaces the day's intervals with the first `count` of `spans`.
        mutating func set(_ day: Int, to spans: UnsafeMutableBufferPointer<OpeningHours.Interval>, count: Int) {
            for offset in 0..<count { slots[day * OSMOpeningHours.maximumIntervalsADay + offset] = spans[offset] }
            setCount(day, count)
        }

        /// Adds the first `count` of `spans` to the day's intervals; false when the day would hold too many.
        mutating func add(_ day: Int, _ spans: UnsafeMutableBufferPointer<OpeningHours.Interval>, count: Int) -> Bool {
            let held = self.count(day)
            guard held + count <= OSMOpeningHours.maximumIntervalsADay else { return false }
            for offset in 0..<count { slots[day * OSMOpeningHours.maximumIntervalsADay + held + offset] = spans[offset] }
            setCount(day, held + count)
            return true
        }

        /// The schedule, each day's intervals sorted by opening time; days with the same intervals share one array.
        func schedule() -> OpeningHours {
            var days: [OpeningHours.Weekday: [OpeningHours.Interval]] = [:]
            var previous: (day: Int, intervals: [OpeningHours.Interval])?
            for day in 0..<7 {
                let count = count(day)
                guard count > 0 else { continue }
                let intervals = UnsafeMutableBufferPointer(rebasing: slots[(day * OSMOpeningHours.maximumIntervalsADay)...].prefix(count))
                if let previous, self.count(previous.day) == count,
                    intervals.elementsEqual(slots[(previous.day * OSMOpeningHours.maximumIntervalsADay)...].prefix(count))
                {
                    days[OpeningHours.Weekday.allCases[day]] = previous.intervals
                    continue
                }
                var array = Array(intervals)
                if count > 1 { array.sort { $0.opens < $1.opens } }
                days[OpeningHours.Weekday.allCases[day]] = array
                previous = (day, array)
            }
            return OpeningHours(days: days)
        }
    }

    /// What one rule says: the days it selects (bit 0 is Monday), whether it closes them, and how many spans it wrote
    /// to the buffer the caller keeps.
    private struct Rule {
        var days: UInt8
        var closed: Bool
        var spans: Int
    }

    /// How a rule ends.
    private enum RuleEnd {
        /// The value ends.
        case end
        /// A `;` follows: the next rule replaces the hours of its days.
        case normal
        /// A `,` and a weekday follow: the next rule adds to the hours of its days.
        case additional
    }

    /// A cursor over the value's UTF-8 bytes.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { index >= bytes.count }

        /// The next byte, or 0 at the end.
        var peek: UInt8 { index < bytes.count ? bytes[index] : 0 }

        mutating func skipSpaces() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        }

        /// Reads `24/7` when it is next.
        mutating func take24Slash7() -> Bool {
            guard bytes.count - index >= 4, bytes[index] == UInt8(ascii: "2"), bytes[index + 1] == UInt8(ascii: "4"),
                bytes[index + 2] == UInt8(ascii: "/"), bytes[index + 3] == UInt8(ascii: "7")
            else { return false }
            index += 4
            return true
        }

        private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        /// The weekday (Monday 0) whose two-letter name starts at `at`, not followed by another letter.
        private func weekday(at: Int) -> Int? {
            guard bytes.count - at >= 2 else { return nil }
            if bytes.count - at > 2, Scanner.isLetter(bytes[at + 2]) { return nil }
            switch (bytes[at] | 0x20, bytes[at + 1] | 0x20) {
            case (UInt8(ascii: "m"), UInt8(ascii: "o")): return 0
            case (UInt8(ascii: "t"), UInt8(ascii: "u")): return 1
            case (UInt8(ascii: "w"), UInt8(ascii: "e")): return 2
            case (UInt8(ascii: "t"), UInt8(ascii: "h")): return 3
            case (UInt8(ascii: "f"), UInt8(ascii: "r")): return 4
            case (UInt8(ascii: "s"), UInt8(ascii: "a")): return 5
            case (UInt8(ascii: "s"), UInt8(ascii: "u")): return 6
            default: return nil
            }
        }

        /// The offset of the first byte from `at` that is not a space.
        private func pastSpaces(from at: Int) -> Int {
            var at = at
            while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x09 { at += 1 }
            return at
        }

        /// True when the cursor is on a `,` that spaces and then a weekday name follow.
        private var isCommaBeforeWeekday: Bool {
            peek == UInt8(ascii: ",") && weekday(at: pastSpaces(from: index + 1)) != nil
        }

        /// True when the cursor is on a `,` that spaces and then a digit follow.
        private var isCommaBeforeDigit: Bool {
            guard peek == UInt8(ascii: ",") else { return false }
            let at = pastSpaces(from: index + 1)
            return at < bytes.count && Scanner.isDigit(bytes[at])
        }

        private mutating func takeWeekday() -> Int? {
            guard let day = weekday(at: index) else { return nil }
            index += 2
            return day
        }

        /// A weekday selector such as `Mo-We,Fr`, as a mask with bit 0 for Monday; the cursor is on a weekday.
        private mutating func weekdays() -> UInt8? {
            var mask: UInt8 = 0
            while true {
                guard let first = takeWeekday() else { return nil }
                skipSpaces()
                var last = first
                if peek == UInt8(ascii: "-") {
                    index += 1
                    skipSpaces()
                    guard let end = takeWeekday() else { return nil }
                    last = end
                    skipSpaces()
                }
                var day = first
                while true {
                    mask |= 1 << UInt8(day)
                    if day == last { break }
                    day = (day + 1) % 7
                }
                guard isCommaBeforeWeekday else { return mask }
                index += 1
                skipSpaces()
            }
        }

        /// Minutes since midnight of `H:MM` or `HH:MM`, hours up to 48.
        private mutating func clock() -> Int? {
            var hours = 0
            var digits = 0
            while index < bytes.count, Scanner.isDigit(bytes[index]), digits < 2 {
                hours = hours * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
                digits += 1
                index += 1
            }
            guard digits > 0, peek == UInt8(ascii: ":"), bytes.count - index >= 3,
                Scanner.isDigit(bytes[index + 1]), Scanner.isDigit(bytes[index + 2])
            else { return nil }
            let minutes = Int(bytes[index + 1] &- UInt8(ascii: "0")) * 10 + Int(bytes[index + 2] &- UInt8(ascii: "0"))
            index += 3
            guard minutes < 60, hours * 60 + minutes <= 2880 else { return nil }
            // A third digit would make a different number.
            if index < bytes.count, Scanner.isDigit(bytes[index]) { return nil }
            return hours * 60 + minutes
        }

        /// One span `HH:MM-HH:MM` as an interval of the day it starts on.
        private mutating func span() -> OpeningHours.Interval? {
            guard let start = clock(), start < 1440 else { return nil }
            skipSpaces()
            guard peek == UInt8(ascii: "-") else { return nil }
            index += 1
            skipSpaces()
            guard let end = clock(), end != start else { return nil }
            if end > 1440 {
                // An extended time: the next day's clock, less than a full day after the start.
                guard end - start < 1440 else { return nil }
                return OpeningHours.Interval(opens: start, closes: end - 1440)
            }
            return OpeningHours.Interval(opens: start, closes: end == 0 ? 1440 : end)
        }

        /// The state named by the word at the cursor, in any letter case, read when it is one; nil otherwise.
        private mutating func state() -> State? {
            var end = index
            while end < bytes.count, Scanner.isLetter(bytes[end]) { end += 1 }
            let length = end - index
            func matches(_ word: StaticString) -> Bool {
                guard word.utf8CodeUnitCount == length else { return false }
                let letters = word.utf8Start
                for offset in 0..<length where bytes[index + offset] | 0x20 != letters[offset] { return false }
                return true
            }
            let state: State
            if matches("off") || matches("closed") {
                state = .closed
            } else if matches("open") {
                state = .open
            } else {
                return nil
            }
            index = end
            return state
        }

        private enum State { case open, closed }

        /// The rule at the cursor; its spans are written to the start of `spans`, which holds 8.
        mutating func rule(into spans: UnsafeMutableBufferPointer<OpeningHours.Interval>) -> Rule? {
            var count = 0
            skipSpaces()
            var days: UInt8 = 0x7F
            if weekday(at: index) != nil {
                guard let selected = weekdays() else { return nil }
                days = selected
                skipSpaces()
            }
            if index < bytes.count, Scanner.isDigit(bytes[index]) {
                while true {
                    guard count < spans.count, let interval = span() else { return nil }
                    spans[count] = interval
                    count += 1
                    skipSpaces()
                    guard isCommaBeforeDigit else { break }
                    index += 1
                    skipSpaces()
                }
            }
            let state = state()
            skipSpaces()
            switch state {
            case .closed:
                guard count == 0 else { return nil }
                return Rule(days: days, closed: true, spans: 0)
            case .open, nil:
                // Weekdays alone would mean open all day, which is more often an unfinished value than the truth.
                guard count > 0 else { return nil }
                return Rule(days: days, closed: false, spans: count)
            }
        }

        /// Reads what ends a rule: the end of the value, `;` (and the value's end after it), or `,` before a weekday.
        mutating func endRule() -> RuleEnd? {
            skipSpaces()
            if atEnd { return .end }
            switch peek {
            case UInt8(ascii: ";"):
                index += 1
                skipSpaces()
                return atEnd ? .end : .normal
            case UInt8(ascii: ","):
                index += 1
                skipSpaces()
                return weekday(at: index) != nil ? .additional : nil
            default:
                return nil
            }
        }
    }
}
