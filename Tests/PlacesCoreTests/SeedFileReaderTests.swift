import Foundation
import Testing

@testable import PlacesCore

/// A fresh folder under the system's temporary folder, for one test's files.
struct SeedTestFolder {
    let path: String

    init() throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("places-seed-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `text` (UTF-8) to `name` (which may contain `/`), creating folders; returns the file's path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        try write(bytes: Array(text.utf8), to: name)
    }

    @discardableResult
    func write(bytes: [UInt8], to name: String) throws -> String {
        let file = (path as NSString).appendingPathComponent(name)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Everything `SeedFileReader.read` hands over for one file.
struct SeedReadOutcome {
    var records: [SeedRecord] = []
    var rowErrors: [SeedRowError] = []
    /// Record lines and row-error lines, in delivery order.
    var lines: [Int] = []

    init(path: String) throws {
        try SeedFileReader.read(path: path) { result in
            switch result {
            case .success(let record):
                records.append(record)
                lines.append(record.line)
            case .failure(let error):
                rowErrors.append(error)
                lines.append(error.line)
            }
        }
    }
}

/// The `invalid_input` message `body` throws, or nil when it throws nothing or something else.
func seedFileErrorMessage(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as PlacesError {
        return error.code == .invalidInput ? error.message : nil
    } catch {
        return nil
    }
}

@Suite("Seed files")
struct SeedFileReaderTests {
    struct Abort: Error, Equatable {}

    @Test func foldersExpandRecursivelySortedSkippingHiddenAndOtherFiles() throws {
        let folder = try SeedTestFolder()
        defer { folder.remove() }
        for name in [
            "b.csv", "a.json", "sub/z.geojson", "sub/deeper/c.CSV", "README.md", ".hidden.json", ".git/x.json", "sub/.cache/y.csv",
            "sub.json",
        ] {
            try folder.write("x", to: name)
        }
        let files = try SeedFileReader.files(in: [folder.path])
        let relative = files.map { String($0.dropFirst(folder.path.count + 1)) }
        #expect(relative == ["a.json", "b.csv", "sub.json", "sub/deeper/c.CSV", "sub/z.geojson"])
        let withSlash = try SeedFileReader.files(in: [folder.path + "/"])
        #expect(withSlash.map { String($0.dropFirst(folder.path.count + 1)) } == relative)
    }

    @Test func filesGivenDirectlyKeepTheirOrderAndAppearOnce() throws {
        let folder = try SeedTestFolder()
        defer { folder.remove() }
        let b = try folder.write("x", to: "b.csv")
        let a = try folder.write("x", to: "sub/a.json")
        #expect(try SeedFileReader.files(in: [b, a, b]) == [b, a])
        #expect(try SeedFileReader.files(in: [b, folder.path]) == [b, a])
    }

    @Test func anUnknownTypeGivenDirectlyIsAnError() throws {
        let folder = try SeedTestFolder()
        defer { folder.remove() }
        let notes = try folder.write("x", to: "notes.txt")
        let message = seedFileErrorMessage { _ = try SeedFileReader.files(in: [notes]) }
        #expect(message?.contains("notes.txt: unknown file type") == true)
        #expect(seedFileErrorMessage { try SeedFileReader.read(path: notes) { _ in } }?.contains("unknown file type") == true)
    }

    @Test func missingPathsAreAnErrorNamingEachOfThem() throws {
        let folder = try SeedTestFolder()
        defer { folder.remove() }
        let present = try folder.write("x", to: "a.csv")
        let message = seedFileErrorMessage { _ = try SeedFileReader.files(in: [present, folder.path + "/nope.csv", folder.path + "/gone"]) }
        #expect(message?.contains("nope.csv") == true && message?.contains("gone") == true)
        #expect(seedFileErrorMessage { try SeedFileReader.read(path: folder.path + "/nope.csv") { _ in } }?.contains("cannot read") == true)
    }

    @Test(arguments: ["", "\u{FEFF}", " \n\r\n\t"])
    func anEmptyFileIsAFileLevelError(text: String) throws {
        let folder = try SeedTestFolder()
        defer { folder.remove() }
        for name in ["e.csv", "e.json", "e.geojson"] {
            let path = try folder.write(text, to: name)
            #expect(seedFileErrorMessage { _ = try SeedReadOutcome(path: path) } == "\(path): the file is empty")
        }
    }

    @Test func textThatIsNotUTF8IsAFileLevelErrorWithItsLine() throws {
        let folder = try SeedTestFolder()
        defer { folder.remove() }
        let latin1: [UInt8] = Array("name,lat,lon\nCaf".utf8) + [0xE9] + Array(",1,2\n".utf8)
        let path = try folder.write(bytes: latin1, to: "latin1.csv")
        let message = seedFileErrorMessage { _ = try SeedReadOutcome(path: path) }
        #expect(message?.hasPrefix("\(path): line 2: not UTF-8") == true)
    }

    @Test func whatTheBodyThrowsIsRethrownUnchangedAndStopsReading() throws {
        let folder = try SeedTestFolder()
        defer { folder.remove() }
        let csv = try folder.write("name,lat,lon\na,1,2\nb,3,4\n", to: "a.csv")
        let json = try folder.write(#"[{"name": "a"}, {"name": "b"}]"#, to: "a.json")
        for path in [csv, json] {
            var calls = 0
            #expect(throws: Abort()) {
                try SeedFileReader.read(path: path) { _ in
                    calls += 1
                    throw Abort()
                }
            }
            #expect(calls == 1)
        }
    }

    @Test(arguments: [
        ("name", "name"), ("Name", "name"), ("price_level", "pricelevel"), ("opening-hours", "openinghours"),
        ("time zone", "timezone"), ("Größe", "größe"), ("ÀB_c", "àbc"),
    ])
    func fieldNamesFold(name: String, folded: String) {
        #expect(PlaceDraft.normalise(name) == folded)
    }
}
