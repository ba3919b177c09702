import Hummingbird

/// `GET /openapi.yaml`: the OpenAPI 3.1 document of this API, compiled into the binary so a copied
/// `places` executable serves it without any resource bundle beside it.
enum OpenAPIDocument {
    /// The document's bytes.
    static var bytes: [UInt8] { PackageResources.openapi_yaml }

    @Sendable static func serve(request: Request, context: some RequestContext) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/yaml; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}
