import W3CTraceContext

@testable import PushgateTracing

/// A span as exported, read back from the queue's OTLP bytes (the end-to-end test decodes them with
/// opentelemetry-proto; this is for the unit tests).
struct ExportedSpan {
    var traceID: [UInt8] = []
    var spanID: [UInt8] = []
    var parentSpanID: [UInt8] = []
    var traceState = ""
    var name = ""
    var kind: UInt64 = 0
    var start: UInt64 = 0
    var end: UInt64 = 0
    var attributes: [String: TraceAttribute] = [:]
    var statusCode: UInt64 = 0
    var flags: UInt32 = 0

    /// The spans of the batches a queue holds, taken from it.
    static func taken(from queue: SpanExportQueue) -> [ExportedSpan] {
        queue.take().flatMap { batch in
            var reader = ProtobufReader(batch.bytes)
            var spans: [ExportedSpan] = []
            while let (field, value) = reader.next() {
                guard field == 2, case .bytes(let bytes) = value else { continue }
                spans.append(ExportedSpan(bytes))
            }
            return spans
        }
    }

    init(_ bytes: ArraySlice<UInt8>) {
        var reader = ProtobufReader(bytes)
        while let (field, value) = reader.next() {
            switch (field, value) {
            case (1, .bytes(let id)): traceID = Array(id)
            case (2, .bytes(let id)): spanID = Array(id)
            case (3, .bytes(let text)): traceState = String(decoding: text, as: UTF8.self)
            case (4, .bytes(let id)): parentSpanID = Array(id)
            case (5, .bytes(let text)): name = String(decoding: text, as: UTF8.self)
            case (6, .varint(let number)): kind = number
            case (7, .fixed64(let time)): start = time
            case (8, .fixed64(let time)): end = time
            case (9, .bytes(let keyValue)): readAttribute(keyValue)
            case (16, .fixed32(let value)): flags = value
            case (15, .bytes(let status)):
                var inner = ProtobufReader(status)
                while let (field, value) = inner.next() {
                    if field == 3, case .varint(let code) = value { statusCode = code }
                }
            default: break
            }
        }
    }

    private mutating func readAttribute(_ bytes: ArraySlice<UInt8>) {
        var reader = ProtobufReader(bytes)
        var key = ""
        var value: TraceAttribute?
        while let (field, item) = reader.next() {
            switch (field, item) {
            case (1, .bytes(let text)): key = String(decoding: text, as: UTF8.self)
            case (2, .bytes(let any)): value = Self.anyValue(any)
            default: break
            }
        }
        attributes[key] = value
    }

    private static func anyValue(_ bytes: ArraySlice<UInt8>) -> TraceAttribute? {
        var reader = ProtobufReader(bytes)
        guard let (field, item) = reader.next() else { return nil }
        switch (field, item) {
        case (1, .bytes(let text)): return .string(String(decoding: text, as: UTF8.self))
        case (3, .varint(let number)): return .int(Int64(bitPattern: number))
        case (5, .bytes(let array)):
            var values = ProtobufReader(array)
            var texts: [String] = []
            while let (_, item) = values.next() {
                if case .bytes(let any) = item, case .string(let text) = anyValue(any) { texts.append(text) }
            }
            return .strings(texts)
        default: return nil
        }
    }
}

extension Array where Element == UInt8 {
    /// Lowercase hex, as in `traceparent`.
    var hex: String {
        map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
