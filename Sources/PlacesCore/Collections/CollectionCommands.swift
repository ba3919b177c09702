/// Making a collection (`POST /v1/collections`, `places collection create`).
@PublicInit
public struct NewCollection: Sendable, Equatable {
    /// Its name, required.
    public var name: String?
    /// What it is for.
    public var description: String?
    /// The group it belongs to; without one it is the caller's own.
    public var groupId: String?
}

/// Renaming or describing a collection (`PATCH /v1/collections/{id}`): each field kept, cleared or set.
public struct CollectionPatch: Sendable, Equatable {
    /// The name (it cannot be cleared).
    public var name: Patch<String>
    /// The description.
    public var description: Patch<String>

    /// Makes a patch; every field is kept unless given.
    public init(name: Patch<String> = .keep, description: Patch<String> = .keep) {
        self.name = name
        self.description = description
    }
}

/// Adding a place to a collection (`POST /v1/collections/{id}/places`): at `position` (0-based), or at the end.
@PublicInit
public struct CollectionAddition: Sendable, Equatable {
    /// The place, required.
    public var placeId: String?
    /// Where it goes; nil (or past the end) appends.
    public var position: Int?
}
