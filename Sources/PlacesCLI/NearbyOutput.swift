import Foundation
import PlacesCore

/// How `places nearby` prints an answer: a table for people, or the API's JSON.
enum NearbyOutput {
    /// The answer as the HTTP API's JSON body, one line.
    static func json(_ answer: NearbyAnswer) -> String {
        String(decoding: answer.json(), as: UTF8.self) + "\n"
    }

    /// The answer as an aligned table in its order (nearest first, or best first with the score shown): distances in
    /// `units`, or in both miles and kilometres.
    static func table(_ answer: NearbyAnswer, units: UserSettings.Units? = nil) -> String {
        let radius =
            units == .km ? format(answer.radiusMeters / 1_000, decimals: 2) + " km" : format(answer.radiusMiles, decimals: 2) + " mi"
        var header = "\(answer.count) place\(answer.count == 1 ? "" : "s") within \(radius) of "
        header += "\(format(answer.center.lat, decimals: 5)), \(format(answer.center.lon, decimals: 5))"
        if answer.capped { header += " (radius capped at 20 mi)" }
        var distanceColumns: [(title: String, value: (NearbyPlace) -> Double)] =
            switch units {
            case .mi: [("MILES", \.distanceMiles)]
            case .km: [("KM", \.distanceKm)]
            case nil: [("MILES", \.distanceMiles), ("KM", \.distanceKm)]
            }
        if answer.sort == .score { distanceColumns.insert(("SCORE", \.score), at: 0) }
        let numeric = distanceColumns.count
        var rows = [distanceColumns.map(\.title) + ["KIND", "NAME", "CITY", "ID"]]
        for place in answer.places {
            rows.append(
                distanceColumns.map { format($0.value(place), decimals: 2) } + [place.kind.rawValue, place.name, place.city ?? "", place.id]
            )
        }
        guard answer.count > 0 else { return header + "\n" }
        return ([header] + aligned(rows, numeric: numeric)).joined(separator: "\n") + "\n"
    }

    /// The rows as lines of aligned columns, the first `numeric` ones aligned right.
    static func aligned(_ rows: [[String]], numeric: Int) -> [String] {
        var widths = Array(repeating: 0, count: rows.first?.count ?? 0)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return rows.map { row in
            let cells = row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column < numeric ? pad + cell : cell + pad
            }
            return cells.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }

    /// A meet's answer as an aligned table, the fairest first: the farthest origin's distance, then each origin's.
    static func table(_ answer: MeetAnswer) -> String {
        let header = "\(answer.places.count) place\(answer.places.count == 1 ? "" : "s") within 20 mi of all \(answer.at.count) origins"
        guard !answer.places.isEmpty else { return header + "\n" }
        var rows = [["FAR MI", "EACH MI", "KIND", "NAME", "CITY", "ID"]]
        for place in answer.places {
            let summary = place.summary
            rows.append([
                format(place.farthest.miles, decimals: 2), place.distances.map { format($0.miles, decimals: 2) }.joined(separator: ","),
                summary.kind.rawValue, summary.name, summary.city ?? "", summary.id,
            ])
        }
        return ([header] + aligned(rows, numeric: 2)).joined(separator: "\n") + "\n"
    }

    static func format(_ value: Double, decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
