import AsyncHTTPClient
import CompressNIO
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import ServiceLifecycle
import Synchronization

/// Posts the queue's spans to an OTLP/HTTP receiver (OTLP specification, "OTLP/HTTP": `application/x-protobuf`,
/// an `ExportTraceServiceRequest` per batch) on a task of its own: a batch as soon as it is full, the rest every
/// schedule delay. A collector that answers 429, 502, 503 or 504 (or cannot be reached) is asked again after 1, 2,
/// 4 ... s (or its `Retry-After`) within the export timeout; a batch not taken then, or refused, is dropped and
/// counted, never waited for by the worker. At graceful shutdown what is queued is exported once, without retries.
struct OTLPHTTPExporter: Service {
    let settings: OTLPExportSettings
    /// The TLS settings of `OTEL_EXPORTER_OTLP_CERTIFICATE` and the client certificate; `nil`: the system's CAs.
    let tls: TLSConfiguration?
    let queue: SpanExportQueue
    let request: ExportRequest
    let logger: Logger
    /// At most one warning per 10 s: a collector that refuses every batch would otherwise write one per batch.
    private let warnings = WarningThrottle(interval: .seconds(10))

    init(
        settings: OTLPExportSettings, tls: TLSConfiguration?, queue: SpanExportQueue, request: ExportRequest,
        logger: Logger
    ) {
        self.settings = settings
        self.tls = tls
        self.queue = queue
        self.request = request
        self.logger = logger
    }

    func run() async throws {
        let client = makeClient()
        await withGracefulShutdownHandler {
            while !queue.isClosed, !Task.isCancelled {
                // A delay of 0 would export in a loop that never waits.
                await queue.waitForBatch(upTo: max(settings.scheduleDelay, .milliseconds(10)))
                await exportQueued(with: client, retrying: !queue.isClosed)
            }
        } onGracefulShutdown: {
            queue.close()
        }
        await exportQueued(with: client, retrying: false)
        try? await client.shutdown()
    }

    /// The TLS settings of `settings`' certificate files, read now; `nil` when it names none.
    /// - Throws: ``TracingSettingError`` for a file that cannot be read as PEM.
    static func tlsConfiguration(_ settings: OTLPExportSettings) throws(TracingSettingError) -> TLSConfiguration? {
        guard settings.certificate != nil || settings.clientCertificate != nil else { return nil }
        var tls = TLSConfiguration.makeClientConfiguration()
        func read<Value>(_ variable: String, _ make: () throws -> Value) throws(TracingSettingError) -> Value {
            do { return try make() } catch { throw TracingSettingError("\(variable): \(error)") }
        }
        if let certificate = settings.certificate {
            let roots = try read("OTEL_EXPORTER_OTLP_CERTIFICATE") { try NIOSSLCertificate.fromPEMFile(certificate) }
            tls.trustRoots = .certificates(roots)
        }
        if let certificate = settings.clientCertificate, let key = settings.clientKey {
            let chain = try read("OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE") {
                try NIOSSLCertificate.fromPEMFile(certificate)
            }
            tls.certificateChain = chain.map { .certificate($0) }
            let privateKey = try read("OTEL_EXPORTER_OTLP_CLIENT_KEY") { try NIOSSLPrivateKey(file: key, format: .pem) }
            tls.privateKey = .privateKey(privateKey)
        }
        return tls
    }

    private func makeClient() -> HTTPClient {
        HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: Self.clientConfiguration(settings: settings, tls: tls))
    }

    /// The exporter's HTTP client settings: the connect timeout (at most 10 s, plus one), `tls`, and no span of
    /// AsyncHTTPClient's own per export (its default tracer is the process's, a no-op one: it would only cost each
    /// request the work of its attributes).
    static func clientConfiguration(settings: OTLPExportSettings, tls: TLSConfiguration?) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(Int64(min(settings.timeout, .seconds(10)).components.seconds) + 1)
        configuration.tlsConfiguration = tls
        configuration.tracing.tracer = nil
        return configuration
    }

    /// Exports every batch queued; spans not exported are counted as dropped.
    private func exportQueued(with client: HTTPClient, retrying: Bool) async {
        for batch in queue.take() {
            if Task.isCancelled {
                queue.drop(batch.count)
                continue
            }
            await export(batch, with: client, retrying: retrying)
        }
    }

    private func export(_ batch: SpanExportQueue.Batch, with client: HTTPClient, retrying: Bool) async {
        var body = request.body(spans: batch.writer)
        var post = HTTPClientRequest(url: settings.url)
        post.method = .POST
        post.headers.add(name: "Content-Type", value: "application/x-protobuf")
        for (name, value) in settings.headers.sorted(by: { $0.key < $1.key }) {
            post.headers.add(name: name, value: value)
        }
        if settings.gzip, let compressed = try? body.compress(with: .gzip()) {
            body = compressed
            post.headers.add(name: "Content-Encoding", value: "gzip")
        }
        post.body = .bytes(body)
        let giveUp = ContinuousClock.now + settings.exportTimeout
        var delay = Duration.seconds(1)
        while true {
            let outcome = await send(post, with: client)
            switch outcome {
            case .exported(let answer):
                if let rejected = ExportRequest.rejected(in: answer), rejected.count > 0 {
                    queue.drop(Int(rejected.count))
                    warnings.warn(logger) { suppressed in
                        "the collector rejected \(rejected.count) of \(batch.count) spans: \(rejected.message)"
                            + suppressed
                    }
                }
                return
            case .failed(let reason, let retryable, let retryAfter):
                let wait = retryAfter ?? delay
                // Once shutdown begins (the queue closed) no batch waits for another try.
                guard retrying, retryable, !queue.isClosed, !Task.isCancelled, ContinuousClock.now + wait < giveUp
                else {
                    queue.drop(batch.count)
                    warnings.warn(logger, metadata: ["url": "\(settings.url)", "reason": "\(reason)"]) { suppressed in
                        "exporting \(batch.count) spans failed, they are dropped" + suppressed
                    }
                    return
                }
                try? await Task.sleep(for: wait)
                delay *= 2
            }
        }
    }

    private enum Outcome {
        case exported(answer: [UInt8])
        case failed(reason: String, retryable: Bool, retryAfter: Duration?)
    }

    private func send(_ post: HTTPClientRequest, with client: HTTPClient) async -> Outcome {
        do {
            let response = try await client.execute(post, timeout: .nanoseconds(settings.timeout.nanoseconds))
            let answer = try await response.body.collect(upTo: 1 << 20)
            guard (200..<300).contains(response.status.code) else {
                let retryAfter = response.headers.first(name: "Retry-After").flatMap(Int64.init).map(Duration.seconds)
                return .failed(
                    reason: "HTTP \(response.status.code)",
                    retryable: [429, 502, 503, 504].contains(response.status.code), retryAfter: retryAfter)
            }
            return .exported(answer: Array(buffer: answer))
        } catch {
            return .failed(reason: "\(error)", retryable: true, retryAfter: nil)
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    fileprivate var nanoseconds: Int64 {
        components.seconds &* 1_000_000_000 &+ components.attoseconds / 1_000_000_000
    }
}

/// Lets one warning through per `interval` and says how many were held back since the last one.
final class WarningThrottle: Sendable {
    private let interval: Duration
    private let state = Mutex<(last: ContinuousClock.Instant?, held: Int)>((nil, 0))

    init(interval: Duration) { self.interval = interval }

    /// Writes `message` (given the text on the warnings held back, empty when none) unless one was written less
    /// than `interval` ago.
    func warn(
        _ logger: Logger, metadata: Logger.Metadata? = nil, _ message: (_ suppressed: String) -> String
    ) {
        let now = ContinuousClock.now
        let held: Int? = state.withLock { state in
            if let last = state.last, now - last < interval {
                state.held += 1
                return nil
            }
            defer { state = (now, 0) }
            return state.held
        }
        guard let held else { return }
        logger.warning("\(message(held > 0 ? " (and \(held) like warnings held back)" : ""))", metadata: metadata)
    }
}
