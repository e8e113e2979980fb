import Foundation
import PushgateTracing
import Synchronization

/// The client spans `POST` of the push-service requests one send makes (SPEC section 11): started by
/// ``PushHTTPClient`` for each request while a send's `RequestSpans` is current, ended by ``PushAttempts``
/// once the sender's answer is known, with its platform and outcome. Never the device token: a span names the
/// service's host and port, not the URL.
final class RequestSpans: Sendable {
    /// The spans of the send in progress in this task, `nil` when tracing is off.
    @TaskLocal static var current: RequestSpans?

    private let tracer: RecordTracer
    /// The delivered record's trace, whose span is the parent of every request's.
    private let record: RecordTrace
    private let spans = Mutex<[TraceSpan]>([])

    /// The spans of one send, children of `record`'s span.
    init(tracer: RecordTracer, record: RecordTrace) {
        self.tracer = tracer
        self.record = record
    }

    /// Starts the span of a request to `url`; `nil` when the record is not sampled.
    func start(url: String) -> TraceSpan? {
        let address = URL(string: url)
        let host = address?.host ?? ""
        let port = address?.port ?? (address?.scheme == "http" ? 80 : 443)
        guard let span = tracer.startRequestSpan(host: host, port: port, record: record) else { return nil }
        spans.withLock { $0.append(span) }
        return span
    }

    /// Ends every request's span with `platform` and `outcome` (the last request's; an earlier request of the
    /// same send was refused for its token, which the sender renewed).
    func end(platform: Platform, outcome: String) {
        let spans = self.spans.withLock { spans in
            defer { spans.removeAll() }
            return spans
        }
        for (index, span) in spans.enumerated() {
            span.updateAttributes { attributes in
                attributes.set("pushgate.platform", .string(platform.rawValue))
                attributes.set("pushgate.outcome", .string(index == spans.count - 1 ? outcome : "token_refused"))
            }
            span.end()
        }
    }

    /// The `pushgate.outcome` of a sender's answer: the final outcome, or `retry` and `credentials_refused`
    /// for the answers after which the request is made again.
    static func outcome(of answer: PushAnswer) -> String {
        switch answer {
        case .final(let outcome, _): outcome.rawValue
        case .transient: "retry"
        case .credentials: "credentials_refused"
        }
    }
}
