import Foundation
import Hummingbird
import PlacesCore

/// `/v1/places`: what is near a point, and one place's details.
struct PlaceController<Context: RequestContext>: Sendable {
    let service: PlaceService

    /// The routes this controller answers.
    func addRoutes(to group: RouterGroup<Context>) {
        group.get("nearby", use: nearby)
        group.get("{id}", use: place)
    }

    /// `GET /v1/places/nearby?lat=&lon=&radius=&limit=&kind=&format=`
    @Sendable func nearby(request: Request, context: Context) async throws -> Response {
        let parameters = request.uri.queryParameters
        func text(_ name: String) -> String? { parameters[Substring(name)].map(String.init) }
        let query = try NearbyQuery.parse(
            lat: text("lat"),
            lon: text("lon"),
            radius: text("radius"),
            limit: text("limit"),
            kind: text("kind")
        )
        let answer = service.nearby(query)
        if try ResponseFormat.negotiate(request) == .geoJSON {
            return try JSONResponse.make(GeoJSONFeatureCollection(answer), contentType: ResponseFormat.geoJSONMediaType)
        }
        return try JSONResponse.make(answer)
    }

    /// `GET /v1/places/{id}`
    @Sendable func place(request: Request, context: Context) async throws -> Response {
        let id = try context.parameters.require("id")
        return try JSONResponse.make(PlaceResponse(try await service.place(id: id)))
    }
}

/// JSON or GeoJSON, chosen by `format=` or the `Accept` header.
enum ResponseFormat: Equatable {
    case json
    case geoJSON

    static let geoJSONMediaType = "application/geo+json"

    static func negotiate(_ request: Request) throws(PlacesError) -> ResponseFormat {
        if let format = request.uri.queryParameters["format"] {
            switch format.lowercased() {
            case "json": return .json
            case "geojson": return .geoJSON
            default: throw .invalid("format", "format must be json or geojson")
            }
        }
        let accept = request.headers[.accept] ?? ""
        return accept.lowercased().contains(geoJSONMediaType) ? .geoJSON : .json
    }
}
