import HTTPTypes
import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import PlacesCore

/// How much of a request's head the server reads, and the answer to a head above it.
///
/// NIO's decoder stops reading a head above these bounds (the request line counts as one field) before any middleware
/// sees the request, and Hummingbird then answers a bare 400 with an empty body. `OversizedHeadAnswer` gives such a head
/// the API's JSON error instead: 414 `uri_too_long` when the request line was the part too long (a target of 8–16 KiB
/// reaches `RequestLimitsMiddleware`, which answers the same), 400 `invalid_input` when the header fields were.
enum RequestHeadLimits {
    /// The longest field, the request line included.
    static let fieldBytes = 16_384
    /// The header fields' bytes in all.
    static let listBytes = 32_768
    /// Header fields at most.
    static let fieldCount = 100

    /// The decoder's configuration for these bounds.
    static var decoder: HTTP1Channel.Configuration.DecoderConfiguration {
        .init(maxHeaderFieldSize: fieldBytes, maxHeaderListSize: listBytes, maxHeaderFieldCount: fieldCount)
    }

    /// The refusal of a head the decoder would not read: `lineTooLong` when the request line was what overflowed.
    static func refusal(lineTooLong: Bool) -> PlacesError {
        lineTooLong
            ? PlacesError(.uriTooLong, "the request target is longer than \(RequestLimitsMiddleware.maximumTargetBytes) bytes")
            : PlacesError(
                .invalidInput,
                "the request's header fields are more than the server reads: at most \(fieldCount) fields, \(fieldBytes) bytes each and \(listBytes) in all"
            )
    }
}

/// Answers a request head the decoder refused for its size with the API's JSON error, then closes the connection (the
/// rest of the head is never read). It sits after the HTTP codec; on being added it puts a `RequestLineWatch` first in
/// the pipeline, ahead of the decoder, to tell an overlong request line from overlong header fields.
///
/// It answers only between requests: when no head has been read since the last request ended and no answer is being
/// written. A head that overflows while an answer is still being written (a pipelined request behind a stream) is left
/// to Hummingbird, as are other parser errors.
final class OversizedHeadAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let watch = RequestLineWatch()
    /// No head has been read since the last request's end: the decoder is reading a head.
    private var awaitingHead = true
    /// An answer has started and not ended.
    private var answering = false
    /// This handler answered: what else comes is dropped.
    private var refused = false

    func handlerAdded(context: ChannelHandlerContext) {
        do {
            try context.pipeline.syncOperations.addHandler(watch, position: .first)
        } catch {
            context.fireErrorCaught(error)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head:
            awaitingHead = false
            answering = true
        case .body:
            break
        case .end:
            awaitingHead = true
            watch.expectRequestLine()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { answering = false }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if refused { return }
        guard let parserError = error as? HTTPParserError, parserError == .headerOverflow, awaitingHead, !answering else {
            context.fireErrorCaught(error)
            return
        }
        refused = true
        let refusal = RequestHeadLimits.refusal(lineTooLong: watch.lineTooLong)
        let detail = ErrorBody.Detail(code: refusal.code.rawValue, message: refusal.message, field: nil, existingId: nil)
        let body = ByteBuffer(bytes: Array((try? JSONResponse.encoder.encode(ErrorBody(error: detail))) ?? Data()))
        let fields: HTTPFields = [
            .contentType: "application/json", .contentLength: String(body.readableBytes), .connection: "close",
            .xContentTypeOptions: "nosniff", .cacheControl: "no-store",
        ]
        context.write(wrapOutboundOut(.head(HTTPResponse(status: refusal.status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        // Half-close first, so the answer is flushed and followed by FIN before the socket goes.
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
            channel.close(mode: .all, promise: nil)
        }
    }
}

/// Measures each request's line in the bytes as they arrive, ahead of the decoder: whether it has run past the decoder's
/// bound for a field (or has not ended yet) when the decoder refuses the head.
final class RequestLineWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Bytes of the current request line seen so far.
    private var lineBytes = 0
    /// Its end has not been seen.
    private var inLine = true

    /// The current request line is longer than the decoder reads, or still running.
    var lineTooLong: Bool { inLine || lineBytes > RequestHeadLimits.fieldBytes }

    /// The bytes that come next begin a request (the last one's end was read).
    func expectRequestLine() {
        lineBytes = 0
        inLine = true
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if inLine {
            let buffer = unwrapInboundIn(data)
            if let end = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
                lineBytes += end - buffer.readerIndex
                inLine = false
            } else {
                lineBytes += buffer.readableBytes
            }
        }
        context.fireChannelRead(data)
    }
}
