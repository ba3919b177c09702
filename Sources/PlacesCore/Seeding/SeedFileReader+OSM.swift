import Foundation
import GeoIndex

extension SeedFileReader {
    /// Reads OpenStreetMap features, one GeoJSON feature a line (RFC 8142, with or without its record separators), as
    /// osmium exports them: each named feature the tag table maps becomes a record; the others are counted in
    /// `report` by why they were skipped. Reads `descriptor` to its end in constant memory.
    static func readOSMFeatures(
        from descriptor: Int32,
        path: String,
        report: inout OpenStreetMapReport,
        _ body: (Result<SeedRecord, SeedRowError>) throws -> Void
    ) throws {
        var lines = LineStream(descriptor: descriptor)
        var extent = OSMFeature.Extent()
        defer {
            report.extent = extent.box
        }
        do {
            while try lines.next({ line, number in
                var bytes = line
                // RFC 8142 starts each text with a record separator (0x1E); osmium writes it unless told not to.
                while let first = bytes.first, first == 0x1E || first == 0x20 || first == 0x09 {
                    bytes = UnsafeBufferPointer(rebasing: bytes.dropFirst())
                }
                if UTF8Text.isBlank(bytes) { return }
                report.features += 1
                let feature: OSMFeature
                do {
                    feature = try OSMFeature.read(JSONText.parse(bytes: bytes)).get()
                } catch let error as OSMFeature.FeatureError {
                    report.skip(.invalid, because: "line \(number): \(error.reason)")
                    return
                } catch {
                    report.skip(.invalid, because: "line \(number): not a JSON text (\(error))")
                    return
                }
                extent.add((feature.extent.west, feature.extent.south))
                extent.add((feature.extent.east, feature.extent.north))
                switch OSMPlaceTags.map(id: feature.object, point: feature.point, tags: feature.tags) {
                case .failure(let skip):
                    report.skip(skip)
                case .success(let mapped):
                    if mapped.hoursNotUnderstood { report.hoursNotUnderstood += 1 }
                    let draft = PlaceDraft(normalisedFields: mapped.fields)
                    try body(.success(SeedRecord(line: number, draft: draft, forgiving: true, openingHours: mapped.openingHours)))
                }
            }) {}
        } catch let error as LineStream.LineTooLong {
            throw fileError(path, line: error.line, "a line longer than \(LineStream.maximumLength >> 20) MiB")
        } catch let error as LineStream.ReadFailed {
            throw fileError(path, "cannot read: \(error.reason)")
        }
    }

    /// Reads a `.geojsonseq` file of OpenStreetMap features as it streams.
    static func readGeoJSONSequence(path: String, report: inout OpenStreetMapReport, _ body: (Result<SeedRecord, SeedRowError>) throws -> Void) throws {
        try refuseFolder(path)
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw fileError(path, "cannot read: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        try readOSMFeatures(from: descriptor, path: path, report: &report, body)
    }

    /// Reads an OpenStreetMap extract through osmium's export.
    static func readOpenStreetMap(path: String, report: inout OpenStreetMapReport, _ body: (Result<SeedRecord, SeedRowError>) throws -> Void) throws {
        guard FileManager.default.isReadableFile(atPath: path) else { throw fileError(path, "cannot read the file") }
        try Osmium.export(path) { descriptor in
            try readOSMFeatures(from: descriptor, path: path, report: &report, body)
        }
    }
}

/// What importing an OpenStreetMap file found beyond the places it wrote: the features read, those skipped and why,
/// the hours and values left out, the box the features cover, and the places of earlier imports it no longer holds.
public struct OpenStreetMapReport: Sendable, Hashable {
    /// How many features were read.
    public var features = 0
    /// Features that are no place, by why.
    public var skipped: [OSMPlaceTags.Skip: Int] = [:]
    /// A few reasons of features skipped as invalid, for the operator to look at.
    public var examples: [String] = []
    /// Places kept without hours because their `opening_hours` is outside the subset Places reads.
    public var hoursNotUnderstood = 0
    /// Values left out of places because a place's rules refuse them (a website without http://), by field.
    public var droppedValues: [String: Int] = [:]
    /// The box the file's features cover; places of earlier imports are looked for only inside it.
    public var extent: GeoBox?
    /// The places of earlier OpenStreetMap imports inside `extent` that this file no longer holds.
    public var gone: [String] = []
    /// True when `gone` was removed (`--prune`).
    public var pruned = false

    /// How many examples are kept.
    static let exampleCount = 5

    public init() {}

    /// All features skipped.
    public var skippedCount: Int { skipped.values.reduce(0, +) }

    /// Adds the features refused later (by the place's rules, by the store) to those the reader skipped.
    mutating func merge(refusals: OpenStreetMapReport) {
        for (reason, count) in refusals.skipped { skipped[reason, default: 0] += count }
        for (field, count) in refusals.droppedValues { droppedValues[field, default: 0] += count }
        for example in refusals.examples where examples.count < OpenStreetMapReport.exampleCount { examples.append(example) }
    }

    mutating func skip(_ reason: OSMPlaceTags.Skip, because example: String? = nil) {
        skipped[reason, default: 0] += 1
        if let example, examples.count < OpenStreetMapReport.exampleCount { examples.append(example) }
    }
}
