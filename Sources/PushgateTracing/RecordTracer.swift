import OTelSemanticConventions
import PushModel
import Synchronization
import W3CTraceContext

/// The spans of SPEC section 11 for the records pushgate reads and the requests it makes. Whether a record is
/// sampled is decided here first (``TraceSampler``): a sampled record's span is made and, when it ends, queued for
/// export; one that is not sampled gets ids of its own and no span. Parents are read from record headers; the
/// span's `traceparent` and `tracestate` are written for the records made on its behalf.
public struct RecordTracer: Sendable {
    private let queue: SpanExportQueue
    private let sampler: TraceSampler
    private let ids = TraceIDGenerator()
    private let templates = RecordSpanTemplates()

    /// Spans queued in `queue` for the records `sampler` samples.
    public init(queue: SpanExportQueue, sampler: TraceSampler) {
        self.queue = queue
        self.sampler = sampler
    }

    /// The trace of one record read from `topic`: its consumer span `process TOPIC`, a child of the trace context
    /// of its `headers`, with the messaging attributes for Kafka when sampled. `key` is written when it is given
    /// and valid UTF-8; `group` when given.
    public func startRecord(
        topic: String, partition: Int32, offset: Int64, group: String?, key: [UInt8]?, headers: [RecordHeader]
    ) -> RecordTrace {
        startRecord(
            topic: topic, partition: partition, offset: offset, group: group, key: key, headers: headers,
            places: TraceHeaderPlaces(of: headers))
    }

    /// ``startRecord(topic:partition:offset:group:key:headers:)`` for a record whose trace headers are at
    /// `places` of `headers` (noted while the list was made).
    public func startRecord(
        topic: String, partition: Int32, offset: Int64, group: String?, key: [UInt8]?, headers: [RecordHeader],
        places: TraceHeaderPlaces
    ) -> RecordTrace {
        var span: RecordSpan?
        let trace = startRecord(
            topic: topic, partition: partition, offset: offset, group: group, key: key, headers: headers,
            places: places, span: &span)
        guard let span else { return trace }
        return RecordTrace(span: TraceSpan(record: span, queue: queue), headers: trace.headers)
    }

    /// The trace of one record, as ``startRecord(topic:partition:offset:group:key:headers:places:)`` makes it, but
    /// the span of a sampled record kept apart, in `span`, for the one thread that handles the record to finish
    /// and ``end(_:)``; `span` is left as it is when the record is not sampled.
    public func startRecord(
        topic: String, partition: Int32, offset: Int64, group: String?, key: [UInt8]?, headers: [RecordHeader],
        places: TraceHeaderPlaces, span: inout RecordSpan?
    ) -> RecordTrace {
        let parent = Self.parent(in: headers, at: places)
        let tracestate = parent == nil || places.tracestate == nil ? nil : Self.tracestate(in: headers, at: places)
        let spanWord: UInt64
        let headers: TraceHeaders
        let sampled: Bool
        // A new trace's id; a child's is its parent's, read from the parent's text only when sampled.
        var trace = (high: UInt64(0), low: UInt64(0))
        if let parent {
            spanWord = ids.spanWord()
            sampled = sampler.isSampled(parent: parent)
            headers = TraceHeaders(parent: parent, spanID: spanWord, sampled: sampled, tracestate: tracestate)
        } else {
            let words = ids.traceAndSpanWords()
            (trace, spanWord) = (words.trace, words.span)
            sampled = sampler.isSampled(traceLow: words.trace.low, parentSampled: nil)
            headers = TraceHeaders(traceID: words.trace, spanID: spanWord, sampled: sampled)
        }
        guard sampled else { return RecordTrace(headers: headers) }
        let startTime = TraceSpan.now()
        var parentWord: UInt64?
        if let parent {
            let ids = parent.ids
            (trace, parentWord) = (ids.trace, ids.span)
        }
        span = RecordSpan(
            trace: trace, spanWord: spanWord, parentWord: parentWord, traceState: tracestate,
            template: templates.template(topic: topic, group: group), startTime: startTime, partition: partition,
            offset: offset, key: key.flatMap { TraceAttribute.isValidUTF8($0[...]) ? $0[...] : nil })
        return RecordTrace(headers: headers)
    }

    /// Ends a record's span (``startRecord(topic:partition:offset:group:key:headers:places:span:)``) now: it is
    /// written into the export queue's batch.
    public func end(_ span: RecordSpan) {
        let endTime = TraceSpan.now()
        queue.submit { span.encode(into: &$0, endTime: endTime) }
    }

    /// The client span `POST` of one request to a push service at `host`:`port`, a child of `record`'s span;
    /// `nil` when the record is not sampled (nor, then, are its requests).
    public func startRequestSpan(host: String, port: Int, record: RecordTrace) -> TraceSpan? {
        guard let parent = record.span else { return nil }
        let span = TraceSpan(
            traceID: parent.traceID, spanID: ids.spanID(), parent: parent.spanID, parentIsRemote: false,
            traceState: parent.traceState, name: "POST", kind: .client, queue: queue)
        span.updateAttributes { attributes in
            attributes.set(OTelAttribute.http.request.method, .string("POST"))
            attributes.set(OTelAttribute.server.address, .string(host))
            attributes.set(OTelAttribute.server.port, .int(Int64(port)))
        }
        return span
    }

    /// A record's parent: its `traceparent`; `nil` without a valid one.
    static func parent(in headers: [RecordHeader]) -> TraceParent? {
        parent(in: headers, at: TraceHeaderPlaces(of: headers))
    }

    /// ``parent(in:)`` of a list whose trace headers are at `places`. (A plain value: its `tracestate` is read
    /// apart, ``tracestate(in:at:)``, as the two together were copied through the runtime's value witnesses.)
    static func parent(in headers: [RecordHeader], at places: TraceHeaderPlaces) -> TraceParent? {
        guard let index = places.traceparent else { return nil }
        return headers.withUnsafeBufferPointer { headers in
            headers[index].value?.withUnsafeBytes { TraceParent(bytes: $0) }
        }
    }

    /// The `tracestate` of a record whose `traceparent` is valid, when it is valid too (W3C Trace Context: an
    /// invalid `tracestate` is dropped, the `traceparent` kept).
    static func tracestate(in headers: [RecordHeader], at places: TraceHeaderPlaces) -> String? {
        guard let stateIndex = places.tracestate, let index = places.traceparent,
            let state = headers[stateIndex].value.flatMap({ String(validating: $0, as: UTF8.self) }), !state.isEmpty,
            let value = headers[index].value,
            // W3CTraceContext checks the list (its parser of `tracestate` alone is not public).
            (try? TraceContext(
                traceParentHeaderValue: String(decoding: value, as: UTF8.self), traceStateHeaderValue: state)) != nil
        else { return nil }
        return state
    }
}

/// The keys of the attributes every sampled record's span gets a value of its own for, encoded once (each
/// template holds them: a static value would be looked up through `swift_once` at every use).
struct RecordAttributeKeys: Sendable {
    let partition = TraceAttributeKey(OTelAttribute.messaging.destination.partition.id)
    let offset = TraceAttributeKey(OTelAttribute.messaging.kafka.offset)
    let key = TraceAttributeKey(OTelAttribute.messaging.kafka.message.key)
    let errorType = TraceAttributeKey(OTelAttribute.error.type)
}

/// What every record span of one topic and consumer group has in common, written once: its name
/// `process TOPIC` and its attributes `messaging.system`, `messaging.operation.type`,
/// `messaging.destination.name` and `messaging.consumer.group.name`, as OTLP bytes. The last one is kept: a
/// worker reads one topic, or a few in turn.
final class RecordSpanTemplates: Sendable {
    /// One topic's and group's: an object, so that a span holds it with one reference.
    final class Template: Sendable {
        let topic: String
        let group: String?
        let name: String
        /// `name`'s length in UTF-8 bytes.
        let nameLength: Int
        let attributes: [UInt8]
        /// The keys of the attributes each span sets.
        let keys = RecordAttributeKeys()

        init(topic: String, group: String?) {
            var writer = SpanAttributeWriter()
            writer.set(OTelAttribute.messaging.system, .string("kafka"))
            writer.set(OTelAttribute.messaging.operation.type, .string("process"))
            writer.set(OTelAttribute.messaging.destination.name, .string(topic))
            if let group { writer.set(OTelAttribute.messaging.consumer.group.name, .string(group)) }
            self.topic = topic
            self.group = group
            self.name = "process \(topic)"
            self.nameLength = name.utf8.count
            self.attributes = writer.bytes
        }
    }

    private let last = Mutex<Template?>(nil)

    /// The template of records read from `topic` by `group`.
    func template(topic: String, group: String?) -> Template {
        if let template = last.withLock({ $0 }), template.topic == topic, template.group == group { return template }
        let template = Template(topic: topic, group: group)
        last.withLock { $0 = template }
        return template
    }
}
