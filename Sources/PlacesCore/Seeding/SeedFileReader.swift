import Foundation

/// Reads seed files (our JSON, CSV, GeoJSON; OpenStreetMap's extracts and GeoJSON text sequences) into place-shaped records, streaming them in file order.
///
/// A problem with the whole file (unreadable, unknown type, not UTF-8, empty, a JSON syntax error, a CSV header
/// without the required columns, the wrong top-level shape) throws `PlacesError(.invalidInput, "<path>: …")`.
/// A problem with one record is handed to the caller as a `SeedRowError`, so it can stop or skip it.
/// Records are delivered as the file is read, so a file-level error may come after some records: callers write a
/// file inside one transaction and roll it back on any error.
public enum SeedFileReader {
    /// Reads the file at `path` (its format chosen by extension) and hands each record to `body`, in file order.
    ///
    /// Rethrows whatever `body` throws, unchanged, and stops there.
    public static func read(path: String, _ body: (Result<SeedRecord, SeedRowError>) throws -> Void) throws {
        var report = OpenStreetMapReport()
        try read(path: path, report: &report, body)
    }

    /// Reads the file at `path` as `read(path:_:)` does; an OpenStreetMap file's features that are no place are counted
    /// in `report` instead of handed to `body`.
    public static func read(
        path: String,
        report: inout OpenStreetMapReport,
        _ body: (Result<SeedRecord, SeedRowError>) throws -> Void
    ) throws {
        guard let format = SeedFormat(path: path) else { throw unknownType(path) }
        // OpenStreetMap's files are read as they stream: a city's extract is larger than memory should hold twice.
        switch format {
        case .geojsonSequence: return try readGeoJSONSequence(path: path, report: &report, body)
        case .openStreetMap: return try readOpenStreetMap(path: path, report: &report, body)
        case .csv, .json, .geojson: break
        }
        let bytes = try contents(of: path)
        let start = try bytes.withUnsafeBufferPointer { buffer throws(PlacesError) -> Int in
            let start = UTF8Text.byteOrderMarkLength(buffer)
            if UTF8Text.isBlank(buffer, from: start) { throw fileError(path, "the file is empty") }
            if let bad = UTF8Text.firstInvalidOffset(buffer, from: start) {
                let (line, column) = UTF8Text.position(of: bad, in: buffer)
                throw fileError(path, line: line, "not UTF-8 text (an invalid byte in column \(column)); save the file as UTF-8")
            }
            return start
        }
        switch format {
        case .csv:
            try bytes.withUnsafeBufferPointer { buffer in try readCSV(buffer, from: start, path: path, body) }
        case .json:
            try readPlacesJSON(bytes, path: path, body)
        case .geojson:
            try readGeoJSON(bytes, path: path, body)
        case .geojsonSequence, .openStreetMap:
            break
        }
    }

    /// The seed files that `paths` name, in load order: each folder expanded (recursively, its files sorted by path,
    /// only seed files (`.json`, `.csv`, `.geojson`, `.geojsonseq` and OpenStreetMap's), hidden files and folders skipped), each file kept as given.
    ///
    /// Throws `invalid_input` for a file given directly whose type is unknown, and for paths that do not exist (naming
    /// them all). A file named twice is kept once, where it first appears.
    public static func files(in paths: [String]) throws(PlacesError) -> [String] {
        let fileManager = FileManager.default
        let missing = paths.filter { !fileManager.fileExists(atPath: $0) }
        guard missing.isEmpty else {
            throw PlacesError(.invalidInput, "no such file or folder: \(missing.joined(separator: ", "))")
        }
        var files: [String] = []
        var seen: Set<String> = []
        for path in paths {
            var isFolder: ObjCBool = false
            _ = fileManager.fileExists(atPath: path, isDirectory: &isFolder)
            if isFolder.boolValue {
                var found: [String] = []
                var visited: Set<String> = []
                try collectFiles(in: path, into: &found, visited: &visited)
                for file in found.sorted() where seen.insert(file).inserted { files.append(file) }
            } else {
                guard SeedFormat(path: path) != nil else { throw unknownType(path) }
                if seen.insert(path).inserted { files.append(path) }
            }
        }
        return files
    }

    // MARK: - Files

    private static func collectFiles(in folder: String, into found: inout [String], visited: inout Set<String>) throws(PlacesError) {
        // A symbolic link back up the tree must not loop forever.
        guard visited.insert((folder as NSString).resolvingSymlinksInPath).inserted else { return }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw fileError(folder, "cannot list the folder")
        }
        for name in names where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                try collectFiles(in: path, into: &found, visited: &visited)
            } else if SeedFormat(path: path) != nil {
                found.append(path)
            }
        }
    }

    /// The whole file, read once.
    static func contents(of path: String) throws(PlacesError) -> [UInt8] {
        try refuseFolder(path)
        guard let file = fopen(path, "rb") else { throw fileError(path, "cannot read: \(String(cString: strerror(errno)))") }
        defer { fclose(file) }
        var status = stat()
        let expected = fstat(fileno(file), &status) == 0 ? max(Int(status.st_size), 0) : 0
        // One read of the expected size (+1 to notice a file that grew); then chunks until the end.
        var bytes = [UInt8](unsafeUninitializedCapacity: expected + 1) { buffer, count in
            count = fread(buffer.baseAddress, 1, buffer.count, file)
        }
        if bytes.count == expected + 1 {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                if count == 0 { break }
                bytes.append(contentsOf: chunk[..<count])
            }
        }
        if ferror(file) != 0 { throw fileError(path, "cannot read: \(String(cString: strerror(errno)))") }
        return bytes
    }

    /// Throws `invalid_input` when `path` names a folder, which a file's reader cannot open as one.
    static func refuseFolder(_ path: String) throws(PlacesError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw fileError(path, "is a folder, not a file")
        }
    }

    // MARK: - Errors

    /// `invalid_input` with `<path>: <reason>`, or `<path>: line L[, column C]: <reason>` when the place is known.
    static func fileError(_ path: String, line: Int? = nil, column: Int? = nil, _ reason: String) -> PlacesError {
        var place = path
        if let line { place += ": line \(line)" }
        if let column { place += ", column \(column)" }
        return PlacesError(.invalidInput, "\(place): \(reason)")
    }

    private static func unknownType(_ path: String) -> PlacesError {
        fileError(path, "unknown file type; seed files end in .json, .csv, .geojson, .geojsonseq or OpenStreetMap's .osm.pbf, .osm, .osm.bz2")
    }
}
