import Foundation
import Testing

@testable import PlacesCore

@Suite("JSON and GeoJSON seed files")
struct SeedJSONTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func read(_ text: String, as name: String) throws -> SeedReadOutcome {
        let folder = try SeedTestFolder()
        defer { folder.remove() }
        return try SeedReadOutcome(path: folder.write(text, to: name))
    }

    func fileError(_ text: String, as name: String) throws -> String? {
        let folder = try SeedTestFolder()
        defer { folder.remove() }
        let path = try folder.write(text, to: name)
        return seedFileErrorMessage { _ = try SeedReadOutcome(path: path) }
    }

    // MARK: - Our JSON format

    @Test func placesBecomeRecordsWithTheLineEachStartsOn() throws {
        let outcome = try read(
            """
            {
              "version": 1,
              "places": [
                {"id": "fj-1", "kind": "restaurant", "name": "Kava Bar", "lat": -16.8, "lon": 179.99,
                 "cuisine": "fijian", "priceLevel": 2, "openingHours": {"fri": ["18:00-02:00"]}, "tags": ["kava"]},
                42,
                {
                  "name": "Dateline Marker", "lat": -16.81, "lon": -179.99
                }
              ]
            }
            """,
            as: "fiji.json"
        )
        #expect(outcome.lines == [4, 6, 7])
        #expect(outcome.records.map(\.line) == [4, 7])
        #expect(outcome.rowErrors.first?.reason == "expected a place object, found a number")
        let bar = try outcome.records[0].draft.validated(now: now)
        #expect(bar.priceLevel == 2 && bar.tags == ["kava"] && bar.openingHours?.textDays == ["fri": ["18:00-02:00"]])
        #expect(outcome.records[0].draft.fields["pricelevel"] == .number(2))
        #expect(try outcome.records[1].draft.validated(now: now).name == "Dateline Marker")
    }

    @Test func aBareArrayOfPlacesIsAccepted() throws {
        let outcome = try read("[\n{\"name\": \"a\", \"lat\": 1, \"lon\": 2},\n{\"name\": \"b\", \"lat\": 3, \"lon\": 4}\n]\n", as: "bare.json")
        #expect(outcome.records.map(\.line) == [2, 3])
        #expect(outcome.records[1].draft.fields["name"] == .text("b"))
    }

    @Test(arguments: [#"{"things": []}"#, #"{"places": {"a": 1}}"#, "3", #""places""#])
    func theWrongTopLevelShapeIsAFileError(text: String) throws {
        let message = try fileError(text, as: "shape.json")
        #expect(message?.contains(#"shape.json: expected an object with a "places" array"#) == true)
    }

    @Test func aSyntaxErrorIsAFileErrorWithLineAndColumn() throws {
        let message = try fileError("{\"places\": [\n  {\"name\": \"a\"},\n  {\"name\" \"b\"}\n]}", as: "broken.json")
        #expect(message?.hasSuffix(#"broken.json: line 3, column 11: expected ':' after the key "name", found '"'"#) == true, "\(message ?? "")")
    }

    // MARK: - GeoJSON

    @Test func pointFeaturesBecomeRecordsWithCoordinatesFromTheGeometry() throws {
        let outcome = try read(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "sf-1", "geometry": {"type": "Point", "coordinates": [-122.44, 37.76, 12.5]},
               "properties": {"name": "Vulcan Steps", "Kind": "gem", "tags": ["stairs"], "lat": 0}},
              {"type": "Feature", "id": 42, "geometry": {"type": "Point", "coordinates": [2.35, 48.85]},
               "properties": {"name": "Numbered"}},
              {"type": "Feature", "id": "ignored", "geometry": {"type": "Point", "coordinates": [0, 0]},
               "properties": {"name": "Own id", "id": "mine"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 1]}, "properties": null}
            ]}
            """,
            as: "points.geojson"
        )
        #expect(outcome.rowErrors.isEmpty)
        #expect(outcome.records.map(\.line) == [2, 4, 6, 8])
        let steps = try outcome.records[0].draft.validated(now: now)
        #expect(steps.id == "sf-1" && steps.name == "Vulcan Steps" && steps.tags == ["stairs"])
        #expect(steps.coordinate.latitude == 37.76 && steps.coordinate.longitude == -122.44)
        #expect(outcome.records[1].draft.fields["id"] == .text("42"))
        #expect(outcome.records[2].draft.fields["id"] == .text("mine"))
        #expect(outcome.records[3].draft.fields == ["lat": .number(1), "lon": .number(1)])
    }

    @Test func featuresThatAreNotPlacesAreRowErrorsOnTheirLines() throws {
        let outcome = try read(
            """
            {"features": [
              {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}, "properties": {}},
              {"type": "Feature", "geometry": null, "properties": {"name": "nowhere"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": ["1", 2]}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1]}},
              "not a feature",
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": [1]},
              {"type": "Feature", "id": true, "geometry": {"type": "Point", "coordinates": [1, 2]}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [3, 4]}, "properties": {"name": "ok"}}
            ], "type": "FeatureCollection"}
            """,
            as: "mixed.geojson"
        )
        #expect(outcome.rowErrors.map(\.line) == [2, 3, 4, 5, 6, 7, 8])
        #expect(outcome.records.map(\.line) == [9])
        #expect(outcome.rowErrors[0].reason.contains("LineString"))
        #expect(outcome.rowErrors[1].reason.contains("no geometry"))
        #expect(outcome.rowErrors[2].reason.contains("[longitude, latitude]"))
        #expect(outcome.rowErrors[3].field == "coordinates")
        #expect(outcome.rowErrors[4].reason.contains("found a string"))
        #expect(outcome.rowErrors[5].reason.contains("properties must be an object"))
        #expect(outcome.rowErrors[6].field == "id")
    }

    @Test(
        arguments: [
            (#"{"type": "Feature", "geometry": null, "properties": {}}"#, "found a Feature"),
            (#"[{"type": "Feature"}]"#, "found an array"),
            (#"{"type": "FeatureCollection"}"#, "no \"features\" array"),
            (#"{"type": "FeatureCollection", "features": {}}"#, "no \"features\" array"),
        ]
    )
    func aDocumentThatIsNotAFeatureCollectionIsAFileError(text: String, fragment: String) throws {
        let message = try fileError(text, as: "wrong.geojson")
        #expect(message?.contains("wrong.geojson: ") == true)
        #expect(message?.contains(fragment) == true, "\(message ?? "")")
    }
}
