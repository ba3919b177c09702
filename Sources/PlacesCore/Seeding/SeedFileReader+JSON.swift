extension SeedFileReader {
    /// Reads our JSON format, `{"places": [{...}, ...]}` or a bare top-level array: one record per place object.
    static func readPlacesJSON(_ bytes: [UInt8], path: String, _ body: (Result<SeedRecord, SeedRowError>) throws -> Void) throws {
        var stream = JSONElementStream(bytes: bytes, member: "places")
        while let element = try next(&stream, path: path) {
            guard case .object(let object) = element.value else {
                let reason = "expected a place object, found \(describe(element.value))"
                try body(.failure(SeedRowError(file: path, line: element.line, reason: reason)))
                continue
            }
            try body(.success(SeedRecord(line: element.line, draft: PlaceDraft(fields: object))))
        }
        guard stream.foundArray else {
            throw fileError(path, #"expected an object with a "places" array, or an array of places, at the top level"#)
        }
    }

    /// Reads a GeoJSON FeatureCollection: one record per Point feature, fields from its properties and geometry.
    static func readGeoJSON(_ bytes: [UInt8], path: String, _ body: (Result<SeedRecord, SeedRowError>) throws -> Void) throws {
        var stream = JSONElementStream(bytes: bytes, member: "features", streamsTopLevelArray: false)
        while let element = try next(&stream, path: path) {
            try body(GeoJSONFeature.record(element.value, line: element.line, path: path))
        }
        guard case .object(let members) = stream.document, members["type"] == .text("FeatureCollection") else {
            let type: String
            if case .object(let members) = stream.document, case .text(let text)? = members["type"] {
                type = "a " + text
            } else {
                type = stream.document.map(describe) ?? "nothing"
            }
            throw fileError(path, "expected a GeoJSON FeatureCollection at the top level, found \(type)")
        }
        guard stream.foundArray else { throw fileError(path, #"the FeatureCollection has no "features" array"#) }
    }

    /// The stream's next element, with a syntax error turned into a file-level error.
    private static func next(_ stream: inout JSONElementStream, path: String) throws(PlacesError) -> JSONElementStream.Element? {
        do {
            return try stream.next()
        } catch {
            throw fileError(path, line: error.line, column: error.column, error.message)
        }
    }

    /// What kind of JSON value this is, for messages.
    static func describe(_ value: FieldValue) -> String {
        switch value {
        case .text: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .list: "an array"
        case .object: "an object"
        case .null: "null"
        }
    }
}

/// One GeoJSON Feature as a seed record.
enum GeoJSONFeature {
    /// The record of a Point feature, or why the feature is not a place.
    static func record(_ value: FieldValue, line: Int, path: String) -> Result<SeedRecord, SeedRowError> {
        func failure(_ reason: String, field: String? = nil) -> Result<SeedRecord, SeedRowError> {
            .failure(SeedRowError(file: path, line: line, reason: reason, field: field))
        }
        guard case .object(let feature) = value else {
            return failure("expected a Feature object, found \(SeedFileReader.describe(value))")
        }
        guard feature["type"] == .text("Feature") else { return failure(#"expected a Feature (an object with "type": "Feature")"#) }

        var fields: [String: FieldValue]
        switch feature["properties"] {
        case .object(let properties)?: fields = PlaceDraft(fields: properties).fields
        case nil, .null?: fields = [:]
        case let other?: return failure("properties must be an object, found \(SeedFileReader.describe(other))")
        }

        guard let geometry = feature["geometry"], geometry != .null else {
            return failure("the feature has no geometry; a place needs a Point")
        }
        guard case .object(let shape) = geometry, case .text(let type)? = shape["type"] else {
            return failure(#"geometry must be an object with a "type""#)
        }
        guard type == "Point" else { return failure("the geometry is a \(type); only Point features are places") }
        // A position is [longitude, latitude] with an optional altitude, which a place does not keep.
        guard case .list(let position)? = shape["coordinates"], position.count >= 2,
            case .number(let longitude) = position[0], case .number(let latitude) = position[1]
        else {
            return failure("a Point's coordinates must be [longitude, latitude] numbers", field: "coordinates")
        }
        fields["lat"] = .number(latitude)
        fields["lon"] = .number(longitude)

        if fields["id"] == nil || fields["id"] == .null {
            switch feature["id"] {
            case .text(let id)?: fields["id"] = .text(id)
            case .number(let number)?: fields["id"] = .text(idText(number))
            case nil, .null?: break
            case let other?: return failure("a feature id must be a string or a number, found \(SeedFileReader.describe(other))", field: "id")
            }
        }
        return .success(SeedRecord(line: line, draft: PlaceDraft(normalisedFields: fields)))
    }

    /// A numeric feature id as text: whole numbers without a fraction (`42`, not `42.0`).
    static func idText(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }
}
