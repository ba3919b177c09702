import Foundation
import Testing

@testable import PlacesCore

@Suite("CSV seed files")
struct CSVSeedTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func read(_ text: String) throws -> SeedReadOutcome {
        let folder = try SeedTestFolder()
        defer { folder.remove() }
        return try SeedReadOutcome(path: folder.write(text, to: "places.csv"))
    }

    func fileError(_ text: String) throws -> String? {
        let folder = try SeedTestFolder()
        defer { folder.remove() }
        let path = try folder.write(text, to: "places.csv")
        return seedFileErrorMessage { _ = try SeedReadOutcome(path: path) }
    }

    @Test func quotedCellsHoldCommasQuotesAndLineBreaks() throws {
        let outcome = try read(
            #"""
            id,name,lat,lon,description
            a,"Vulcan Steps, the stairway",37.76,-122.44,"He said ""hi"""
            b,Plain,1,2,"two
            lines

            and a blank one"
            c,"",3,4,x"y
            """#
        )
        #expect(outcome.rowErrors.isEmpty)
        #expect(outcome.records.map(\.line) == [2, 3, 7])
        let fields = outcome.records.map(\.draft.fields)
        #expect(fields[0]["name"] == .text("Vulcan Steps, the stairway"))
        #expect(fields[0]["description"] == .text(#"He said "hi""#))
        #expect(fields[1]["description"] == .text("two\nlines\n\nand a blank one"))
        #expect(fields[2]["name"] == .null)
        #expect(fields[2]["description"] == .text(#"x"y"#))
    }

    @Test func aByteOrderMarkAndCRLFLineBreaksAreRead() throws {
        let outcome = try read("\u{FEFF}name,lat,lon\r\n\"A\r\nB\",1,2\r\nC,3,\r\n")
        #expect(outcome.records.map(\.line) == [2, 4])
        #expect(outcome.records[0].draft.fields == ["name": .text("A\r\nB"), "lat": .text("1"), "lon": .text("2")])
        #expect(outcome.records[1].draft.fields == ["name": .text("C"), "lat": .text("3"), "lon": .null])
    }

    @Test func aCommaAsTheFilesLastByteEndsTheRecordWithAnEmptyCell() throws {
        // Found by the fuzz test: a trailing comma with no line break after it read past the end of the file.
        for text in ["name,lat,lon,city\nA,1,2,", "name,lat,lon,city\n\"A\",1,2,"] {
            let outcome = try read(text)
            #expect(outcome.records.count == 1, "\(text)")
            #expect(outcome.records.first?.draft.fields["city"] == .null)
            #expect(outcome.records.first?.draft.fields["lon"] == .text("2"))
        }
    }

    @Test func emptyLinesAreSkippedAndLinesStillCount() throws {
        let outcome = try read("\nname,lat,lon\n\na,1,2\n\r\n\nb,3,4\n\n")
        #expect(outcome.records.map(\.line) == [4, 7])
        #expect(try read("name,lat,lon\n").records.isEmpty)
        #expect(try read("name,lat,lon\na,1,2").records.map(\.line) == [2])
    }

    @Test func headersFoldAliasesAndCaseAndUnknownColumnsPassAlong() throws {
        let outcome = try read(
            "ID,Name,Latitude,LNG,Price_Level,Kind,Opening Hours,Shoe Size,\nr1,Taqueria,19.4,-99.1,2,Restaurant,\"{\"\"fri\"\": [\"\"18:00-02:00\"\"]}\",44,\n"
        )
        let fields = try #require(outcome.records.first).draft.fields
        #expect(fields["latitude"] == .text("19.4") && fields["lng"] == .text("-99.1"))
        #expect(fields["pricelevel"] == .text("2") && fields["shoesize"] == .text("44"))
        #expect(fields.count == 8)
        let place = try outcome.records[0].draft.validated(now: now)
        #expect(place.id == "r1" && place.kind == .restaurant && place.priceLevel == 2)
        #expect(place.coordinate.latitude == 19.4 && place.coordinate.longitude == -99.1)
        #expect(place.openingHours?.textDays == ["fri": ["18:00-02:00"]])
    }

    @Test(
        arguments: [
            ("name,lon\n", "latitude"), ("lat,lng\n", "name"), ("Name,Lat\n", "longitude"), ("id,kind\n", "latitude (lat or latitude), longitude"),
        ]
    )
    func aHeaderWithoutARequiredColumnIsAFileError(header: String, missing: String) throws {
        let message = try fileError(header + "x,1\n")
        #expect(message?.contains("places.csv: line 1: the header lacks the column") == true)
        #expect(message?.contains(missing) == true, "\(message ?? "")")
    }

    @Test func aColumnNamedTwiceIsAFileError() throws {
        let message = try fileError("name,lat,lon,LAT\nx,1,2,3\n")
        #expect(message?.contains("columns 2 and 4") == true)
    }

    @Test func aRowWithTheWrongNumberOfFieldsIsARowErrorOnItsLine() throws {
        let outcome = try read("name,lat,lon\na,1,2\nb,1\n\"c\nc\",1,2,3\nd,1,2\n")
        #expect(outcome.records.map(\.line) == [2, 6])
        #expect(outcome.rowErrors.map(\.line) == [3, 4])
        #expect(outcome.rowErrors[0].reason == "the row has 2 fields, the header has 3")
        #expect(outcome.rowErrors[1].description.hasSuffix("places.csv:4: the row has 4 fields, the header has 3"))
    }

    @Test func anUnterminatedQuoteIsARowErrorForItsRecord() throws {
        let outcome = try read("name,lat,lon\na,1,2\n\"b,1,2\nc,3,4\n")
        #expect(outcome.records.map(\.line) == [2])
        #expect(outcome.rowErrors.map(\.line) == [3])
        #expect(outcome.rowErrors[0].reason.contains("never closed"))
    }

    @Test func textAfterAClosingQuoteIsARowErrorAndReadingGoesOn() throws {
        let outcome = try read("name,lat,lon\n\"a\"b,1,2\nc,3,4\n")
        #expect(outcome.rowErrors.map(\.line) == [2])
        #expect(outcome.records.map(\.line) == [3])
    }

    @Test func aBrokenHeaderIsAFileError() throws {
        #expect(try fileError("\"name,lat,lon\n")?.contains("line 1: the header row") == true)
    }

    @Test func randomTablesRoundTrip() throws {
        var random = SplitMix64(seed: 3)
        let pieces = ["a", "Zürich", ",", "\"", "\n", "\r\n", " ", "東京", "x\"y", ";", "🙂", "7.5"]
        for _ in 0..<60 {
            let columns = 3 + random.below(3)
            let header = ["name", "lat", "lon"] + (3..<columns).map { "extra\($0)" }
            var rows: [[String]] = []
            for _ in 0..<(1 + random.below(6)) {
                rows.append((0..<columns).map { _ in (0..<random.below(4)).map { _ in pieces[random.below(pieces.count)] }.joined() })
            }
            func encode(_ cell: String) -> String {
                cell.unicodeScalars.contains(where: { ",\"\r\n".unicodeScalars.contains($0) }) || cell.isEmpty && random.below(2) == 0
                    ? "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : cell
            }
            let lineBreak = random.below(2) == 0 ? "\n" : "\r\n"
            let text = ([header] + rows).map { $0.map(encode).joined(separator: ",") }.joined(separator: lineBreak) + lineBreak
            let outcome = try read(text)
            #expect(outcome.rowErrors.isEmpty)
            #expect(outcome.records.count == rows.count)
            for (record, row) in zip(outcome.records, rows) {
                for (name, cell) in zip(header, row) {
                    #expect(record.draft.fields[name] == (cell.isEmpty ? .null : .text(cell)))
                }
            }
        }
    }
}
