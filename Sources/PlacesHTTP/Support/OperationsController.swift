import Hummingbird
import PlacesCore

/// What operators and load balancers ask: liveness, readiness, the API's document and the metrics.
struct OperationsController: Sendable {
    let services: PlacesServices
    let metrics: PlacesMetrics
    /// How long readiness may take to answer, whatever the database does.
    let readyWithin: Duration

    var routes: [Route] {
        [
            Route(.get, "health", use: health),
            Route(.get, "ready", use: ready),
            Route(.get, "openapi.yaml", use: OpenAPIDocument.serve),
            Route(.get, "metrics", use: renderMetrics),
        ]
    }

    /// `GET /health`: the process answers (a liveness check), with how many places its index holds.
    @Sendable func health(request: Request, context: PlacesRequestContext) async throws -> Response {
        try JSONResponse.make(Health(status: "ok", places: services.places.indexedCount))
    }

    /// `GET /ready`, for a load balancer: 200 only when the database answers and the index has applied every change
    /// committed so far; 503 `unavailable` (with Retry-After) otherwise, within `readyWithin` whatever the database
    /// does, since a balancer's health check must not hang.
    @Sendable func ready(request: Request, context: PlacesRequestContext) async throws -> Response {
        let services = services
        let readyWithin = readyWithin
        let answer = try await withTimeLimit(readyWithin) {
            try await DatabaseDeadline.within(readyWithin * 0.8) { try await services.places.readiness() }
        }
        guard let revision = answer else {
            throw PlacesError(.unavailable, "not ready: the database or the index did not answer within \(readyWithin)", cause: .notReady)
        }
        return try JSONResponse.make(Readiness(status: "ready", places: services.places.indexedCount, revision: revision))
    }

    /// `GET /metrics`: the Prometheus text.
    @Sendable func renderMetrics(request: Request, context: PlacesRequestContext) async throws -> Response {
        try await metrics.render(services: services)
    }
}

/// `GET /ready`'s answer.
struct Readiness: Encodable {
    var status: String
    var places: Int
    var revision: Int64
}

/// `GET /health`'s answer.
struct Health: Encodable {
    var status: String
    var places: Int
}
