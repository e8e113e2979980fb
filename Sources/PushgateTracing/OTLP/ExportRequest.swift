import NIOCore

/// The parts of an OTLP `ExportTraceServiceRequest` (opentelemetry-proto's collector/trace/v1) that are the same for
/// every batch, written once: the resource (`service.name`, `OTEL_RESOURCE_ATTRIBUTES`, the SDK's name and language)
/// and the instrumentation scope `pushgate`.
struct ExportRequest: Sendable {
    /// `ResourceSpans.resource` (field 1): a `Resource` whose attributes are field 1.
    private let resource: [UInt8]
    /// `ScopeSpans.scope` (field 1): an `InstrumentationScope` named `pushgate`.
    private let scope: [UInt8]

    /// The request parts of a process named `serviceName`, with `attributes` on its resource.
    init(serviceName: String, attributes: [String: String]) {
        var resourceAttributes = attributes
        resourceAttributes["service.name"] = serviceName
        resourceAttributes["telemetry.sdk.name"] = "pushgate"
        resourceAttributes["telemetry.sdk.language"] = "swift"
        var fields = ProtobufWriter()
        for (key, value) in resourceAttributes.sorted(by: { $0.key < $1.key }) {
            fields.attributeField(1, key: key, .string(value))
        }
        var resource = ProtobufWriter()
        resource.lengthDelimitedHeader(1, length: fields.count)
        resource.append(fields.bytes)
        self.resource = resource.bytes
        var scope = ProtobufWriter()
        scope.lengthDelimitedHeader(1, length: ProtobufWriter.lengthDelimitedSize(1, length: 8))
        scope.stringField(1, "pushgate")
        self.scope = scope.bytes
    }

    /// The request of one batch: `ExportTraceServiceRequest { resource_spans (1) { resource, scope_spans (2) {
    /// scope, spans } } }`, the spans already encoded as `ScopeSpans.spans` fields.
    func body(spans: ProtobufWriter) -> ByteBuffer {
        let scopeSpansLength = scope.count + spans.count
        let resourceSpansLength = resource.count + ProtobufWriter.lengthDelimitedSize(2, length: scopeSpansLength)
        var head = ProtobufWriter(capacity: 16)
        head.lengthDelimitedHeader(1, length: resourceSpansLength)
        var buffer = ByteBuffer()
        buffer.reserveCapacity(ProtobufWriter.lengthDelimitedSize(1, length: resourceSpansLength))
        buffer.writeBytes(head.bytes)
        buffer.writeBytes(resource)
        var scopeSpansHead = ProtobufWriter(capacity: 8)
        scopeSpansHead.lengthDelimitedHeader(2, length: scopeSpansLength)
        buffer.writeBytes(scopeSpansHead.bytes)
        buffer.writeBytes(scope)
        spans.withBytes { _ = buffer.writeBytes($0) }
        return buffer
    }

    /// The spans a collector says it rejected: `ExportTraceServiceResponse.partial_success` (1)
    /// `.rejected_spans` (1), and its `error_message` (2); `nil` for an answer without them (or not protobuf).
    static func rejected(in answer: [UInt8]) -> (count: Int64, message: String)? {
        var reader = ProtobufReader(answer)
        while let (field, value) = reader.next() {
            guard field == 1, case .bytes(let partial) = value else { continue }
            var inner = ProtobufReader(partial)
            var count: Int64 = 0
            var message = ""
            while let (field, value) = inner.next() {
                switch (field, value) {
                case (1, .varint(let number)): count = Int64(bitPattern: number)
                case (2, .bytes(let text)): message = String(decoding: text, as: UTF8.self)
                default: break
                }
            }
            return count > 0 || !message.isEmpty ? (count, message) : nil
        }
        return nil
    }
}

/// Reads Protocol Buffers' fields one after the other; stops at the first malformed byte.
struct ProtobufReader {
    enum Value {
        case varint(UInt64)
        case bytes(ArraySlice<UInt8>)
        case fixed64(UInt64)
        case fixed32(UInt32)
    }

    private let bytes: ArraySlice<UInt8>
    private var index: Int

    init(_ bytes: some Collection<UInt8>) {
        self.bytes = ArraySlice(bytes)
        self.index = self.bytes.startIndex
    }

    /// The next field's number and value; `nil` at the end or at a malformed field.
    mutating func next() -> (field: UInt64, value: Value)? {
        guard let key = varint() else { return nil }
        switch key & 7 {
        case 0: return varint().map { (key >> 3, .varint($0)) }
        case 1, 5:
            let size = key & 7 == 1 ? 8 : 4
            guard bytes.endIndex - index >= size else { return nil }
            var value: UInt64 = 0
            for offset in 0..<size { value |= UInt64(bytes[index + offset]) << (8 * UInt64(offset)) }
            index += size
            return (key >> 3, size == 8 ? .fixed64(value) : .fixed32(UInt32(truncatingIfNeeded: value)))
        case 2:
            guard let length = varint(), length <= UInt64(bytes.endIndex - index) else { return nil }
            let value = bytes[index..<index + Int(length)]
            index += Int(length)
            return (key >> 3, .bytes(value))
        default: return nil
        }
    }

    private mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.endIndex, shift < 64 {
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }
}
