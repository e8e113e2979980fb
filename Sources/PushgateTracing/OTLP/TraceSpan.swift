import Synchronization
import W3CTraceContext

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A span pushgate records (SPEC section 11): its ids, name and kind fixed at start, its attributes and status set
/// while it runs, and written as an OTLP `Span` (opentelemetry-proto's trace.proto) into the export queue when it
/// ends. Safe to use from several tasks; only the first ``end()`` counts.
public final class TraceSpan: Sendable {
    /// The span kinds pushgate makes (OTLP's `SpanKind` numbers).
    public enum Kind: UInt64, Sendable {
        case client = 3
        case consumer = 5
    }

    /// The trace the span belongs to.
    public let traceID: TraceID
    /// The span's own id.
    public let spanID: SpanID
    /// Its parent's id; `nil` for a trace's first span.
    public let parentSpanID: SpanID?
    /// Whether the parent came from another process (a record's `traceparent`).
    public let parentIsRemote: Bool
    /// The W3C `tracestate` the span carries on.
    public let traceState: String?
    /// The span's name, `process TOPIC` or `POST`.
    public let name: String
    /// The span's kind.
    public let kind: Kind
    private let startTime: UInt64
    private let queue: SpanExportQueue
    private let state: Mutex<State>

    struct State {
        var attributes: ProtobufWriter
        var failed = false
        var ended = false
    }

    init(
        traceID: TraceID, spanID: SpanID, parent: SpanID?, parentIsRemote: Bool, traceState: String?, name: String,
        kind: Kind, attributes: [UInt8] = [], queue: SpanExportQueue, startTime: UInt64 = TraceSpan.now()
    ) {
        self.traceID = traceID
        self.spanID = spanID
        self.parentSpanID = parent
        self.parentIsRemote = parentIsRemote
        self.traceState = traceState
        self.name = name
        self.kind = kind
        self.queue = queue
        self.startTime = startTime
        var writer = ProtobufWriter(capacity: 512)
        writer.append(attributes)
        self.state = Mutex(State(attributes: writer))
    }

    /// The span of a record started for one thread (``RecordSpan``), with its attributes so far.
    convenience init(record: RecordSpan, queue: SpanExportQueue) {
        self.init(
            traceID: TraceIDGenerator.traceID(record.trace), spanID: TraceIDGenerator.spanID(record.spanWord),
            parent: record.parentWord.map(TraceIDGenerator.spanID), parentIsRemote: true, traceState: record.traceState,
            name: record.template.name, kind: .consumer, attributes: record.attributes, queue: queue,
            startTime: record.startTime)
        if let errorType = record.errorType { setError(type: errorType) }
    }

    /// Sets the attribute `key` (a key set twice is written twice; the receiver keeps the last).
    public func setAttribute(_ key: String, _ value: TraceAttribute) {
        state.withLock { $0.attributes.attributeField(SpanField.attributes, key: key, value) }
    }

    /// Sets the attribute `key`, its name encoded once (``TraceAttributeKey``).
    public func setAttribute(_ key: TraceAttributeKey, _ value: TraceAttribute) {
        state.withLock { $0.attributes.attributeField(SpanField.attributes, key: key, value) }
    }

    /// `error.type`'s key.
    private static let errorTypeKey = TraceAttributeKey("error.type")

    /// Marks the span as failed: status `ERROR`, and `error.type` set to `type`.
    public func setError(type: String) {
        state.withLock { state in
            state.attributes.attributeField(SpanField.attributes, key: Self.errorTypeKey, .string(type))
            state.failed = true
        }
    }

    /// Runs `body` with the span's mutable state, under its lock.
    func withState<Result>(_ body: (inout State) -> Result) -> Result { state.withLock { body(&$0) } }

    /// Ends the span now and queues it for export; later calls do nothing.
    public func end() {
        let endTime = Self.now()
        let finished: State? = state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            return state
        }
        guard let finished else { return }
        queue.submit { writer in
            encode(into: &writer, endTime: endTime, attributes: finished.attributes, failed: finished.failed)
        }
    }

    /// Writes the span as the field `spans` (2) of an OTLP `ScopeSpans`: tag, length and the `Span` message.
    func encode(into writer: inout ProtobufWriter, endTime: UInt64, attributes: ProtobufWriter, failed: Bool) {
        let nameLength = name.utf8.count
        var length =
            ProtobufWriter.lengthDelimitedSize(SpanField.traceID, length: 16)
            + ProtobufWriter.lengthDelimitedSize(SpanField.spanID, length: 8)
            + ProtobufWriter.lengthDelimitedSize(SpanField.name, length: nameLength)
            + 2 + 9 + 9 + attributes.count + 6
        if let traceState {
            length += ProtobufWriter.lengthDelimitedSize(SpanField.traceState, length: traceState.utf8.count)
        }
        if parentSpanID != nil { length += ProtobufWriter.lengthDelimitedSize(SpanField.parentSpanID, length: 8) }
        if failed { length += 4 }
        writer.write(size: ProtobufWriter.lengthDelimitedSize(2, length: length)) { writer in
            writer.lengthDelimitedHeader(2, length: length)
            withUnsafeBytes(of: traceID.bytes) { writer.bytesField(SpanField.traceID, $0) }
            withUnsafeBytes(of: spanID.bytes) { writer.bytesField(SpanField.spanID, $0) }
            if let traceState { writer.stringField(SpanField.traceState, traceState) }
            if let parentSpanID {
                withUnsafeBytes(of: parentSpanID.bytes) { writer.bytesField(SpanField.parentSpanID, $0) }
            }
            writer.stringField(SpanField.name, name)
            writer.varintField(SpanField.kind, kind.rawValue)
            writer.fixed64Field(SpanField.startTime, startTime)
            writer.fixed64Field(SpanField.endTime, endTime)
            attributes.withBytes { writer.raw($0) }
            if failed {
                // Status { code = 3: STATUS_CODE_ERROR (2) }
                writer.lengthDelimitedHeader(SpanField.status, length: 2)
                writer.varintField(3, 2)
            }
            // W3C flags (sampled) in the low byte; 0x100: whether the parent is remote is known, 0x200: it is.
            let remote: UInt32 = parentSpanID == nil ? 0 : parentIsRemote ? 0x300 : 0x100
            writer.fixed32Field(SpanField.flags, 0x01 | remote)
        }
    }

    /// The time now in nanoseconds since the Unix epoch.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}

/// The field numbers of OTLP's `Span` message that pushgate writes.
enum SpanField {
    static let traceID: UInt64 = 1
    static let spanID: UInt64 = 2
    static let traceState: UInt64 = 3
    static let parentSpanID: UInt64 = 4
    static let name: UInt64 = 5
    static let kind: UInt64 = 6
    static let startTime: UInt64 = 7
    static let endTime: UInt64 = 8
    static let attributes: UInt64 = 9
    static let status: UInt64 = 15
    static let flags: UInt64 = 16
}

/// Sets a span's attributes several at a time (``TraceSpan/updateAttributes(_:)``).
public struct SpanAttributeWriter {
    fileprivate var writer = ProtobufWriter()

    /// The attributes written, as OTLP `Span.attributes` fields.
    var bytes: [UInt8] { writer.bytes }

    /// Sets the attribute `key` to `value`.
    public mutating func set(_ key: String, _ value: TraceAttribute) {
        writer.attributeField(SpanField.attributes, key: key, value)
    }

    /// Sets the attribute `key` to `value`, its name encoded once.
    public mutating func set(_ key: TraceAttributeKey, _ value: TraceAttribute) {
        writer.attributeField(SpanField.attributes, key: key, value)
    }
}

extension TraceSpan {
    /// Sets several attributes under one lock.
    public func updateAttributes(_ body: (inout SpanAttributeWriter) -> Void) {
        withState { state in
            var attributes = SpanAttributeWriter(writer: state.attributes)
            state.attributes = ProtobufWriter()
            body(&attributes)
            state.attributes = attributes.writer
        }
    }
}
