import PlacesCore

// Request bodies of /v1/groups turned into Core's commands.

extension NewGroup: RequestCommand {
    /// The fields a group body may carry.
    public static let fields: Set<String> = ["name", "description", "pictureURL"]

    /// The group a `POST /v1/groups` body asks for.
    public init(body: FieldReader) throws(PlacesError) {
        self.init(name: try body.rawText("name"), description: try body.rawText("description"), pictureURL: try body.rawText("pictureURL"))
    }
}

extension GroupPatch: RequestCommand {
    /// The fields a group body may carry.
    static var fields: Set<String> { NewGroup.fields }

    /// The change a `PATCH /v1/groups/{id}` body asks for.
    public init(body: FieldReader) throws(PlacesError) {
        self.init(name: try body.patchText("name"), description: try body.patchText("description"), pictureURL: try body.patchText("pictureURL"))
    }
}

extension SendAlert: RequestCommand {
    /// The fields `POST /v1/groups/{id}/alerts` reads.
    public static let fields: Set<String> = ["message"]

    /// The alert a body gives: `{"message": …}`.
    public init(body: FieldReader) throws(PlacesError) {
        self.init(message: try body.rawText("message"))
    }
}
