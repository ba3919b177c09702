import Foundation
import PlacesCore

/// How `places nearby` prints an answer: a table for people, or the API's JSON.
enum NearbyOutput {
    /// The answer as the HTTP API's JSON body, one line.
    static func json(_ answer: NearbyAnswer) throws -> String {
        String(decoding: try PlacesJSON.makeEncoder().encode(answer), as: UTF8.self) + "\n"
    }

    /// The answer as an aligned table, nearest first.
    static func table(_ answer: NearbyAnswer) -> String {
        let radius = format(answer.radiusMiles, decimals: 2)
        var header = "\(answer.count) place\(answer.count == 1 ? "" : "s") within \(radius) mi of "
        header += "\(format(answer.center.lat, decimals: 5)), \(format(answer.center.lon, decimals: 5))"
        if answer.capped { header += " (radius capped at 20 mi)" }
        var rows = [["MILES", "KM", "KIND", "NAME", "CITY", "ID"]]
        for place in answer.places {
            rows.append([
                format(place.distanceMiles, decimals: 2), format(place.distanceKm, decimals: 2), place.kind.rawValue,
                place.name, place.city ?? "", place.id,
            ])
        }
        guard answer.count > 0 else { return header + "\n" }
        var widths = Array(repeating: 0, count: rows[0].count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        var lines = [header]
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column < 2 ? pad + cell : cell + pad
            }
            lines.append(cells.joined(separator: "  ").trimmingCharacters(in: .whitespaces))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func format(_ value: Double, decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
