import PlacesCore

// Request bodies of /v1/collections turned into Core's commands.

extension NewCollection: RequestCommand {
    /// The fields a collection body may carry.
    public static let fields: Set<String> = ["name", "description", "groupId"]

    /// The collection a `POST /v1/collections` body asks for.
    public init(body: FieldReader) throws(PlacesError) {
        self.init(name: try body.rawText("name"), description: try body.rawText("description"), groupId: try body.rawText("groupId"))
    }
}

extension CollectionPatch: RequestCommand {
    /// The fields a collection body may carry.
    static var fields: Set<String> { NewCollection.fields }

    /// The change a `PATCH /v1/collections/{id}` body asks for (`groupId` is named to be refused: a collection does
    /// not move between owners).
    public init(body: FieldReader) throws(PlacesError) {
        if body.has("groupId") { throw .invalid("groupId", "a collection cannot move between owners") }
        self.init(name: try body.patchText("name"), description: try body.patchText("description"))
    }
}

extension CollectionAddition: RequestCommand {
    /// The fields adding a place reads.
    public static let fields: Set<String> = ["placeId", "position"]

    /// The addition a `POST /v1/collections/{id}/places` body asks for.
    public init(body: FieldReader) throws(PlacesError) {
        self.init(placeId: try body.rawText("placeId"), position: try body.wholeNumber("position"))
    }
}
