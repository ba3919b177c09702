import Foundation
import GeoIndex

/// Collections of places: personal ones for their owner, group ones for every member of the group (admins rename
/// and delete those).
public struct CollectionService: Sendable {
    /// At most this many places in one collection.
    public static let maximumPlaces = 500

    let repository: any CollectionRepository
    let groups: any GroupRepository
    let places: PlaceService
    let limits: UsageLimits
    let clock: @Sendable () -> Date

    /// Makes a collection: the caller's own, or (with `groupId`) their group's.
    public func create(_ caller: User, _ command: NewCollection) async throws -> PlaceCollection {
        let name = try PlaceCollection.checkedName(command.name, missing: "name is required")
        let groupID = try TextRules.text(command.groupId, field: "groupId", limit: 40)
        if let groupID {
            guard let group = try await groups.group(id: groupID) else {
                throw PlacesError.unknownReference("groupId", "no group with id \(PlacesError.quoted(groupID))")
            }
            guard group.role(of: caller.id) != nil else { throw PlacesError.forbidden("only members add collections to a group") }
        }
        let count = try await repository.collectionCount(ownerID: groupID == nil ? caller.id : nil, groupID: groupID)
        try UsageLimits.check(count, below: limits.collectionsPerOwner, groupID == nil ? "collections" : "collections in this group")
        let now = clock()
        let collection = PlaceCollection(
            id: RandomID.make("c-"),
            ownerId: groupID == nil ? caller.id : nil,
            groupId: groupID,
            name: name,
            description: try PlaceCollection.checkedDescription(command.description),
            createdAt: now,
            updatedAt: now
        )
        try await repository.insert(collection)
        return collection
    }

    /// A page of the collections the caller can see: their own and their groups'.
    public func list(_ caller: User, page: PageRequest) async throws -> Page<PlaceCollection> {
        let memberOf = try await groups.groupIDs(memberID: caller.id)
        return try await repository.collections(ownerID: caller.id, groupIDs: memberOf, page: page)
    }

    /// The collection with its live places in order, with distances from `center` when given.
    public func detail(_ caller: User, id: String, center: Coordinate?) async throws -> CollectionDetail {
        let collection = try await readable(caller, id)
        let entries = try await repository.entries(collectionID: id)
        let summaries = try await places.summaries(entries.map(\.placeID))
        let listed = entries.compactMap { entry in
            summaries[entry.placeID].map { CollectionPlace(summary: $0, entry: entry, center: center) }
        }
        return CollectionDetail(collection: collection, places: listed)
    }

    /// The live place ids of a collection, in order, for someone who may read it (a decision's candidates).
    public func placeIDs(_ caller: User, id: String) async throws -> [String] {
        _ = try await readable(caller, id)
        let entries = try await repository.entries(collectionID: id)
        let live = try await places.summaries(entries.map(\.placeID))
        return entries.map(\.placeID).filter { live[$0] != nil }
    }

    /// Renames or describes a collection (its owner; a group's admins).
    public func update(_ caller: User, id: String, _ patch: CollectionPatch) async throws -> PlaceCollection {
        var collection = try await managed(caller, id)
        try collection.apply(name: patch.name, description: patch.description)
        collection.updatedAt = clock()
        try await repository.update(collection)
        return collection
    }

    /// Deletes a collection (its owner; a group's admins).
    public func delete(_ caller: User, id: String) async throws {
        _ = try await managed(caller, id)
        try await repository.delete(id: id)
    }

    /// Adds a live place (its owner; any member of a group's), at `position` or at the end.
    public func add(_ caller: User, id: String, _ addition: CollectionAddition) async throws -> CollectionDetail {
        _ = try await readable(caller, id)
        guard let placeID = try TextRules.text(addition.placeId, field: "placeId", limit: 100) else {
            throw PlacesError.invalid("placeId", "placeId is required")
        }
        let position = addition.position
        if let position, !(0...(CollectionService.maximumPlaces - 1)).contains(position) {
            throw PlacesError.invalid("position", "position must be a whole number from 0 to \(CollectionService.maximumPlaces - 1)")
        }
        do {
            _ = try await PlacesError.referenced("placeId") { try await places.place(id: placeID) }
        } catch let error as PlacesError where error.code == .invalidInput {
            throw PlacesError(error.code, error.message, field: "placeId")
        }
        guard try await repository.entries(collectionID: id).count < CollectionService.maximumPlaces else {
            throw PlacesError(.conflict, "a collection holds at most \(CollectionService.maximumPlaces) places")
        }
        try await repository.add(placeID: placeID, to: id, at: position, by: caller.id, now: clock())
        return try await detail(caller, id: id, center: nil)
    }

    /// Removes a place (its owner; any member of a group's).
    public func remove(_ caller: User, id: String, placeID: String) async throws {
        _ = try await readable(caller, id)
        guard try await repository.remove(placeID: placeID, from: id, now: clock()) else {
            throw PlacesError.notFound("place \(PlacesError.quoted(placeID)) is not in this collection")
        }
    }

    /// Puts the places in the order given, which must name every place of the collection once.
    public func reorder(_ caller: User, id: String, placeIDs order: [String]) async throws -> CollectionDetail {
        _ = try await readable(caller, id)
        let stored = try await repository.entries(collectionID: id).map(\.placeID)
        guard order.count == stored.count, Set(order) == Set(stored) else {
            throw PlacesError.invalid("placeIds", "placeIds must name each of the collection's \(stored.count) places exactly once")
        }
        try await repository.reorder(collectionID: id, placeIDs: order, now: clock())
        return try await detail(caller, id: id, center: nil)
    }

    /// The collection, when the caller may read it and add to it.
    private func readable(_ caller: User, _ id: String) async throws -> PlaceCollection {
        let collection = try await existing(id)
        if let owner = collection.ownerId {
            guard owner == caller.id else { throw PlacesError.forbidden("this collection is someone else's") }
        } else if let groupID = collection.groupId {
            guard try await groups.group(id: groupID)?.role(of: caller.id) != nil else {
                throw PlacesError.forbidden("only the group's members see its collections")
            }
        }
        return collection
    }

    /// The collection, when the caller may rename and delete it.
    private func managed(_ caller: User, _ id: String) async throws -> PlaceCollection {
        let collection = try await existing(id)
        if let owner = collection.ownerId {
            guard owner == caller.id else { throw PlacesError.forbidden("this collection is someone else's") }
        } else if let groupID = collection.groupId {
            guard try await groups.group(id: groupID)?.role(of: caller.id) == .admin else {
                throw PlacesError.forbidden("only the group's admins rename or delete its collections")
            }
        }
        return collection
    }

    private func existing(_ id: String) async throws -> PlaceCollection {
        guard let collection = try await repository.collection(id: id) else {
            throw PlacesError.notFound("no collection with id \(PlacesError.quoted(id))")
        }
        return collection
    }
}
