import Testing

@testable import PlacesCore

@Suite("JSON text")
struct JSONTextTests {
    func syntaxError(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try JSONText.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func valuesOfEveryKindParse() throws {
        let value = try JSONText.parse(
            #"{"name": "Kava", "n": -12.5e1, "ok": true, "no": false, "nothing": null, "tags": ["a", 1, [], {}]}"#
        )
        #expect(
            value
                == .object([
                    "name": .text("Kava"), "n": .number(-125), "ok": .bool(true), "no": .bool(false), "nothing": .null,
                    "tags": .list([.text("a"), .number(1), .list([]), .object([:])]),
                ])
        )
        #expect(try JSONText.parse(" \r\n\t 42 \n") == .number(42))
        #expect(try JSONText.parse(#""top-level string""#) == .text("top-level string"))
        #expect(try JSONText.parse(#"{"a": 1, "a": 2}"#) == .object(["a": .number(2)]))
        #expect(try JSONText.parse("\u{FEFF}[1]") == .list([.number(1)]))
    }

    @Test func theByteEntryPointsAgreeWithTheStringOne() throws {
        let text = #"{"city": "Zürich", "coordinates": [8.54, 47.37]}"#
        let bytes = Array(text.utf8)
        #expect(try JSONText.parse(bytes: bytes) == JSONText.parse(text))
    }

    @Test func escapesDecode() throws {
        let value = try JSONText.parse(#""a\n\t\"\\\/\b\f\r\u00e9\u20AC\ud83d\ude00z""#)
        #expect(value == .text("a\n\t\"\\/\u{8}\u{C}\r\u{E9}\u{20AC}\u{1F600}z"))
        #expect(try JSONText.parse(#""\u0000""#) == .text("\u{0}"))
    }

    @Test func rawUnicodePassesThroughUnchanged() throws {
        #expect(try JSONText.parse(#"["Café", "東京", "🙂", "e\u0301"]"#) == .list([.text("Café"), .text("東京"), .text("🙂"), .text("e\u{301}")]))
    }

    @Test(
        arguments: [
            ("0", 0.0), ("-0", -0.0), ("0.5", 0.5), ("1e3", 1000), ("1E+3", 1000), ("-1.25e-2", -0.0125), ("123456789", 123_456_789),
            ("9007199254740993", 9_007_199_254_740_992), ("1.7976931348623157e308", 1.7976931348623157e308), ("5e-324", .leastNonzeroMagnitude),
            ("1e-400", 0), ("0.1", 0.1), ("37.7612", 37.7612), ("-122.4401", -122.4401), ("123456789012345678901234567890", 1.2345678901234568e29),
        ]
    )
    func numbersParseToTheNearestDouble(text: String, expected: Double) throws {
        #expect(try JSONText.parse(text) == .number(expected))
    }

    @Test func randomDoublesRoundTripThroughTheirShortestSpelling() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<3000 {
            let value = Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
            let small = Double(Int64(bitPattern: random.next()) % 1_000_000_000) / 1000
            for number in [value, -value, small] {
                #expect(try JSONText.parse(number.description) == .number(number))
            }
        }
    }

    @Test(
        arguments: [
            ("", 1, 1, "end of input"), ("{\n  \"a\": tru\n}", 2, 8, "true"), ("[1,\n 2,\n ]", 3, 2, "']'"),
            ("\"abc", 1, 1, "unterminated string"), ("[1 2]", 1, 4, "','"), ("01", 1, 1, "leading zero"),
            ("{\"é\": x}", 1, 7, "'x'"), ("[] x", 1, 4, "after the JSON value"), ("-", 1, 2, "digit"), ("1.", 1, 3, "decimal point"),
            (".5", 1, 1, "'.'"), ("+1", 1, 1, "'+'"), ("1e", 1, 3, "exponent"), ("0x10", 1, 2, "'x'"), ("1e400", 1, 1, "too large"),
            ("nul", 1, 1, "null"), ("True", 1, 1, "'T'"), ("{\"a\" 1}", 1, 6, "':'"), ("{a: 1}", 1, 2, "string key"),
            ("{\"a\": 1,}", 1, 9, "string key"), ("[1,]", 1, 4, "']'"), ("\"a\\x\"", 1, 4, "backslash"), ("\"a\nb\"", 1, 3, "control"),
            ("\"\\ud83d\"", 1, 2, "unpaired high"), ("\"\\ude00\"", 1, 2, "unpaired low"), ("\"\\ud83dx\"", 1, 2, "unpaired high"),
            ("\"\\u12G4\"", 1, 6, "hex"), ("[\u{0C}]", 1, 2, "control byte"), ("{\"a\": [1, 2}", 1, 12, "','"),
        ] as [(String, Int, Int, String)]
    )
    func syntaxErrorsSayWhereAndWhat(text: String, line: Int, column: Int, fragment: String) {
        let error = syntaxError(text)
        #expect(error?.line == line)
        #expect(error?.column == column)
        #expect(error?.message.contains(fragment) == true, "\(String(describing: error))")
    }

    @Test func invalidUTF8InAStringIsAnErrorWithItsPosition() {
        let bytes: [UInt8] = Array("[\"ok\",\n \"a".utf8) + [0xC3, 0x28] + Array("\"]".utf8)
        #expect(throws: JSONSyntaxError(line: 2, column: 4, message: "invalid UTF-8 in a string")) { try JSONText.parse(bytes: bytes) }
        let surrogate: [UInt8] = [0x22, 0xED, 0xA0, 0x80, 0x22]
        #expect(throws: JSONSyntaxError.self) { try JSONText.parse(bytes: surrogate) }
    }

    @Test func nestingIsLimitedWithAnErrorNotACrash() throws {
        let deepest = String(repeating: "[", count: JSONText.maximumDepth) + String(repeating: "]", count: JSONText.maximumDepth)
        #expect(throws: Never.self) { try JSONText.parse(deepest) }
        let tooDeep = String(repeating: "[", count: JSONText.maximumDepth + 1) + String(repeating: "]", count: JSONText.maximumDepth + 1)
        #expect(syntaxError(tooDeep)?.message.contains("deeper than 64") == true)
        #expect(syntaxError(tooDeep)?.column == 65)
        #expect(syntaxError(String(repeating: "{\"a\":", count: 100_000))?.message.contains("deeper") == true)
        #expect(syntaxError(String(repeating: "[", count: 1_000_000)) != nil)
    }

    @Test func mutatedDocumentsNeverCrashAndPointInsideTheText() {
        let seeds = [
            #"{"places": [{"name": "Kava \"Bar\"", "lat": -16.8, "lon": 179.99, "tags": ["kava", "late"]}, {"id": "x\u00e9\ud83d\ude00"}]}"#,
            #"[1, -2.5e+3, true, false, null, {"a": {"b": [[], {}]}}, "Zürich 東京"]"#,
        ]
        let alphabet = Array(#"{}[]",:\-+.0123456789eEtrufalsn u"#.utf8) + [0x0A, 0xC3, 0xA9, 0xFF, 0x00]
        var random = SplitMix64(seed: 42)
        for round in 0..<3000 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0...random.below(4) {
                let position = random.below(bytes.count + 1)
                switch random.below(4) {
                case 0 where position < bytes.count: bytes[position] = alphabet[random.below(alphabet.count)]
                case 1: bytes.insert(alphabet[random.below(alphabet.count)], at: position)
                case 2 where position < bytes.count: bytes.remove(at: position)
                default: bytes.removeLast(min(bytes.count, random.below(8)))
                }
            }
            do {
                _ = try JSONText.parse(bytes: bytes)
            } catch {
                let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count
                #expect(error.line >= 1 && error.line <= lines)
                #expect(error.column >= 1 && error.column <= bytes.count + 1)
            }
            var stream = JSONElementStream(bytes: bytes, member: "places")
            while (try? stream.next()) != nil {}
        }
    }
}

@Suite("JSON element streams")
struct JSONElementStreamTests {
    func elements(_ text: String, member: String?, topLevel: Bool = true) throws -> ([JSONElementStream.Element], JSONElementStream) {
        var stream = JSONElementStream(bytes: Array(text.utf8), member: member, streamsTopLevelArray: topLevel)
        var elements: [JSONElementStream.Element] = []
        while let element = try stream.next() { elements.append(element) }
        return (elements, stream)
    }

    @Test func theMemberArrayStreamsWithTheLineOfEachElement() throws {
        let text = """
            {"version": 2,
              "places": [
                {"name": "a"},
                {
                  "name": "b"},   "c",

                [1]
              ],
              "source": "test"}
            """
        let (elements, stream) = try elements(text, member: "places")
        #expect(elements.map(\.line) == [3, 4, 5, 7])
        #expect(elements.first?.value == .object(["name": .text("a")]))
        #expect(elements.last?.value == .list([.number(1)]))
        #expect(stream.foundArray)
        #expect(stream.document == .object(["version": .number(2), "places": .list([]), "source": .text("test")]))
    }

    @Test func aTopLevelArrayStreamsUnlessTold() throws {
        let (elements, stream) = try elements("\u{FEFF}[\n1,\n2]", member: "places")
        #expect(elements == [.init(value: .number(1), line: 2), .init(value: .number(2), line: 3)])
        #expect(stream.foundArray && stream.document == .list([]))
        let (none, whole) = try self.elements("[1, 2]", member: "features", topLevel: false)
        #expect(none.isEmpty && !whole.foundArray)
        #expect(whole.document == .list([.number(1), .number(2)]))
    }

    @Test func aDocumentWithoutTheMemberArrayIsReturnedWhole() throws {
        let (elements, stream) = try elements(#"{"places": 3, "other": [1]}"#, member: "places")
        #expect(elements.isEmpty && !stream.foundArray)
        #expect(stream.document == .object(["places": .number(3), "other": .list([.number(1)])]))
        let (empty, emptyStream) = try self.elements(#"{"places": []}"#, member: "places")
        #expect(empty.isEmpty && emptyStream.foundArray)
    }

    @Test func aSyntaxErrorAfterSomeElementsThrowsAndEndsTheStream() throws {
        var stream = JSONElementStream(bytes: Array("{\"places\": [1,\n 2\n 3]}".utf8), member: "places")
        #expect(try stream.next()?.value == .number(1))
        #expect(try stream.next()?.value == .number(2))
        #expect(throws: JSONSyntaxError.self) { try stream.next() }
        #expect(try stream.next() == nil)
        var trailing = JSONElementStream(bytes: Array("[1] [2]".utf8), member: nil)
        #expect(try trailing.next()?.value == .number(1))
        #expect(throws: JSONSyntaxError(line: 1, column: 5, message: "unexpected '[' after the JSON value")) { try trailing.next() }
    }
}

extension SplitMix64 {
    /// A number in 0..<bound (0 when bound is 0), for picking among a test's inputs.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
}
