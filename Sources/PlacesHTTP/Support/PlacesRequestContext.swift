import Hummingbird

/// The request context of every Places route.
public struct PlacesRequestContext: RequestContext {
    /// Hummingbird's own per-request state.
    public var coreContext: CoreRequestContextStorage

    /// Makes a context for one request.
    public init(source: Source) {
        coreContext = .init(source: source)
    }

    /// Bodies above 1 MiB are refused with 413.
    public var maxUploadSize: Int { 1_048_576 }
}
