import Foundation
import GeoIndex
import Testing

@testable import PlacesCore

@Suite("Place validation")
struct PlaceDraftTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func draft(_ fields: [String: FieldValue]) -> PlaceDraft { PlaceDraft(fields: fields) }

    func field(of error: any Error) -> String? { (error as? PlacesError)?.field }

    @Test func aMinimalRowBecomesAGemWithAStableDerivedID() throws {
        let row = draft(["name": .text("Vulcan Steps"), "lat": .text("37.76"), "lon": .text("-122.44")])
        let place = try row.validated(now: now)
        #expect(place.kind == .gem)
        #expect(place.id.hasPrefix("p-") && place.id.count == 18)
        #expect(try row.validated(now: now).id == place.id)
        let moved = draft(["name": .text("Vulcan Steps"), "lat": .text("37.7601"), "lon": .text("-122.44")])
        #expect(try moved.validated(now: now).id != place.id)
    }

    @Test func aliasesAndSnakeCaseNamesMeet() throws {
        let place = try draft([
            "Name": .text("Taqueria"), "latitude": .number(19.4), "lng": .number(-99.1), "Kind": .text("restaurant"),
            "price_level": .text("2"), "time_zone": .text("America/Mexico_City"),
            "opening_hours": .text(#"{"fri": ["18:00-02:00"]}"#), "tags": .text("tacos; late-night ;Tacos"),
        ]).validated(now: now)
        #expect(place.coordinate == Coordinate(latitude: 19.4, longitude: -99.1))
        #expect(place.priceLevel == 2)
        #expect(place.tags == ["tacos", "late-night"])
        #expect(place.openingHours?.days[.fri]?.first?.crossesMidnight == true)
        #expect(place.timeZone == "America/Mexico_City")
    }

    @Test func textIsStoredNFCNormalised() throws {
        let decomposed = "Cafe\u{0301} Lumie\u{0300}re"
        let place = try draft(["name": .text(decomposed), "lat": .number(1), "lon": .number(1)]).validated(now: now)
        #expect(place.name.unicodeScalars.count == "Café Lumière".unicodeScalars.count)
        #expect(place.name == "Café Lumière")
    }

    @Test(
        arguments: [
            (["lat": FieldValue.number(1), "lon": .number(1)], "name"),
            (["name": .text("  "), "lat": .number(1), "lon": .number(1)], "name"),
            (["name": .text("x"), "lon": .number(1)], "lat"),
            (["name": .text("x"), "lat": .text("north"), "lon": .number(1)], "lat"),
            (["name": .text("x"), "lat": .text("nan"), "lon": .number(1)], "lat"),
            (["name": .text("x"), "lat": .number(90.1), "lon": .number(1)], "lat"),
            (["name": .text("x"), "lat": .number(1), "lon": .number(-180.1)], "lon"),
            (["name": .text("x"), "lat": .number(1), "lon": .number(1), "kind": .text("bar")], "kind"),
            (["name": .text("x"), "lat": .number(1), "lon": .number(1), "id": .text("has space")], "id"),
            (["name": .text("x"), "lat": .number(1), "lon": .number(1), "kind": .text("restaurant"), "priceLevel": .number(5)], "priceLevel"),
            (["name": .text("x"), "lat": .number(1), "lon": .number(1), "kind": .text("restaurant"), "website": .text("ftp://x")], "website"),
            (["name": .text("x"), "lat": .number(1), "lon": .number(1), "timeZone": .text("Mars/Olympus")], "timeZone"),
            (
                [
                    "name": .text("x"), "lat": .number(1), "lon": .number(1), "kind": .text("restaurant"),
                    "openingHours": .text("{\"mon\": [\"25:00-26:00\"]}"),
                ], "openingHours"
            ),
            (["name": .text(String(repeating: "a", count: 201)), "lat": .number(1), "lon": .number(1)], "name"),
            (["name": .text("x\u{0007}"), "lat": .number(1), "lon": .number(1)], "name"),
            (["name": .text("two\nlines"), "lat": .number(1), "lon": .number(1)], "name"),
            (["name": .text("x"), "lat": .number(1), "lon": .number(1), "city": .text("a\tb")], "city"),
            (["name": .text("x"), "lat": .number(1), "lon": .number(1), "id": .text("nearby")], "id"),
        ] as [([String: FieldValue], String)]
    )
    func invalidFieldsAreNamed(fields: [String: FieldValue], expected: String) {
        #expect(performing: { _ = try draft(fields).validated(now: now) }, throws: { field(of: $0) == expected })
    }

    @Test func descriptionsMayHoldLineBreaksAndGemsMayHaveAWebsite() throws {
        let place = try draft([
            "name": .text("Museum"), "lat": .number(1), "lon": .number(1), "description": .text("Two\nparagraphs"),
            "website": .text("https://example.org"), "openingHours": .object(["mon": .list([.text("10:00-17:00")])]),
        ]).validated(now: now)
        #expect(place.kind == .gem)
        #expect(place.description == "Two\nparagraphs")
        #expect(place.website == "https://example.org")
        #expect(place.openingHours?.textDays == ["mon": ["10:00-17:00"]])
    }

    @Test func limitsAreInclusive() throws {
        let tags = (0..<20).map { FieldValue.text("tag\($0)" + String(repeating: "x", count: 30)) }
        let place = try draft([
            "name": .text(String(repeating: "é", count: 200)), "lat": .number(-90), "lon": .number(180),
            "description": .text(String(repeating: "d", count: 5_000)), "tags": .list(tags),
        ]).validated(now: now)
        #expect(place.tags.count == 20)
        let tooMany = tags + [.text("one-more")]
        #expect(
            performing: {
                _ = try draft(["name": .text("x"), "lat": .number(1), "lon": .number(1), "tags": .list(tooMany)]).validated(now: now)
            },
            throws: { field(of: $0) == "tags" }
        )
    }
}

@Suite("Opening hours")
struct OpeningHoursTests {
    @Test func intervalsParseAndPrintBack() throws {
        let hours = try OpeningHours.parse([
            "mon": ["17:00-22:00", "08:00-14:00"], "sat": ["00:00-24:00"], "sun": [], "fri": ["16:00-00:00"],
        ])
        #expect(hours.textDays == ["mon": ["08:00-14:00", "17:00-22:00"], "sat": ["00:00-24:00"], "fri": ["16:00-24:00"]])
        #expect(hours.days[.fri]?.first?.crossesMidnight == false)
        #expect(hours.days[.sat]?.first?.crossesMidnight == false)
    }

    @Test(arguments: ["8:00-14:00", "08:00", "24:30-01:00", "08:60-09:00", "x"])
    func badIntervalsAreRefused(text: String) {
        #expect(throws: PlacesError.self) { _ = try OpeningHours.parse(["mon": [text]]) }
    }

    @Test func theTimeZoneCacheRemembersOnlyZonesThatExist() {
        #expect(TimeZoneNames.isKnown("Europe/Lisbon"))
        #expect(TimeZoneNames.isRemembered("Europe/Lisbon"))
        // A stranger's made-up names are checked and forgotten, so they cannot grow the cache.
        for n in 0..<500 {
            let name = "Nowhere/Place\(n)"
            #expect(!TimeZoneNames.isKnown(name))
            #expect(!TimeZoneNames.isRemembered(name))
        }
    }
}
