extension SeedFileReader {
    /// The columns a CSV seed must have, each as its accepted (normalised) names.
    static let requiredCSVColumns: [(label: String, names: [String])] = [
        ("latitude (lat or latitude)", ["lat", "latitude"]),
        ("longitude (lon, lng or longitude)", ["lon", "lng", "longitude"]),
        ("name", ["name"]),
    ]

    /// Reads CSV with a header row: one record per row, cells keyed by the header's normalised names.
    static func readCSV(
        _ bytes: UnsafeBufferPointer<UInt8>,
        from start: Int,
        path: String,
        _ body: (Result<SeedRecord, SeedRowError>) throws -> Void
    ) throws {
        var scanner = CSVScanner(bytes: bytes, offset: start)
        var cells: [FieldValue] = []
        let headerLine: Int
        switch scanner.next(into: &cells) {
        case .record(let line): headerLine = line
        case .malformed(let line, let reason): throw fileError(path, line: line, "the header row: \(reason)")
        case .end: throw fileError(path, "the file is empty")
        }
        let header = try CSVHeader(cells: cells, line: headerLine, path: path)

        while true {
            switch scanner.next(into: &cells) {
            case .end:
                return
            case .malformed(let line, let reason):
                try body(.failure(SeedRowError(file: path, line: line, reason: reason)))
            case .record(let line):
                guard cells.count == header.columnCount else {
                    let reason = "the row has \(cells.count) field\(cells.count == 1 ? "" : "s"), the header has \(header.columnCount)"
                    try body(.failure(SeedRowError(file: path, line: line, reason: reason)))
                    continue
                }
                try body(.success(SeedRecord(line: line, draft: PlaceDraft(normalisedFields: header.fields(of: cells)))))
            }
        }
    }
}

/// A CSV header, normalised once, that turns each row's cells into draft fields without hashing a name per cell.
struct CSVHeader {
    /// How many cells each row must have.
    let columnCount: Int
    /// Every named column's field, `.null`; each row starts from a copy.
    private let template: [String: FieldValue]
    /// For each column, where its value goes in `template` (nil for a column without a name).
    private let slots: [Dictionary<String, FieldValue>.Index?]

    /// Normalises the header's names and checks them: no name twice, and the required columns present.
    init(cells: [FieldValue], line: Int, path: String) throws(PlacesError) {
        let names = cells.map { cell -> String in
            guard case .text(let text) = cell else { return "" }
            return PlaceDraft.normalise(text.trimmingWhitespace())
        }
        var template: [String: FieldValue] = [:]
        for (column, name) in names.enumerated() where !name.isEmpty {
            if template.updateValue(.null, forKey: name) != nil {
                let first = (names.firstIndex(of: name) ?? 0) + 1
                throw SeedFileReader.fileError(path, line: line, "columns \(first) and \(column + 1) of the header both name '\(name)'")
            }
        }
        let missing = SeedFileReader.requiredCSVColumns.filter { column in !column.names.contains { template[$0] != nil } }
        guard missing.isEmpty else {
            let labels = missing.map(\.label).joined(separator: ", ")
            throw SeedFileReader.fileError(path, line: line, "the header lacks the column\(missing.count == 1 ? "" : "s") \(labels)")
        }
        self.columnCount = names.count
        self.template = template
        self.slots = names.map { $0.isEmpty ? nil : template.index(forKey: $0) }
    }

    /// The draft fields of a row with `columnCount` cells.
    func fields(of cells: [FieldValue]) -> [String: FieldValue] {
        var fields = template
        // A copied dictionary keeps its layout, so the template's indices address the copy: no key is hashed again.
        for (column, cell) in cells.enumerated() {
            if case .null = cell { continue }
            if let slot = slots[column] { fields.values[slot] = cell }
        }
        return fields
    }
}
