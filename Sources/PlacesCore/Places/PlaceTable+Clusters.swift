import GeoIndex

extension PlaceTable {
    /// The clusters and single places of the query's box at its zoom: from the counts kept per cell (`MapCells`) at
    /// the coarse zooms when the filter is at most a kind, otherwise from a scan of the box. Both give the same
    /// answer: each place in the box that passes the filter is counted once, in the cell of the zoom that holds it.
    func clusters(_ query: ClusterQuery) -> ClusterAnswer {
        let counted = query.zoom <= MapCells.finestZoom && query.filter == PlaceFilter(kind: query.filter.kind)
        return counted ? countedClusters(query) : scannedClusters(query)
    }

    /// Clusters from a scan of every place in the box.
    func scannedClusters(_ query: ClusterQuery) -> ClusterAnswer {
        let places = places
        let matcher = query.filter.matcher()
        var byCell: [MapGrid.Cell: ClusterMembers] = [:]
        grid.forEachKey(in: query.box, coordinate: coordinate) { slot in
            guard let place = places[Int(slot)], query.filter.isEmpty || matcher.matches(place.summary) else { return }
            let at = place.summary.coordinate
            byCell[MapGrid.cell(at, zoom: query.zoom), default: ClusterMembers()].add(slot, at, id: place.summary.id)
        }
        var features: [MapFeature] = []
        for cell in MapGrid.cells(in: query.box, zoom: query.zoom) {
            guard let members = byCell[cell], let feature = feature(cell, members) else { continue }
            features.append(feature)
        }
        return ClusterAnswer(box: query.box, zoom: query.zoom, features: features)
    }

    /// Clusters from the counts kept per cell: a cell wholly inside the box is read, one the box cuts is read through
    /// its finer cells, down to the finest counted zoom, whose cells the box cuts are scanned. A cluster's box and
    /// member come from its extreme places, found by going down the cells on their side only.
    func countedClusters(_ query: ClusterQuery) -> ClusterAnswer {
        let kind = query.filter.kind
        var features: [MapFeature] = []
        for cell in MapGrid.cells(in: query.box, zoom: query.zoom) {
            guard let totals = cells.totals(cell), totals.of(kind).count > 0 else { continue }
            var members = ClusterMembers()
            accumulate(cell, query.box, kind, into: &members)
            guard members.count > 0 else { continue }
            for side in ClusterMembers.Side.allCases {
                if let found = extreme(cell, side, query.box, kind) { members.take(found, side) }
            }
            // Every counted place has extremes on each side: a cell without them would be a broken count, not a
            // reason to stop answering.
            guard let feature = feature(cell, members) else { continue }
            features.append(feature)
        }
        return ClusterAnswer(box: query.box, zoom: query.zoom, features: features)
    }

    /// A slot's exact coordinate (the grid keeps only what its scans need).
    var coordinate: (UInt32) -> Coordinate {
        let places = places
        return { places[Int($0)]?.summary.coordinate ?? Coordinate(latitude: .nan, longitude: .nan) }
    }

    /// The feature of a cell's members: the place itself when it is alone.
    private func feature(_ cell: MapGrid.Cell, _ members: ClusterMembers) -> MapFeature? {
        guard let south = members.extremes[ClusterMembers.Side.south.rawValue],
            let west = members.extremes[ClusterMembers.Side.west.rawValue],
            let east = members.extremes[ClusterMembers.Side.east.rawValue],
            let north = members.extremes[ClusterMembers.Side.north.rawValue]
        else { return nil }
        if members.count == 1, let place = places[Int(south.slot)] { return .place(place) }
        let bounds = GeoBox(
            west: west.coordinate.longitude,
            south: south.coordinate.latitude,
            east: east.coordinate.longitude,
            north: north.coordinate.latitude
        )
        let center = Geodesy.coordinate(x: members.x, y: members.y, z: members.z) ?? south.coordinate
        return .cluster(cell: cell, count: members.count, center: center, bounds: bounds, memberID: south.id)
    }

    /// Adds the count and position sum of the cell's places in the box.
    private func accumulate(_ cell: MapGrid.Cell, _ box: GeoBox, _ kind: PlaceKind?, into members: inout ClusterMembers) {
        guard let totals = cells.totals(cell) else { return }
        let kept = totals.of(kind)
        guard kept.count > 0 else { return }
        switch box.relation(to: cell.bounds) {
        case .outside: return
        case .inside: members.add(kept)
        case .cut:
            if cell.zoom == MapCells.finestZoom {
                scan(cell, box, kind) { slot, at, _ in members.add(slot, at, id: nil) }
            } else {
                for child in cell.children { accumulate(child, box, kind, into: &members) }
            }
        }
    }

    /// The cell's place in the box that is furthest to `side` (ties: the smallest id), going down only the finer
    /// cells on that side: rows (or columns) of cells are ordered, so a place in the outer row beats every place in
    /// the inner one.
    private func extreme(_ cell: MapGrid.Cell, _ side: ClusterMembers.Side, _ box: GeoBox, _ kind: PlaceKind?) -> ClusterMembers.Member? {
        guard let totals = cells.totals(cell), totals.of(kind).count > 0, box.relation(to: cell.bounds) != .outside else { return nil }
        if cell.zoom == MapCells.finestZoom {
            var best: ClusterMembers.Member?
            scan(cell, box, kind) { slot, at, id in
                let member = ClusterMembers.Member(slot: slot, coordinate: at, id: id())
                if best.map({ side.prefers(member, over: $0) }) ?? true { best = member }
            }
            return best
        }
        for group in side.childGroups(of: cell) {
            var best: ClusterMembers.Member?
            for child in group {
                guard let found = extreme(child, side, box, kind) else { continue }
                if best.map({ side.prefers(found, over: $0) }) ?? true { best = found }
            }
            if let best { return best }
        }
        return nil
    }

    /// Calls `body` with each place of the kind that the finest counted zoom puts in `cell` and that lies in the box.
    private func scan(
        _ cell: MapGrid.Cell,
        _ box: GeoBox,
        _ kind: PlaceKind?,
        _ body: (UInt32, Coordinate, () -> String) -> Void
    ) {
        let places = places
        let kinds = kinds
        // Widened past the rounding of a cell's edges; the cell each place is counted in decides.
        let bounds = cell.bounds
        let slack = 1e-9
        let region = GeoBox(
            west: max(-180, bounds.west - slack),
            south: max(-90, bounds.south - slack),
            east: min(180, bounds.east + slack),
            north: min(90, bounds.north + slack)
        )
        grid.forEachKey(in: region, coordinate: coordinate) { slot in
            if let kind, kinds[Int(slot)] != kind { return }
            guard let place = places[Int(slot)] else { return }
            let at = place.summary.coordinate
            guard box.contains(at), MapGrid.cell(at, zoom: cell.zoom) == cell else { return }
            body(slot, at, { place.summary.id })
        }
    }
}

/// What a cluster gathers of its places while it is found: how many, their summed unit vectors, and the place
/// furthest to each side (whose coordinates make its box; the southernmost is the member it names).
struct ClusterMembers {
    var count = 0
    var x = 0.0
    var y = 0.0
    var z = 0.0
    /// The extreme place on each side, indexed by `Side.rawValue`.
    var extremes: [Member?] = [nil, nil, nil, nil]

    struct Member {
        let slot: UInt32
        let coordinate: Coordinate
        let id: String
    }

    enum Side: Int, CaseIterable {
        case south, north, west, east

        /// True when `a` lies further to this side than `b` (ties: the smaller id).
        func prefers(_ a: Member, over b: Member) -> Bool {
            let (p, q): (Double, Double)
            switch self {
            case .south: (p, q) = (-a.coordinate.latitude, -b.coordinate.latitude)
            case .north: (p, q) = (a.coordinate.latitude, b.coordinate.latitude)
            case .west: (p, q) = (-a.coordinate.longitude, -b.coordinate.longitude)
            case .east: (p, q) = (a.coordinate.longitude, b.coordinate.longitude)
            }
            return p != q ? p > q : a.id < b.id
        }

        /// A cell's four finer cells in two groups, the outer row (or column) on this side first.
        func childGroups(of cell: MapGrid.Cell) -> [[MapGrid.Cell]] {
            let children = cell.children  // north-west, north-east, south-west, south-east
            switch self {
            case .south: return [[children[2], children[3]], [children[0], children[1]]]
            case .north: return [[children[0], children[1]], [children[2], children[3]]]
            case .west: return [[children[0], children[2]], [children[1], children[3]]]
            case .east: return [[children[1], children[3]], [children[0], children[2]]]
            }
        }
    }

    /// Adds a cell's totals.
    mutating func add(_ totals: KindTotals) {
        count += Int(totals.count)
        x += totals.x
        y += totals.y
        z += totals.z
    }

    /// Adds one place (its id, when given, is a candidate for every side).
    mutating func add(_ slot: UInt32, _ coordinate: Coordinate, id: String?) {
        count += 1
        let v = Geodesy.unitVector(coordinate)
        x += v.x
        y += v.y
        z += v.z
        guard let id else { return }
        let member = Member(slot: slot, coordinate: coordinate, id: id)
        for side in Side.allCases { take(member, side) }
    }

    /// Keeps `member` as the extreme of `side` when it lies further that way.
    mutating func take(_ member: Member, _ side: Side) {
        if let current = extremes[side.rawValue], !side.prefers(member, over: current) { return }
        extremes[side.rawValue] = member
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
