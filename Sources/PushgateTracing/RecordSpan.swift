/// A sampled record's consumer span, `process TOPIC` (SPEC section 11), while one thread handles the record without
/// suspending (`run`'s pipeline): no lock, no attribute buffer, and not safe to share between threads.
/// ``RecordTracer/end(_:)`` writes it, attributes and all, straight into the export queue's batch. (`deliver`, whose
/// record work suspends and has child spans, makes it a ``TraceSpan``.)
public final class RecordSpan {
    /// The trace's id, as big-endian words.
    let trace: (high: UInt64, low: UInt64)
    /// The span's id, as a big-endian word.
    let spanWord: UInt64
    /// The parent span's id, from the record's `traceparent`; `nil` for a trace's first span.
    let parentWord: UInt64?
    /// The W3C `tracestate` the span carries on.
    let traceState: String?
    /// The name and attributes of every record span of its topic and group.
    let template: RecordSpanTemplates.Template
    let startTime: UInt64
    let partition: Int32
    let offset: Int64
    /// The record's key, when it has one in valid UTF-8.
    let key: ArraySlice<UInt8>?
    /// Attributes encoded once for many spans, written after the record's own. (Set and read on one thread: the
    /// runtime's exclusivity checks, two per access, are left out.)
    @exclusivity(unchecked) public var encodedAttribute: EncodedTraceAttribute?
    /// `error.type` of a record that failed; its span's status is then `ERROR`.
    @exclusivity(unchecked) public private(set) var errorType: String?

    init(
        trace: (high: UInt64, low: UInt64), spanWord: UInt64, parentWord: UInt64?, traceState: String?,
        template: RecordSpanTemplates.Template, startTime: UInt64, partition: Int32, offset: Int64,
        key: ArraySlice<UInt8>?
    ) {
        self.trace = trace
        self.spanWord = spanWord
        self.parentWord = parentWord
        self.traceState = traceState
        self.template = template
        self.startTime = startTime
        self.partition = partition
        self.offset = offset
        self.key = key
    }

    /// Marks the span as failed: status `ERROR`, and `error.type` set to `type`.
    public func setError(type: String) { errorType = type }

    /// The length of the record's own attributes (partition, offset, key) and those set on it, measured once for
    /// writing. Plain values only: the keys and values are read from the span where they lie as they are written
    /// (copying them here retained and released each, for every span).
    private struct Attributes {
        let partition: Int64
        let partitionLength: Int
        /// Their `Span.attributes` fields' length in bytes.
        let length: Int

        init(of span: RecordSpan) {
            partition = Int64(span.partition)
            partitionLength = ProtobufWriter.decimalLength(partition)
            var length =
                ProtobufWriter.stringAttributeSize(
                    SpanField.attributes, key: span.template.keys.partition, length: partitionLength)
                + ProtobufWriter.intAttributeSize(SpanField.attributes, key: span.template.keys.offset, span.offset)
            if let count = span.key?.count {
                length += ProtobufWriter.stringAttributeSize(
                    SpanField.attributes, key: span.template.keys.key, length: count)
            }
            if let count = span.encodedAttribute?.field.count { length += count }
            // A failed record's (rare): bound as it is.
            if let errorType = span.errorType {
                length += ProtobufWriter.attributeFieldSize(
                    SpanField.attributes, key: span.template.keys.errorType, .string(errorType))
            }
            self.length = length
        }

        func write(of span: RecordSpan, into cursor: inout ProtobufCursor) {
            cursor.decimalAttribute(
                SpanField.attributes, key: span.template.keys.partition, partition, length: partitionLength)
            cursor.intAttribute(SpanField.attributes, key: span.template.keys.offset, span.offset)
            span.key?.withUnsafeBytes {
                cursor.stringAttribute(SpanField.attributes, key: span.template.keys.key, $0)
            }
            span.encodedAttribute?.field.withUnsafeBytes { cursor.raw($0) }
            if let errorType = span.errorType {
                cursor.attributeField(SpanField.attributes, key: span.template.keys.errorType, .string(errorType))
            }
        }
    }

    /// Every attribute of the span, as `Span.attributes` fields: the template's, the record's own, ``encodedAttribute``
    /// and `error.type`.
    var attributes: [UInt8] {
        let own = Attributes(of: self)
        var writer = ProtobufWriter()
        writer.append(template.attributes)
        writer.write(size: own.length) { own.write(of: self, into: &$0) }
        return writer.bytes
    }

    /// Writes the span, ended at `endTime`, as the field `spans` (2) of an OTLP `ScopeSpans`: tag, length and the
    /// `Span` message, as ``TraceSpan`` writes its own.
    func encode(into writer: inout ProtobufWriter, endTime: UInt64) {
        let own = Attributes(of: self)
        var length =
            ProtobufWriter.lengthDelimitedSize(SpanField.traceID, length: 16)
            + ProtobufWriter.lengthDelimitedSize(SpanField.spanID, length: 8)
            + ProtobufWriter.lengthDelimitedSize(SpanField.name, length: template.nameLength)
            + 2 + 9 + 9 + template.attributes.count + own.length + 6
        if let traceState {
            length += ProtobufWriter.lengthDelimitedSize(SpanField.traceState, length: traceState.utf8.count)
        }
        if parentWord != nil { length += ProtobufWriter.lengthDelimitedSize(SpanField.parentSpanID, length: 8) }
        if errorType != nil { length += 4 }
        writer.write(size: ProtobufWriter.lengthDelimitedSize(2, length: length)) { cursor in
            cursor.lengthDelimitedHeader(2, length: length)
            cursor.lengthDelimitedHeader(SpanField.traceID, length: 16)
            cursor.word(trace.high.bigEndian)
            cursor.word(trace.low.bigEndian)
            cursor.lengthDelimitedHeader(SpanField.spanID, length: 8)
            cursor.word(spanWord.bigEndian)
            if let traceState { cursor.stringField(SpanField.traceState, traceState) }
            if let parentWord {
                cursor.lengthDelimitedHeader(SpanField.parentSpanID, length: 8)
                cursor.word(parentWord.bigEndian)
            }
            cursor.stringField(SpanField.name, template.name)
            cursor.varintField(SpanField.kind, TraceSpan.Kind.consumer.rawValue)
            cursor.fixed64Field(SpanField.startTime, startTime)
            cursor.fixed64Field(SpanField.endTime, endTime)
            template.attributes.withUnsafeBytes { cursor.raw($0) }
            own.write(of: self, into: &cursor)
            if errorType != nil {
                // Status { code = 3: STATUS_CODE_ERROR (2) }
                cursor.lengthDelimitedHeader(SpanField.status, length: 2)
                cursor.varintField(3, 2)
            }
            // Sampled (0x01); whether the parent is remote is known (0x100) and, with a parent, it is (0x200).
            cursor.fixed32Field(SpanField.flags, parentWord == nil ? 0x01 : 0x301)
        }
    }
}

/// An attribute encoded once, as a `Span.attributes` field, and written as it is on every span it is set on: for
/// a value many spans share (the pipeline's `pushgate.formats` of each set of formats).
public struct EncodedTraceAttribute: Sendable {
    /// The `Span.attributes` field: tag, length and the `KeyValue`.
    let field: [UInt8]

    /// The attribute `key` set to `value`.
    public init(_ key: TraceAttributeKey, _ value: TraceAttribute) {
        var writer = ProtobufWriter()
        writer.attributeField(SpanField.attributes, key: key, value)
        field = writer.bytes
    }
}
