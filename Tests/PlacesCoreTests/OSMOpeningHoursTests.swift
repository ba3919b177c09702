import Testing

@testable import PlacesCore

struct OSMOpeningHoursTests {
    static let weekdays = ["mon", "tue", "wed", "thu", "fri"]
    static let everyDay = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// `intervals` on each of `days`.
    static func on(_ days: [String], _ intervals: [String]) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: days.map { ($0, intervals) })
    }

    /// Values in the subset, with the schedule each describes.
    static let supported: [(String, [String: [String]])] = [
        // Always open.
        ("24/7", on(everyDay, ["00:00-24:00"])),
        ("  24/7  ", on(everyDay, ["00:00-24:00"])),
        ("24/7; Su off", on(["mon", "tue", "wed", "thu", "fri", "sat"], ["00:00-24:00"])),
        ("Mo-Su 00:00-24:00", on(everyDay, ["00:00-24:00"])),
        // Weekday selectors.
        ("Mo 08:00-12:00", ["mon": ["08:00-12:00"]]),
        ("Mo-Fr 08:00-12:00", on(weekdays, ["08:00-12:00"])),
        ("mo-fr 08:00-12:00", on(weekdays, ["08:00-12:00"])),
        ("MO-FR 08:00-12:00", on(weekdays, ["08:00-12:00"])),
        ("Sa-Mo 10:00-14:00", on(["sat", "sun", "mon"], ["10:00-14:00"])),
        ("Fr-Tu 10:00-14:00", on(["fri", "sat", "sun", "mon", "tue"], ["10:00-14:00"])),
        ("Mo,We,Fr 10:00-12:00", on(["mon", "wed", "fri"], ["10:00-12:00"])),
        ("Mo-We,Fr 10:00-12:00", on(["mon", "tue", "wed", "fri"], ["10:00-12:00"])),
        ("Mo, We , Fr 10:00-12:00", on(["mon", "wed", "fri"], ["10:00-12:00"])),
        ("Mo - Fr 10:00-12:00", on(weekdays, ["10:00-12:00"])),
        ("Mo-Fr10:00-12:00", on(weekdays, ["10:00-12:00"])),
        ("10:00-18:00", on(everyDay, ["10:00-18:00"])),
        // Time spans.
        ("Mo-Fr 08:00-12:00,13:00-18:00", on(weekdays, ["08:00-12:00", "13:00-18:00"])),
        ("Mo-Fr 13:00-18:00,08:00-12:00", on(weekdays, ["08:00-12:00", "13:00-18:00"])),
        ("Mo-Fr 08:00 - 12:00 , 13:00 - 18:00", on(weekdays, ["08:00-12:00", "13:00-18:00"])),
        ("Mo 9:00-17:30", ["mon": ["09:00-17:30"]]),
        ("Fr 18:00-02:00", ["fri": ["18:00-02:00"]]),
        ("Fr 22:00-26:00", ["fri": ["22:00-02:00"]]),
        ("Fr 10:00-33:59", ["fri": ["10:00-09:59"]]),
        ("Sa 20:00-24:00", ["sat": ["20:00-24:00"]]),
        ("Sa 20:00-00:00", ["sat": ["20:00-24:00"]]),
        ("Sa 20:00-24:30", ["sat": ["20:00-00:30"]]),
        ("Su 00:00-24:00", ["sun": ["00:00-24:00"]]),
        (
            "Mo 08:00-09:00,10:00-11:00,12:00-13:00,14:00-15:00,16:00-17:00,18:00-19:00,20:00-21:00,22:00-23:00",
            ["mon": ["08:00-09:00", "10:00-11:00", "12:00-13:00", "14:00-15:00", "16:00-17:00", "18:00-19:00", "20:00-21:00", "22:00-23:00"]]
        ),
        // Rules that replace the hours of the days they select.
        ("Mo-Su 08:00-20:00; Su off", on(["mon", "tue", "wed", "thu", "fri", "sat"], ["08:00-20:00"])),
        ("Mo-Su 08:00-20:00; Su closed", on(["mon", "tue", "wed", "thu", "fri", "sat"], ["08:00-20:00"])),
        ("Mo-Su 08:00-20:00;Su OFF", on(["mon", "tue", "wed", "thu", "fri", "sat"], ["08:00-20:00"])),
        ("Mo-Fr 08:00-18:00; We off", on(["mon", "tue", "thu", "fri"], ["08:00-18:00"])),
        (
            "Mo-Fr 09:00-17:00; We 10:00-12:00",
            ["mon": ["09:00-17:00"], "tue": ["09:00-17:00"], "wed": ["10:00-12:00"], "thu": ["09:00-17:00"], "fri": ["09:00-17:00"]]
        ),
        ("Mo-Fr 08:00-12:00; Fr 14:00-18:00", on(["mon", "tue", "wed", "thu"], ["08:00-12:00"]).merging(["fri": ["14:00-18:00"]]) { a, _ in a }),
        ("Mo-Fr 08:00-12:00 ; Sa 09:00-11:00 ;", on(weekdays, ["08:00-12:00"]).merging(["sat": ["09:00-11:00"]]) { a, _ in a }),
        ("Mo-Fr off", [:]),
        ("off", [:]),
        ("Mo-Fr off; We 10:00-12:00", ["wed": ["10:00-12:00"]]),
        ("Mo-Fr 10:00-12:00 open", on(weekdays, ["10:00-12:00"])),
        // Additional rules, which add to the hours of the days they select.
        ("Mo-Fr 10:00-20:00, Sa 10:00-14:00", on(weekdays, ["10:00-20:00"]).merging(["sat": ["10:00-14:00"]]) { a, _ in a }),
        (
            "Mo-Fr 10:00-12:00, We 14:00-16:00",
            ["mon": ["10:00-12:00"], "tue": ["10:00-12:00"], "wed": ["10:00-12:00", "14:00-16:00"], "thu": ["10:00-12:00"], "fri": ["10:00-12:00"]]
        ),
        ("Mo 14:00-16:00,Mo 10:00-12:00", ["mon": ["10:00-12:00", "14:00-16:00"]]),
        ("Mo-Fr 17:00-03:00, Sa-Su 18:00-04:00", on(weekdays, ["17:00-03:00"]).merging(on(["sat", "sun"], ["18:00-04:00"])) { a, _ in a }),
        ("Su off, Mo 10:00-12:00", ["mon": ["10:00-12:00"]]),
        ("Mo-Fr 08:00-18:00, We off", on(["mon", "tue", "thu", "fri"], ["08:00-18:00"])),
        // Real values from OpenStreetMap.
        (
            "Mo-Th 11:30-14:30,17:30-23:00; Fr-Sa 11:30-14:30,17:30-24:00; Su 12:00-22:00",
            on(["mon", "tue", "wed", "thu"], ["11:30-14:30", "17:30-23:00"])
                .merging(on(["fri", "sat"], ["11:30-14:30", "17:30-24:00"])) { a, _ in a }
                .merging(["sun": ["12:00-22:00"]]) { a, _ in a }
        ),
        (
            "Mo-Sa 07:00-19:00; Su 08:00-14:00",
            on(["mon", "tue", "wed", "thu", "fri", "sat"], ["07:00-19:00"]).merging(["sun": ["08:00-14:00"]]) { a, _ in a }
        ),
        ("Tu-Su 12:00-15:00, 18:00-22:00", on(["tue", "wed", "thu", "fri", "sat", "sun"], ["12:00-15:00", "18:00-22:00"])),
        ("Mo-Fr 07:30-19:00; Sa 08:00-13:00", on(weekdays, ["07:30-19:00"]).merging(["sat": ["08:00-13:00"]]) { a, _ in a }),
        (
            "Mo-Th 17:00-01:00; Fr-Sa 17:00-03:00; Su 17:00-24:00",
            on(["mon", "tue", "wed", "thu"], ["17:00-01:00"]).merging(on(["fri", "sat"], ["17:00-03:00"])) { a, _ in a }
                .merging(["sun": ["17:00-24:00"]]) { a, _ in a }
        ),
        (
            "Mo-Fr 09:00-12:00,14:00-18:30; Sa 09:00-12:00",
            on(weekdays, ["09:00-12:00", "14:00-18:30"]).merging(["sat": ["09:00-12:00"]]) { a, _ in a }
        ),
    ]

    @Test(arguments: supported)
    func readsTheSubset(value: String, expected: [String: [String]]) {
        #expect(OSMOpeningHours.parse(value)?.textDays == expected)
    }

    /// Values outside the subset, or wrong.
    static let unsupported: [String] = [
        // Empty.
        "", "   ", ";", " ; ",
        // Holidays.
        "PH off", "Mo-Fr 09:00-17:00; PH off", "Mo-Fr 09:00-17:00; SH 10:00-12:00", "PH,Mo-Fr 09:00-17:00",
        "Mo-Fr,PH 09:00-17:00", "Mo-Fr 09:00-17:00, PH off",
        // Years, months, dates, weeks, easter.
        "Jan-Mar 10:00-12:00", "Mo-Fr 08:00-18:00; Dec 25 off", "2026 Mo-Fr 10:00-12:00", "Dec 25 off",
        "week 1-10 Mo 10:00-12:00", "easter off", "Mo-Fr 10:00-12:00; easter off",
        // Times of the sun.
        "Mo-Fr sunrise-sunset", "Su 10:00-sunset", "dawn-dusk", "Mo 10:00-dusk",
        // Comments, fallback rules, open ends, nth weekdays, repeated times.
        #"Mo-Fr 10:00-12:00 "by appointment""#, #""on request""#, "Mo-Fr 08:00-12:00 || \"by appointment\"",
        "Mo-Fr 08:00-12:00 || Sa 10:00-11:00", "Mo-Fr 18:00+", "Sa 18:00+; Su off", "Su[1] 10:00-12:00",
        "Su[-1] 10:00-12:00", "Mo-Fr 10:00-16:00/01:30", "Mo-Fr 10:00-16:00/90",
        // States that are not safe.
        "Mo-Fr unknown", "Mo-Fr 10:00-12:00 unknown", "open", "Mo-Fr open", "Mo-Fr 10:00-12:00 off", "10:00-12:00 closed",
        // Weekdays without times, times without ends, bad times.
        "Mo-Fr", "Mo-Fr; Sa 10:00-12:00", "Mo 10:00-12:00, We", "10:00", "Mo 10:00", "Mo 10:00-", "Mo -12:00",
        "Mo 10:60-11:00", "Mo 10:00-11:60", "Mo 24:00-02:00", "Mo 25:00-26:00", "Mo 10:00-10:00", "Mo 00:00-00:00",
        "Mo 10:00-34:00", "Mo 10:00-48:00", "Mo 22:00-49:00", "Mo 100:00-12:00", "Mo 10:0-12:00", "Mo 10:000-12:00",
        "Mo 1000-1200", "Mo 10.00-12.00", "Mo 10h-12h", "Mo 10:00-12:00,", "Mo 10:00-12:00, 13:00",
        // Weekday names that are not ones.
        "Mn 10:00-12:00", "Mon 10:00-12:00", "Monday 10:00-12:00", "Mo-Fri 10:00-12:00", "Mo- 10:00-12:00",
        "Mo,,Tu 10:00-12:00", "Mo, 10:00-12:00",
        // Left over.
        "Mo 10:00-12:00 x", "Mo 10:00-12:00;;Tu 10:00-12:00", "Mo 10:00-12:00 Tu 10:00-12:00", "24/7 Mo", "24/7, Su off",
        "Mo-Fr 24/7", "Mo 10:00-12:00; 24/7", "Mo 10:00–12:00",
        // More than 8 intervals a day.
        "Mo 01:00-02:00,03:00-04:00,05:00-06:00,07:00-08:00,09:00-10:00,11:00-12:00,13:00-14:00,15:00-16:00,17:00-18:00",
        "Mo-Fr 01:00-02:00,03:00-04:00,05:00-06:00,07:00-08:00,09:00-10:00,11:00-12:00,13:00-14:00,15:00-16:00, Mo 17:00-18:00",
    ]

    @Test(arguments: unsupported)
    func refusesEverythingElse(value: String) {
        #expect(OSMOpeningHours.parse(value) == nil)
    }

    @Test func aSpanPastMidnightBelongsToTheDayItStarts() throws {
        let hours = try #require(OSMOpeningHours.parse("Fr 18:00-02:00"))
        #expect(hours.days == [.fri: [OpeningHours.Interval(opens: 1080, closes: 120)]])
        #expect(hours.isOpen(at: .init(weekday: .sat, minute: 60)))
        #expect(!hours.isOpen(at: .init(weekday: .sat, minute: 120)))
    }

    @Test func midnightAsAnEndIsTheEndOfTheDay() throws {
        let hours = try #require(OSMOpeningHours.parse("Mo 00:00-24:00"))
        #expect(hours.days == [.mon: [OpeningHours.Interval(opens: 0, closes: 1440)]])
    }
}
