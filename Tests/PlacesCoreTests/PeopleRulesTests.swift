import Foundation
import Testing

@testable import PlacesCore

// The login throttle counts in the database: its rules are checked on every engine by ThrottleRepositoryContract.
@Suite("Account rules, settings and opening hours")
struct PeopleRulesTests {
    @Test(arguments: ["abc", "Ada.Lovelace", "a_b.c", String(repeating: "x", count: 32)])
    func goodUsernames(name: String) throws {
        #expect(try AccountRules.username(name) == name)
    }

    @Test(arguments: ["ab", String(repeating: "x", count: 33), "has space", "émile", "semi;colon", ""])
    func badUsernames(name: String) {
        #expect(throws: PlacesError.self) { try AccountRules.username(name) }
    }

    @Test func emailsAndPhonesAreNormalised() throws {
        #expect(try AccountRules.email("  Ada@Example.COM ") == "ada@example.com")
        #expect(try AccountRules.phone("+44 (20) 7946-0958") == "+442079460958")
        for bad in ["ada", "ada@", "@example.com", "ada@example", "a@b..c", "a b@c.d", "a@b.c."] {
            #expect(throws: PlacesError.self, "\(bad)") { try AccountRules.email(bad) }
        }
        for bad in ["0207 946 0958", "+12", "+44 20 7946 0958 ext 2", "+1234567890123456"] {
            #expect(throws: PlacesError.self, "\(bad)") { try AccountRules.phone(bad) }
        }
    }

    @Test func anEmailIsWhatTheDocumentsPatternAllows() throws {
        // 254 characters are counted as the document's maxLength counts them, in code points, not bytes.
        let long = String(repeating: "é", count: 240) + "@example.com"
        #expect(try AccountRules.email(long) == long)
        #expect(try AccountRules.email(" \tAna@Example.COM\n") == "ana@example.com")
        // Dots and the @ are found by code point, as the pattern finds them: a dot followed by an emoji modifier or
        // a combining mark still separates labels (one character to Swift, two code points to the pattern).
        #expect(try AccountRules.email("¢Ą°@t.\u{1F3FB}2ä") == "¢ą°@t.\u{1F3FB}2ä")
        #expect(try AccountRules.email("a@b.\u{301}c") == "a@b.\u{301}c")
        // What the pattern refuses: white space (NEL and U+FEFF among it), controls, C1 controls, < and >.
        for bad in ["a\u{85}b@example.com", "a\u{FEFF}@example.com", "a\u{9C}@example.com", "a\u{A0}b@example.com", "<a>@example.com",
            "\u{A0}a@example.com", "a@example..com", "a@.example.com", "@example.com", "a@example"]
        {
            #expect(throws: PlacesError.self, "\(bad.debugDescription)") { try AccountRules.email(bad) }
        }
    }

    @Test func passwordsAreTenCharactersToSeventyTwoBytes() throws {
        try AccountRules.checkPassword("0123456789", username: "ada")
        try AccountRules.checkPassword(String(repeating: "x", count: 72), username: "ada")
        let cases = ["012345678", String(repeating: "x", count: 73), String(repeating: "é", count: 37), "password\u{0}xx", "AdaLovelace"]
        for password in cases {
            #expect(throws: PlacesError.self) { try AccountRules.checkPassword(password, username: "adalovelace") }
        }
    }

    @Test func tokensAre256RandomBitsStoredAsSHA256() {
        let a = SessionToken.generate()
        let b = SessionToken.generate()
        #expect(a != b)
        #expect(a.count == 43)
        #expect(a.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) })
        #expect(SessionToken.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SessionToken.base64URL([0xFB, 0xFF]) == "-_8")
    }

    /// The hex of hashes, lots' seeds and ids: two digits a byte and sixteen a number, zeros kept.
    @Test func hexKeepsItsLeadingZeros() {
        #expect(Hex.text([0x00, 0x0F, 0x10, 0xFF] as [UInt8]) == "000f10ff")
        #expect(Hex.text([] as [UInt8]).isEmpty)
        #expect(Hex.text(1 as UInt64) == "0000000000000001")
        #expect(Hex.text(0x0123_4567_89AB_CDEF as UInt64) == "0123456789abcdef")
        #expect(Hex.text(UInt64.max) == "ffffffffffffffff")
        #expect(RandomID.make("g-").utf8.count == 18)
        #expect(Photo.isWellFormedID(Photo.makeID()))
    }

    @Test func textLimitsCountWhatWasSentInCodePoints() throws {
        let accents = String(repeating: "e\u{301}", count: 5)
        // Trailing blanks count (they are trimmed only after the check), and so does each combining mark.
        #expect(throws: PlacesError.self) { try TextRules.text("0123456789     ", field: "padded", limit: 10) }
        #expect(try TextRules.text(" 12345678 ", field: "exact", limit: 10) == "12345678")
        #expect(throws: PlacesError.self) { try TextRules.text(accents, field: "accents", limit: 9) }
        #expect(try TextRules.text(accents, field: "accents", limit: 10) == String(repeating: "\u{E9}", count: 5))
        #expect(try TextRules.text("   ", field: "blank", limit: 10) == nil)
        // A URL holds no white space inside (a contract run found " hTTpS://Ê/Õ *" accepted: Foundation escaped the space).
        #expect(try TextRules.webURL(" hTTpS://example.com/a ", field: "avatarURL") == "hTTpS://example.com/a")
        for url in ["https://Ê/Õ *", "https://example.com/a\u{3000}b", "https://exa mple.com", "ftp://example.com", "https:///a"] {
            #expect(throws: PlacesError.self, "\(url)") { try TextRules.webURL(url, field: "avatarURL") }
        }
    }

    @Test func settingsApplyTheSameRulesForPutAndPatch() throws {
        let largerText = try #require(SettingsPatch.Flags<UserSettings.Accessibility>.all.first { $0.name == "largerText" })
        let patch = SettingsPatch(units: .set(.km), accessibility: .set(.init([largerText: .set(true)])))
        let changed = try UserSettings().applying(patch)
        #expect(changed.units == .km)
        #expect(changed.accessibility.largerText)
        #expect(!changed.accessibility.reducedMotion)
        let reset = try changed.applying(SettingsPatch(units: .clear, accessibility: .clear))
        #expect(reset == UserSettings())
        #expect(try changed.applying(SettingsPatch(accessibility: .set(.init([largerText: .clear])))) == UserSettings().applying(SettingsPatch(units: .set(.km))))
        #expect(throws: PlacesError.self) { try UserSettings().applying(SettingsPatch(defaultRadiusMiles: .set(20.5))) }
        #expect(throws: PlacesError.self) { try UserSettings().applying(SettingsPatch(language: .set("  "))) }
        for tag in ["en", "pt-BR", "zh-Hant-TW", "de-CH-1996"] {
            #expect(try UserSettings.languageTag(tag) == tag)
        }
        for tag in ["e", "en_GB", "en--GB", "toolongsubtag9", "ünï"] {
            #expect(throws: PlacesError.self) { try UserSettings.languageTag(tag) }
        }
    }

    @Test(arguments: [
        // (local weekday, local time, open?)
        (OpeningHours.Weekday.mon, "17:59", false), (.mon, "18:00", true), (.mon, "23:59", true),
        (.tue, "01:59", true), (.tue, "02:00", false), (.tue, "09:00", true), (.tue, "16:59", true), (.tue, "17:00", false),
        (.wed, "01:00", false), (.sun, "23:00", false), (.sat, "12:00", true), (.sat, "23:59", true), (.sun, "00:30", false),
        (.sun, "23:30", true), (.mon, "00:30", true), (.mon, "01:00", false),
    ])
    func openingHoursIncludeIntervalsPastMidnight(day: OpeningHours.Weekday, time: String, open: Bool) throws {
        let hours = try OpeningHours.parse(["mon": ["18:00-02:00"], "tue": ["09:00-17:00"], "sat": ["10:00-00:00"], "sun": ["23:30-01:00"]])
        let parts = time.split(separator: ":").compactMap { Int($0) }
        #expect(hours.isOpen(at: .init(weekday: day, minute: parts[0] * 60 + parts[1])) == open, "\(day) \(time)")
    }

    @Test func localTimeFollowsThePlacesZone() throws {
        let instant = try Date.ISO8601FormatStyle().parse("2026-11-24T06:30:00Z")
        let newYork = OpeningHours.LocalTime(instant, in: try #require(TimeZone(identifier: "America/New_York")))
        #expect(newYork == .init(weekday: .tue, minute: 90))
        let tokyo = OpeningHours.LocalTime(instant, in: try #require(TimeZone(identifier: "Asia/Tokyo")))
        #expect(tokyo == .init(weekday: .tue, minute: 15 * 60 + 30))
    }

    @Test func searchWordsAreLettersAndDigitsOnly() throws {
        #expect(SearchText.words("Café  \"de\" FLORE*") == ["cafe", "de", "flore"])
        #expect(SearchText.words("OR AND NEAR()") == ["or", "and", "near"])
        #expect(throws: PlacesError.self) { try PlaceSearchQuery.parse(q: "**", lat: nil, lon: nil, radius: nil, page: PageRequest()) }
    }

    @Test func relevanceAddsTheWeightsOfTheFieldsEachWordBegins() {
        let fields = SearchText.fieldWords(name: "Harbor Lighthouse", tags: ["View"], cuisine: nil, description: "An old light by the Café")
        #expect(SearchText.relevance(of: ["harbor", "light"], in: fields) == 10 + (10 + 1))
        #expect(SearchText.relevance(of: ["ligh", "view"], in: fields) == 11 + 4)
        #expect(SearchText.relevance(of: ["cafe"], in: fields) == 1, "accents are folded on both sides")
        #expect(SearchText.relevance(of: ["house"], in: fields) == 0, "a word matches as a prefix of a word, not inside one")
        #expect(SearchText.relevance(of: ["harbor", "zeppelin"], in: fields) == 0, "every word must match")
    }

    @Test func pagesCarryAnOpaqueCursorHoldingTheLastSortKey() throws {
        let request = try PageRequest.parse(limit: "2", cursor: nil)
        let page = request.page([(1, ["a", "é/1"]), (2, ["b", "2"]), (3, ["c", "3"])])
        #expect(page.items == [1, 2])
        let cursor = try #require(page.nextCursor)
        #expect(cursor.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, "opaque and URL-safe: \(cursor)")
        let next = try PageRequest.parse(limit: "2", cursor: cursor)
        #expect(next.after == ["b", "2"])
        #expect(try next.after(parts: 2) == ["b", "2"])
        #expect(throws: PlacesError.self) { try next.after(parts: 3) }
        #expect(request.page([(1, ["a"])]).nextCursor == nil, "the last page has no cursor")
        for (limit, cursor) in [("0", nil), ("101", nil), ("x", nil), (nil, "abc"), (nil, "o5"), (nil, "k"), (nil, "kA"), (nil, "k+++")]
            as [(String?, String?)]
        {
            #expect(throws: PlacesError.self) { try PageRequest.parse(limit: limit, cursor: cursor) }
        }
        #expect(throws: PlacesError.self) { try PageRequest.parse(limit: nil, cursor: "k" + String(repeating: "A", count: 1_100)) }
    }

    @Test func aDoubleInASortKeyComesBackExactly() throws {
        for value in [0.1 + 0.2, -3.5e-300, 1_234.000_001, -0.0] {
            #expect(try PageRequest.double(PageRequest.keyPart(value)).bitPattern == value.bitPattern)
        }
        #expect(throws: PlacesError.self) { try PageRequest.double("x") }
    }
}

@Suite("Group succession")
struct GroupSuccessionTests {
    @Test func theMemberWhoJoinedFirstTakesOverThenByUsernameKeyThenId() {
        let member = GroupSuccession.Candidate.init(userID:joinedAt:usernameKey:)
        #expect(GroupSuccession.eldest([]) == nil)
        #expect(
            GroupSuccession.eldest([
                member("u-3", "2026-11-20T10:00:00Z", "cara"), member("u-2", "2026-11-20T09:00:00Z", "ben"),
                member("u-1", "2026-11-20T09:00:00Z", "bea"),
            ]) == "u-1"
        )
        // Byte order, as both engines compare stored text ("Z" sorts before "a"; "é" after every ASCII letter).
        #expect(GroupSuccession.eldest([member("u-1", "t", "élan"), member("u-2", "t", "zed")]) == "u-2")
        #expect(GroupSuccession.eldest([member("u-b", "t", "same"), member("u-a", "t", "same")]) == "u-a")
    }
}
