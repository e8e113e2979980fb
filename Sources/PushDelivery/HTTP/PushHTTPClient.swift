import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL

/// How the senders' HTTP client connects: trusted CAs and time limits (SPEC 10.3 to 10.6, 10.8).
public struct PushHTTPConfiguration: Sendable {
    /// PEM files of further trusted CA certificates, added to the system's roots (`--ca-file`). Default: none.
    public var caFiles: [String]
    /// How long one request may take, from sending it to the last byte of the answer (`--request-timeout`).
    /// Default: 30 s.
    public var requestTimeout: Duration
    /// How long opening a connection (TCP and TLS) may take. Default: 10 s.
    public var connectTimeout: Duration
    /// How long an unused connection is kept open. Apple asks providers to keep connections for hours rather than
    /// open and close them; a busy worker always has requests, and an idle one needs no connection. Default: 10 min.
    public var idleTimeout: Duration

    /// Creates a configuration; every default is documented on its property.
    public init(
        caFiles: [String] = [], requestTimeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(600)
    ) {
        self.caFiles = caFiles
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
    }
}

/// The one HTTP client every sender of a `pushgate deliver` process shares (AsyncHTTPClient): HTTP/2 over TLS where
/// the service offers it (APNs always does), connections kept open and shared by concurrent requests as HTTP/2
/// streams, redirects never followed (endpoints come only from configuration). A request that times out makes the
/// requests after it use new connections (``HTTPClientRotation``).
public final class PushHTTPClient: Sendable {
    /// The largest answer body read; a push service's answers are a few hundred bytes.
    public static let answerSizeLimit = 64 * 1024

    /// The configuration it was made with.
    public let configuration: PushHTTPConfiguration
    private let clients: HTTPClientRotation

    /// Creates the client; reads the CA files now. A CA file that is missing, unreadable or holds no PEM
    /// certificate is an error naming `--ca-file`.
    public init(configuration: PushHTTPConfiguration) throws(SenderOptionError) {
        self.configuration = configuration
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        var certificates: [NIOSSLCertificate] = []
        for path in configuration.caFiles {
            let bytes = try OptionFile.read(path, option: "--ca-file")
            let loaded: [NIOSSLCertificate]
            do {
                loaded = try NIOSSLCertificate.fromPEMBytes(bytes)
            } catch {
                throw SenderOptionError(option: "--ca-file", message: "\(path) holds no PEM certificate")
            }
            guard !loaded.isEmpty else {
                throw SenderOptionError(option: "--ca-file", message: "\(path) holds no PEM certificate")
            }
            certificates += loaded
        }
        if !certificates.isEmpty { tls.additionalTrustRoots = [.certificates(certificates)] }
        let clientSettings = Self.clientConfiguration(tls: tls, configuration: configuration)
        self.clients = HTTPClientRotation {
            HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientSettings)
        }
    }

    /// The settings of each AsyncHTTPClient: `tls`, no redirects, the connect and idle timeouts of `configuration`,
    /// HTTP/2 where the server offers it. Without AsyncHTTPClient's own spans: pushgate makes the request's span
    /// itself (SPEC 11, `RequestSpans`), and the library's, on the process's no-op tracer, would only cost every
    /// request the work of its attributes.
    static func clientConfiguration(tls: TLSConfiguration, configuration: PushHTTPConfiguration)
        -> HTTPClient.Configuration
    {
        var settings = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow,
            timeout: .init(connect: Self.timeAmount(configuration.connectTimeout)),
            connectionPool: .init(idleTimeout: Self.timeAmount(configuration.idleTimeout)),
            decompression: .disabled)
        settings.httpVersion = .automatic
        settings.tracing.tracer = nil
        return settings
    }

    /// Posts `body` to `url` with `headers` and waits for the whole answer, at most
    /// ``PushHTTPConfiguration/requestTimeout`` (an answer whose body does not end by then keeps its status, without
    /// a body). Never throws: a request without an answer is an ``HTTPFailure``.
    public func post(url: String, headers: [(name: String, value: String)], body: [UInt8]) async -> HTTPExchange {
        guard let (client, number) = clients.checkOut() else {
            return .failed(HTTPFailure(kind: .cancelled, errorType: "PushHTTPClient shut down"))
        }
        let exchange = await post(url: url, headers: headers, body: body, with: client)
        var timedOut = false
        if case .failed(let failure) = exchange, failure.kind == .timeout { timedOut = true }
        if let retired = clients.checkIn(number, timedOut: timedOut) {
            try? await retired.shutdown()
        }
        return exchange
    }

    private func post(
        url: String, headers: [(name: String, value: String)], body: [UInt8], with client: HTTPClient
    ) async -> HTTPExchange {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let span = RequestSpans.current?.start(url: url)
        let deadline = NIODeadline.now() + Self.timeAmount(configuration.requestTimeout)
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: deadline)
        } catch {
            let failure = Self.failure(error, taskCancelled: Task.isCancelled)
            span?.setError(type: failure.reason)
            return .failed(failure)
        }
        span?.setAttribute("http.response.status_code", .int(Int64(response.status.code)))
        let fields = response.headers.map { (name: $0.name, value: $0.value) }
        let body = await Self.collect(response.body, until: deadline)
        return .answered(HTTPAnswer(status: Int(response.status.code), headers: fields, body: body))
    }

    /// The whole of an answer's body, read until `deadline` (AsyncHTTPClient's own deadline ends with the
    /// answer's head); `nil` when it could not be read or did not end in time, its stream then cancelled. The read
    /// runs in a task of its own that an event loop's timer cancels, as AsyncHTTPClient bounds the head: a timer
    /// cancelled once the body is read is taken off the loop at once (a sleeping task's would stay queued until its
    /// deadline, one per request).
    private static func collect(_ body: HTTPClientResponse.Body, until deadline: NIODeadline) async -> [UInt8]? {
        let reading = Task { (try? await body.collect(upTo: answerSizeLimit)).map { Array(buffer: $0) } }
        let timer = HTTPClient.defaultEventLoopGroup.any().scheduleTask(deadline: deadline) { reading.cancel() }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await reading.value
        } onCancel: {
            reading.cancel()
        }
    }

    /// Closes every connection; call once, when no request is in flight any more.
    public func shutdown() async {
        for client in clients.takeAll() {
            try? await client.shutdown()
        }
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// The kind of failure an error of the HTTP client stands for. AsyncHTTPClient reports a cancelled task and a
    /// request its connection dropped before sending it with the same error: only the first is `cancelled`.
    static func failure(_ error: any Error, taskCancelled: Bool) -> HTTPFailure {
        let type = String(reflecting: Swift.type(of: error))
        let kind = taskCancelled ? .cancelled : kind(of: error, type: type)
        return HTTPFailure(kind: kind, errorType: type)
    }

    private static func kind(of error: any Error, type: String) -> HTTPFailure.Kind {
        if error is CancellationError { return .cancelled }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout: return .timeout
            case .connectTimeout, .getConnectionFromPoolTimeout: return .connectFailed
            case .tlsHandshakeTimeout: return .tlsFailed
            case .remoteConnectionClosed, .uncleanShutdown: return .connectionClosed
            case .cancelled: return .connectionClosed  // not the task: the connection dropped the request
            default: return .requestFailed
            }
        }
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError { return .tlsFailed }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout: return .connectFailed
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed, .inputClosed: return .connectionClosed
            default: return .requestFailed
            }
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ETIMEDOUT: return .connectFailed
            default: return .connectionClosed
            }
        }
        if type.contains("NIOConnectionError") || type.contains("SocketAddressError") { return .connectFailed }
        if type.contains("HTTP2") { return .connectionClosed }
        return .requestFailed
    }
}
