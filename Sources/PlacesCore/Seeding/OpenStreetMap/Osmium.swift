import Foundation

/// osmium-tool, the field's standard program for OpenStreetMap files, run to turn an extract (`.osm.pbf`, `.osm`,
/// `.osm.bz2`) into the GeoJSON text sequence Places reads: `tags-filter` keeps the features `OSMPlaceTags` may map
/// (with the nodes and ways their shapes need), and `export` writes them one a line, closed ways as areas, with only
/// the tags the table reads.
enum Osmium {
    /// The message when the program is missing.
    static let missing = "reading OpenStreetMap extracts needs osmium-tool: install it (Debian and Ubuntu: `apt-get install osmium-tool`; macOS: `brew install osmium-tool`), or give Places a .geojsonseq file exported by osmium"

    /// Runs the export of the extract at `path` and hands `body` the pipe its features come through; `body` reads it to
    /// the end. Throws `invalid_input` naming the file when osmium is missing or cannot read it.
    static func export(_ path: String, _ body: (_ descriptor: Int32) throws -> Void) throws {
        guard let program = locate() else { throw SeedFileReader.fileError(path, missing) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-osm-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw SeedFileReader.fileError(path, "cannot make a temporary folder for osmium: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("osmium.log")
        let filtered = folder.appendingPathComponent("filtered.osm.pbf").path
        let config = folder.appendingPathComponent("export.json")

        try run(program, ["tags-filter", path] + OSMPlaceTags.osmiumFilters + ["--output", filtered, "--overwrite"], log: log, for: path)

        // Closed ways become areas only (a building outline is not also a line); open ways stay lines.
        let settings: [String: Any] = [
            "linear_tags": false, "area_tags": true, "include_tags": OSMPlaceTags.exportedKeys,
        ]
        try JSONSerialization.data(withJSONObject: settings).write(to: config)
        let export = process(program, [
            "export", filtered, "--config", config.path, "--output-format", "geojsonseq",
            "--format-option", "print_record_separator=false", "--add-unique-id", "type_id", "--output", "-",
        ], log: log)
        let pipe = Pipe()
        export.standardOutput = pipe
        try launch(export, for: path)
        let reader = pipe.fileHandleForReading
        do {
            try body(reader.fileDescriptor)
        } catch {
            export.terminate()
            export.waitUntilExit()
            try? reader.close()
            throw error
        }
        export.waitUntilExit()
        try? reader.close()
        try check(export, log: log, for: path)
    }

    /// `osmium` on the `PATH`, or nil.
    static func locate() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = String(folder) + "/osmium"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }

    private static func process(_ program: URL, _ arguments: [String], log: URL) -> Process {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        if !FileManager.default.fileExists(atPath: log.path) { FileManager.default.createFile(atPath: log.path, contents: nil) }
        if let handle = try? FileHandle(forWritingTo: log) {
            handle.seekToEndOfFile()
            process.standardError = handle
        }
        process.standardOutput = FileHandle.nullDevice
        return process
    }

    private static func run(_ program: URL, _ arguments: [String], log: URL, for path: String) throws {
        let process = process(program, arguments, log: log)
        try launch(process, for: path)
        process.waitUntilExit()
        try check(process, log: log, for: path)
    }

    private static func launch(_ process: Process, for path: String) throws {
        do {
            try process.run()
        } catch {
            throw SeedFileReader.fileError(path, "cannot run osmium: \(error.localizedDescription)")
        }
    }

    /// Throws with osmium's own last words when it failed.
    private static func check(_ process: Process, log: URL, for path: String) throws {
        guard process.terminationReason != .exit || process.terminationStatus != 0 else { return }
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let lines = said.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        let reason = lines.suffix(3).joined(separator: " ")
        throw SeedFileReader.fileError(path, "osmium could not read it" + (reason.isEmpty ? "" : ": " + reason))
    }
}
