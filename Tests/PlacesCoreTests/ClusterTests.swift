import Foundation
import GeoIndex
import PlacesTestSupport
import Testing

@testable import PlacesCore

/// Clusters against a brute force: every place in the box passing the filter counted once, in the cell of the zoom
/// that holds it, each cluster with its members' box, their southernmost member, and their mean on the sphere; from
/// the counts kept per cell and from a scan alike, across the antimeridian and the poles, and as places change.
@Suite("Clusters")
struct ClusterTests {
    static func places(count: Int, seed: UInt64) -> [PlaceSummary] {
        var rng = SplitMix64(seed: seed)
        let centres = [(37.77, -122.42, 0.3), (-17.8, 180.0, 0.4), (89.5, 0, 1.0), (-88, 40, 3.0), (0, 0, 40.0), (40.7, -74.0, 5.0)]
        return (0..<count).map { i in
            let (lat, lon, spread) = centres[i % centres.count]
            var summary = PlaceSummary(
                id: "p\(i)",
                kind: i % 3 == 0 ? .restaurant : .gem,
                name: "Place \(i)",
                coordinate: rng.coordinate(near: Coordinate(latitude: lat, longitude: lon), latitudeSpread: spread, longitudeSpread: spread)
            )
            summary.tags = i % 4 == 0 ? ["views"] : []
            return summary
        }
    }

    /// What a brute force finds for one cell.
    struct Expected: Equatable, CustomStringConvertible {
        var count = 0
        var south = 90.0, north = -90.0, west = 180.0, east = -180.0
        var member = ""
        var memberLatitude = 91.0
        var x = 0.0, y = 0.0, z = 0.0

        var description: String { "\(count) [\(west),\(south),\(east),\(north)] \(member)" }

        static func == (a: Expected, b: Expected) -> Bool {
            a.count == b.count && a.south == b.south && a.north == b.north && a.west == b.west && a.east == b.east && a.member == b.member
        }
    }

    static func bruteForce(_ places: [PlaceSummary], _ query: ClusterQuery) -> [MapGrid.Cell: Expected] {
        var cells: [MapGrid.Cell: Expected] = [:]
        for place in places where query.box.contains(place.coordinate) {
            if let kind = query.filter.kind, place.kind != kind { continue }
            if !query.filter.tags.allSatisfy(place.tags.contains) { continue }
            let c = place.coordinate
            var e = cells[MapGrid.cell(c, zoom: query.zoom), default: Expected()]
            e.count += 1
            e.south = min(e.south, c.latitude)
            e.north = max(e.north, c.latitude)
            e.west = min(e.west, c.longitude)
            e.east = max(e.east, c.longitude)
            if c.latitude < e.memberLatitude || (c.latitude == e.memberLatitude && place.id < e.member) {
                e.memberLatitude = c.latitude
                e.member = place.id
            }
            let v = Geodesy.unitVector(c)
            e.x += v.x
            e.y += v.y
            e.z += v.z
            cells[MapGrid.cell(c, zoom: query.zoom)] = e
        }
        return cells
    }

    static func check(_ index: PlaceIndex, _ places: [PlaceSummary], _ query: ClusterQuery, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = bruteForce(places, query)
        let answer = index.clusters(query)
        #expect(answer.count == expected.values.reduce(0) { $0 + $1.count }, "\(query.box) zoom \(query.zoom)", sourceLocation: sourceLocation)
        #expect(answer.features.count == expected.count, "\(query.box) zoom \(query.zoom)", sourceLocation: sourceLocation)
        let byID = Dictionary(uniqueKeysWithValues: places.map { ($0.id, $0) })
        for feature in answer.features {
            switch feature {
            case .place(let place):
                let cell = MapGrid.cell(place.summary.coordinate, zoom: query.zoom)
                #expect(expected[cell]?.count == 1 && expected[cell]?.member == place.summary.id, sourceLocation: sourceLocation)
            case .cluster(let cell, let count, let center, let bounds, let memberID):
                var got = Expected(count: count, south: bounds.south, north: bounds.north, west: bounds.west, east: bounds.east)
                got.member = memberID
                let wanted = expected[cell]
                #expect(
                    got == wanted,
                    "cell \(cell) zoom \(query.zoom): got \(got), wanted \(String(describing: wanted))",
                    sourceLocation: sourceLocation
                )
                if let wanted, let mean = Geodesy.coordinate(x: wanted.x, y: wanted.y, z: wanted.z) {
                    #expect(
                        Geodesy.distanceMeters(mean, center) < 0.01,
                        "cell \(cell): centre \(center), mean \(mean)",
                        sourceLocation: sourceLocation
                    )
                }
                #expect(byID[memberID] != nil, sourceLocation: sourceLocation)
            }
        }
    }

    static let boxes = [
        GeoBox(west: -180, south: -90, east: 180, north: 90),
        GeoBox(west: -122.6, south: 37.6, east: -122.3, north: 37.9),
        GeoBox(west: -122.51, south: 37.71, east: -122.33, north: 37.83),
        GeoBox(west: 179.7, south: -18.1, east: -179.8, north: -17.5),
        GeoBox(west: 170, south: -30, east: -170, north: 0),
        GeoBox(west: -180, south: 85.0511287798066, east: 180, north: 90),
        GeoBox(west: -30, south: -20, east: 25, north: 35),
        GeoBox(west: -75.3, south: 36, east: -70, north: 44),
    ]

    @Test("counts, boxes, members and centres match a brute force at every zoom", arguments: [nil, PlaceKind.gem])
    func matchesBruteForce(kind: PlaceKind?) throws {
        let places = Self.places(count: 4_000, seed: 21)
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: places, revision: 1))
        for box in Self.boxes {
            for zoom in [0, 1, 3, 4, 6, 8, 10, 11, 13] where MapGrid.cellCount(in: box, zoom: zoom) <= ClusterQuery.maximumCells {
                Self.check(index, places, try ClusterQuery(box: box, zoom: zoom, filter: PlaceFilter(kind: kind)))
            }
        }
    }

    /// Boxes across the antimeridian that wrap almost the whole world: a zoomed-out map centred on the Pacific asks for
    /// them, and their two runs of columns meet inside one column (or touch), which must be counted once.
    static let wrappingBoxes = [
        GeoBox(west: 179.99, south: -90, east: 179.98, north: 90),
        GeoBox(west: -170, south: -90, east: -171, north: 90),
        GeoBox(west: -179.99, south: -85, east: -180, north: 85),
        GeoBox(west: 0.001, south: -60, east: 0, north: 70),
        GeoBox(west: 45, south: -89, east: 44.9999, north: 89),
        GeoBox(west: 180, south: -90, east: 179.999, north: 90),
    ]

    @Test("boxes that wrap almost the whole world count each place once, at every zoom", arguments: [nil, PlaceKind.gem])
    func wrappingBoxesMatchBruteForce(kind: PlaceKind?) throws {
        let places = Self.places(count: 3_000, seed: 25)
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: places, revision: 1))
        var checked = 0
        for box in Self.wrappingBoxes {
            #expect(box.crossesAntimeridian)
            for zoom in MapGrid.zooms where MapGrid.cellCount(in: box, zoom: zoom) <= ClusterQuery.maximumCells {
                let cells = MapGrid.cells(in: box, zoom: zoom)
                #expect(Set(cells).count == cells.count, "\(box) zoom \(zoom): a cell listed twice")
                #expect(cells.count == MapGrid.cellCount(in: box, zoom: zoom))
                Self.check(index, places, try ClusterQuery(box: box, zoom: zoom, filter: PlaceFilter(kind: kind)))
                var filter = PlaceFilter(kind: kind)
                filter.tags = ["views"]
                Self.check(index, places, try ClusterQuery(box: box, zoom: zoom, filter: filter))
                checked += 1
            }
        }
        #expect(checked >= Self.wrappingBoxes.count * 5)
    }

    @Test("a filter besides kind scans the box and agrees")
    func otherFiltersScan() throws {
        let places = Self.places(count: 3_000, seed: 22)
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: places, revision: 1))
        var filter = PlaceFilter()
        filter.tags = ["views"]
        for box in Self.boxes {
            for zoom in [2, 5, 9] where MapGrid.cellCount(in: box, zoom: zoom) <= ClusterQuery.maximumCells {
                Self.check(index, places, try ClusterQuery(box: box, zoom: zoom, filter: filter))
            }
        }
    }

    /// 150 random changes to `places` (moves, changes of kind, deletions, new ratings and new places), made to the array and
    /// returned as the feed would send them: a place deleted after it changed in the same set stays deleted, and one
    /// changed after it was deleted does not come back.
    static func changeSet(_ places: inout [PlaceSummary], revision: Int, _ rng: inout SplitMix64) -> PlaceChanges {
        var upserted: [PlaceSummary] = []
        var deleted: [String] = []
        for _ in 0..<150 {
            let i = Int.random(in: 0..<places.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0:
                places[i].coordinate = Self.places(count: 6, seed: rng.next())[i % 6].coordinate
                upserted.append(places[i])
            case 1:
                places[i].kind = places[i].kind == .gem ? .restaurant : .gem
                upserted.append(places[i])
            case 2:
                deleted.append(places[i].id)
                places.remove(at: i)
            case 3:
                let ratings = Int(rng.next() % 4)
                places[i].rating = RatingAggregate(count: ratings, sum: ratings * Int(1 + rng.next() % 5))
                upserted.append(places[i])
            default:
                var fresh = Self.places(count: 6, seed: rng.next())[revision % 6]
                fresh.id = "new-\(revision)-\(rng.next() % 1_000_000)"
                let ratings = Int(rng.next() % 4)
                fresh.rating = RatingAggregate(count: ratings, sum: ratings * Int(1 + rng.next() % 5))
                places.append(fresh)
                upserted.append(fresh)
            }
        }
        let gone = Set(deleted)
        places = places.filter { !gone.contains($0.id) }
        return PlaceChanges(upserted: upserted.filter { !gone.contains($0.id) }, deleted: deleted, revision: Int64(revision))
    }

    @Test("the counts follow the places as they are added, moved, change kind and are deleted")
    func countsFollowChanges() throws {
        var places = Self.places(count: 2_000, seed: 23)
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: places, revision: 1))
        var rng = SplitMix64(seed: 24)
        for revision in 2...6 {
            index.apply(Self.changeSet(&places, revision: revision, &rng))
            for box in Self.boxes.prefix(5) {
                for zoom in [1, 4, 10] where MapGrid.cellCount(in: box, zoom: zoom) <= ClusterQuery.maximumCells {
                    Self.check(index, places, try ClusterQuery(box: box, zoom: zoom, filter: PlaceFilter(kind: revision % 2 == 0 ? nil : .gem)))
                }
            }
        }
    }

    @Test("bad queries name their field")
    func badQueries() throws {
        for (bbox, zoom, field) in [
            ("0,0,1,1", nil, "zoom"), ("0,0,1,1", "21", "zoom"), ("0,0,1,1", "-1", "zoom"), ("0,0,1,1", "1.5", "zoom"),
            ("0,1,1,0", "3", "bbox"), ("-180,-90,180,90", "12", "bbox"),
        ] as [(String, String?, String)] {
            do {
                _ = try ClusterQuery.parse(bbox: bbox, zoom: zoom, filter: PlaceFilter())
                Issue.record("\(bbox) \(String(describing: zoom)) was accepted")
            } catch {
                #expect(error.field == field, "\(bbox) \(String(describing: zoom))")
            }
        }
    }

    @Test("after every change set, each cell's counts, extremes and best ratings (zoom 13's too) equal those of a table built afresh", arguments: [23, 31, 47] as [UInt64])
    func keptCountsEqualFreshOnes(seed: UInt64) throws {
        var places = Self.places(count: 2_000, seed: seed)
        var table = PlaceTable(PlaceSnapshot(summaries: places, revision: 1))
        var rng = SplitMix64(seed: seed + 1)
        var seen = Set(places.compactMap { RatingCells.cell(of: $0.coordinate) })
        for revision in 2...9 {
            table.apply(Self.changeSet(&places, revision: revision, &rng))
            let fresh = PlaceTable(PlaceSnapshot(summaries: places, revision: 1))
            seen.formUnion(places.compactMap { RatingCells.cell(of: $0.coordinate) })
            // Discover's finer cells too: every cell of zoom 13 a place has been in.
            for cell in seen where table.ratingCells.record(cell) != fresh.ratingCells.record(cell) {
                Issue.record("rev \(revision) \(cell) best ratings \(String(describing: table.ratingCells.record(cell))) vs \(String(describing: fresh.ratingCells.record(cell)))")
            }
            let l1 = table.lookup
            let l2 = fresh.lookup
            for zoom in [0, 1, 2, 3, 4, 5] {
                for cell in MapGrid.cells(in: GeoBox(west: -180, south: -90, east: 180, north: 90), zoom: zoom) {
                    let a = table.cells.record(cell)
                    let b = fresh.cells.record(cell)
                    for kind in [PlaceKind.gem, .restaurant] {
                        let ka = a?[kind] ?? KindCell()
                        let kb = b?[kind] ?? KindCell()
                        if ka.count != kb.count {
                            Issue.record("rev \(revision) \(cell) \(kind) count \(ka.count) vs \(kb.count)")
                            continue
                        }
                        guard ka.count > 0 else { continue }
                        #expect(ka.bests == kb.bests, "rev \(revision) \(cell) \(kind) bests")
                        for side in MapSide.allCases {
                            let ia = l1.id(ka.extremes[side.rawValue])
                            let ib = l2.id(kb.extremes[side.rawValue])
                            if ia != ib {
                                let pa = places.first { $0.id == ia }
                                let pb = places.first { $0.id == ib }
                                Issue.record(
                                    "rev \(revision) \(cell) \(kind) \(side): \(ia) \(String(describing: pa?.coordinate)) \(String(describing: pa?.kind)) vs \(ib) \(String(describing: pb?.coordinate)) \(String(describing: pb?.kind)) cells \(pa.map { MapGrid.cell($0.coordinate, zoom: 10) }.map(String.init(describing:)) ?? "") \(pb.map { MapGrid.cell($0.coordinate, zoom: 10) }.map(String.init(describing:)) ?? "")"
                                )
                            }
                        }
                    }
                }
            }
        }
    }
}
