import GeoIndex

extension PlaceTable {
    /// The clusters and single places of the query's box at its zoom: from the counts kept per cell (`MapCells`) at
    /// the coarse zooms when the filter is at most a kind, otherwise from a scan of the box. Both give the same
    /// answer: each place in the box that passes the filter is counted once, in the cell of the zoom that holds it.
    func clusters(_ query: ClusterQuery) -> ClusterAnswer {
        let counted = query.zoom <= MapCells.finestZoom && query.filter == PlaceFilter(kind: query.filter.kind)
        return counted ? countedClusters(query) : scannedClusters(query)
    }

    /// How clusters look places up by slot.
    var lookup: SlotLookup {
        let places = places
        return SlotLookup(
            coordinate: { places[Int($0)]?.coordinate ?? Coordinate(latitude: .nan, longitude: .nan) },
            id: { places[Int($0)]?.id ?? "" }
        )
    }

    /// A slot's exact coordinate (the grid keeps only what its scans need).
    var coordinate: (UInt32) -> Coordinate { lookup.coordinate }

    /// Clusters from a scan of every place in the box.
    func scannedClusters(_ query: ClusterQuery) -> ClusterAnswer {
        let lookup = lookup
        let filter = slotFilter(query.filter, query.filter.matcher())
        var byCell: [UInt64: ClusterBuilder] = [:]
        grid.forEachPoint(in: query.box, coordinate: lookup.coordinate) { slot, x, y, z in
            if let filter, !filter(slot) { return }
            byCell[MapGrid.cell(x: x, y: y, z: z, zoom: query.zoom).key, default: ClusterBuilder()].add(slot, x, y, z, lookup)
        }
        var features: [MapFeature] = []
        for cell in MapGrid.cells(in: query.box, zoom: query.zoom) {
            guard let builder = byCell[cell.key], let feature = feature(cell, builder) else { continue }
            features.append(feature)
        }
        return ClusterAnswer(box: query.box, zoom: query.zoom, features: features)
    }

    /// Clusters from the counts kept per cell: a cell wholly inside the box is read as it is kept; one the box cuts is
    /// read through its finer cells, down to the finest counted zoom, whose cells the box cuts are scanned.
    func countedClusters(_ query: ClusterQuery) -> ClusterAnswer {
        let lookup = lookup
        var features: [MapFeature] = []
        for cell in MapGrid.cells(in: query.box, zoom: query.zoom) {
            guard let record = cells.record(cell), record.count(query.filter.kind) > 0 else { continue }
            var builder = ClusterBuilder()
            gather(cell, query.box, query.filter.kind, lookup, into: &builder)
            guard let feature = feature(cell, builder) else { continue }
            features.append(feature)
        }
        return ClusterAnswer(box: query.box, zoom: query.zoom, features: features)
    }

    /// The feature of a cell's places: the place itself when it is alone; nil for none.
    private func feature(_ cell: MapGrid.Cell, _ builder: ClusterBuilder) -> MapFeature? {
        guard builder.count > 0 else { return nil }
        let lookup = lookup
        let south = builder.extremes[MapSide.south.rawValue].slot
        if builder.count == 1, let place = places[Int(south)] { return .place(place) }
        let bounds = GeoBox(
            west: lookup.coordinate(builder.extremes[MapSide.west.rawValue].slot).longitude,
            south: lookup.coordinate(south).latitude,
            east: lookup.coordinate(builder.extremes[MapSide.east.rawValue].slot).longitude,
            north: lookup.coordinate(builder.extremes[MapSide.north.rawValue].slot).latitude
        )
        let center = Geodesy.coordinate(x: builder.x, y: builder.y, z: builder.z) ?? lookup.coordinate(south)
        return .cluster(cell: cell, count: builder.count, center: center, bounds: bounds, memberID: lookup.id(south))
    }

    /// Adds the places of the cell that lie in the box.
    private func gather(_ cell: MapGrid.Cell, _ box: GeoBox, _ kind: PlaceKind?, _ lookup: SlotLookup, into builder: inout ClusterBuilder) {
        guard let record = cells.record(cell), record.count(kind) > 0 else { return }
        switch box.relation(to: cell.bounds) {
        case .outside: return
        case .inside: builder.add(record.of(kind, lookup), lookup)
        case .cut:
            if cell.zoom == MapCells.finestZoom {
                scan(cell, kind, lookup, in: box) { slot, x, y, z in builder.add(slot, x, y, z, lookup) }
            } else {
                for child in cell.children { gather(child, box, kind, lookup, into: &builder) }
            }
        }
    }

    /// Calls `body` with each place of the kind that `cell`'s zoom puts in it (and that lies in `box`,
    /// when one is given), with its unit vector.
    func scan(
        _ cell: MapGrid.Cell,
        _ kind: PlaceKind?,
        _ lookup: SlotLookup,
        in box: GeoBox? = nil,
        _ body: (UInt32, Double, Double, Double) -> Void
    ) {
        let kinds = kinds
        // Widened past the rounding of a cell's edges; the cell each place is counted in decides.
        var region = cell.widenedBounds
        if let box, !box.crossesAntimeridian {
            region.west = max(region.west, box.west)
            region.east = min(region.east, box.east)
            region.south = max(region.south, box.south)
            region.north = min(region.north, box.north)
            guard region.west <= region.east, region.south <= region.north else { return }
        }
        let interior = cell.interior
        let visit = { (slot: UInt32, x: Double, y: Double, z: Double) in
            if let kind, kinds[Int(slot)] != kind { return }
            // Only a place near the cell's edges needs the cell worked out.
            guard interior.contains(x: x, y: y, z: z) || MapGrid.cell(x: x, y: y, z: z, zoom: cell.zoom) == cell else { return }
            if let box, box.crossesAntimeridian, !box.contains(lookup.coordinate(slot)) { return }
            body(slot, x, y, z)
        }
        if box == nil {
            // The whole cell: the cell each place is counted in decides, so the grid need not test the box exactly.
            grid.forEachCandidate(in: region, visit)
        } else {
            grid.forEachPoint(in: region, coordinate: lookup.coordinate, visit)
        }
    }

    /// A finest cell's places of a kind as the index holds them now (the counts' repair).
    func scannedCell(_ cell: MapGrid.Cell, _ kind: PlaceKind, _ lookup: SlotLookup) -> KindCell {
        let places = places
        var builder = ClusterBuilder()
        var found = KindCell()
        scan(cell, kind, lookup) { slot, x, y, z in
            builder.add(slot, x, y, z, lookup)
            if let place = places[Int(slot)] { found.bests.rate(place.rating) }
        }
        found.count = Int32(builder.count)
        found.x = builder.x
        found.y = builder.y
        found.z = builder.z
        for side in MapSide.allCases { found.extremes[side.rawValue] = builder.extremes[side.rawValue].slot }
        return found
    }
}

/// What a cluster gathers of its places: how many, their summed unit vectors, and the place furthest to each side
/// (with how far it lies, so a scan compares numbers and reads an id only on a tie).
struct ClusterBuilder {
    var count = 0
    var x = 0.0
    var y = 0.0
    var z = 0.0
    var extremes = [(slot: UInt32, reach: Double)](repeating: (0, -.infinity), count: 4)

    /// Adds one place.
    @inline(__always)
    mutating func add(_ slot: UInt32, _ px: Double, _ py: Double, _ pz: Double, _ lookup: SlotLookup) {
        count += 1
        x += px
        y += py
        z += pz
        for side in MapSide.allCases { consider(slot, side.reach(px, py, pz), side, lookup) }
    }

    /// Adds a cell's places as they are kept.
    mutating func add(_ cell: KindCell, _ lookup: SlotLookup) {
        guard cell.count > 0 else { return }
        count += Int(cell.count)
        x += cell.x
        y += cell.y
        z += cell.z
        for side in MapSide.allCases {
            let slot = cell.extremes[side.rawValue]
            consider(slot, lookup.reach(slot, side), side, lookup)
        }
    }

    @inline(__always)
    private mutating func consider(_ slot: UInt32, _ reach: Double, _ side: MapSide, _ lookup: SlotLookup) {
        let current = extremes[side.rawValue]
        if reach > current.reach || (reach == current.reach && lookup.id(slot) < lookup.id(current.slot)) {
            extremes[side.rawValue] = (slot, reach)
        }
    }
}

/// Where a cell lies against a box.
enum BoxRelation {
    case inside, outside, cut
}

extension GeoBox {
    /// Where a cell (of `MapGrid`, never across the antimeridian) lies against this box, with a margin for the
    /// rounding of its edges: `inside` only when every place counted in the cell is surely in the box.
    func relation(to cell: GeoBox) -> BoxRelation {
        let slack = 1e-9
        if cell.north + slack < south || cell.south - slack > north { return .outside }
        let westOutside = cell.east + slack < west
        let eastOutside = cell.west - slack > east
        if crossesAntimeridian ? westOutside && eastOutside : westOutside || eastOutside { return .outside }
        // Edges at the poles and at ±180 hold every place up to them.
        let southIn = cell.south == -90 ? south == -90 : cell.south - slack >= south
        let northIn = cell.north == 90 ? north == 90 : cell.north + slack <= north
        guard southIn, northIn else { return .cut }
        func covers(_ low: Double, _ high: Double) -> Bool {
            let lowIn = cell.west == -180 ? low == -180 : cell.west - slack >= low
            let highIn = cell.east == 180 ? high == 180 : cell.east + slack <= high
            return lowIn && highIn
        }
        let inside = crossesAntimeridian ? covers(west, 180) || covers(-180, east) : covers(west, east)
        return inside ? .inside : .cut
    }
}

extension MapGrid.Cell {
    /// The cell's bounds widened past the rounding of its edges: every place counted in the cell lies inside.
    var widenedBounds: GeoBox {
        let bounds = bounds
        let slack = 1e-9
        return GeoBox(
            west: max(-180, bounds.west - slack),
            south: max(-90, bounds.south - slack),
            east: min(180, bounds.east + slack),
            north: min(90, bounds.north + slack)
        )
    }
}
