import Foundation
import Hummingbird
import PlacesCore

/// `/v1/places`: what is near a point, and one place's details.
struct PlaceController<Context: RequestContext>: Sendable {
    let service: PlaceService

    /// The routes this controller answers.
    func addRoutes(to group: RouterGroup<Context>) {
        group.readOnly("nearby", use: nearby)
        group.readOnly("{id}", use: place)
    }

    /// `GET /v1/places/nearby?lat=&lon=&radius=&limit=&kind=&format=`
    @Sendable func nearby(request: Request, context: Context) async throws -> Response {
        let parameters = try QueryParameters(request.uri.query)
        let query = try NearbyQuery.parse(
            lat: parameters["lat"],
            lon: parameters["lon"],
            radius: parameters["radius"],
            limit: parameters["limit"],
            kind: parameters["kind"]
        )
        let format = try ResponseFormat.negotiate(format: parameters["format"], accept: request.headers[.accept])
        let answer = service.nearby(query)
        if format == .geoJSON {
            return try JSONResponse.make(GeoJSONFeatureCollection(answer), contentType: ResponseFormat.geoJSONMediaType)
        }
        return try JSONResponse.make(answer)
    }

    /// `GET /v1/places/{id}`
    @Sendable func place(request: Request, context: Context) async throws -> Response {
        let raw = try context.parameters.require("id")
        // The router hands over the path segment as sent; an id may arrive percent-encoded (`a%3Ab` for `a:b`).
        guard let id = raw.removingPercentEncoding else {
            throw PlacesError.invalid("id", "the id holds a malformed percent-encoding")
        }
        return try JSONResponse.make(PlaceResponse(try await service.place(id: id)))
    }
}

/// JSON or GeoJSON, chosen by `format=` or the `Accept` header.
enum ResponseFormat: Equatable {
    case json
    case geoJSON

    static let geoJSONMediaType = "application/geo+json"

    /// `format=` wins; otherwise GeoJSON when `Accept` prefers `application/geo+json` (by its q-values) over JSON.
    static func negotiate(format: String?, accept: String?) throws(PlacesError) -> ResponseFormat {
        if let format {
            switch format {
            case "json": return .json
            case "geojson": return .geoJSON
            default: throw .invalid("format", "format must be json or geojson")
            }
        }
        guard let accept else { return .json }
        var geoJSON = 0.0
        var json = 0.0
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            switch type {
            case geoJSONMediaType: geoJSON = max(geoJSON, quality)
            case "application/json", "application/*", "*/*": json = max(json, quality)
            default: continue
            }
        }
        return geoJSON > 0 && geoJSON >= json ? .geoJSON : .json
    }
}
