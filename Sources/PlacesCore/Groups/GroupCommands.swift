/// Making a group (`POST /v1/groups`, `places group create`).
@PublicInit
public struct NewGroup: Sendable, Equatable {
    /// Its name, required.
    public var name: String?
    /// What it is about.
    public var description: String?
    /// An http(s) URL of its picture.
    public var pictureURL: String?
}

/// Changing a group (`PATCH /v1/groups/{id}`): each field kept, cleared or set.
public struct GroupPatch: Sendable, Equatable {
    /// The name (it cannot be cleared).
    public var name: Patch<String>
    /// The description.
    public var description: Patch<String>
    /// The picture's URL.
    public var pictureURL: Patch<String>

    /// Makes a patch; every field is kept unless given.
    public init(name: Patch<String> = .keep, description: Patch<String> = .keep, pictureURL: Patch<String> = .keep) {
        self.name = name
        self.description = description
        self.pictureURL = pictureURL
    }
}
