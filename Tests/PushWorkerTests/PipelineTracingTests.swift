import PushModel
import PushTranslation
import Testing

@testable import PushWorker
@testable import PushgateTracing

/// `pushgate.formats` on a sampled input's span: encoded once for each set of formats, and the same as writing the
/// list for that input.
@Suite struct PipelineTracingTests {
    private static func tracing() throws -> PipelineTracing {
        let settings = try TracingSettings.resolve(
            ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"], defaultServiceName: "pushgate-test")
        let tracer = RecordTracer(queue: SpanExportQueue(dropped: { _ in }), sampler: TraceSampler(settings))
        return PipelineTracing(tracer: tracer, group: "g")
    }

    private static func translation(_ formats: [OutputFormat?]) -> Translation {
        Translation(
            records: formats.map { format in
                OutputRecord(
                    topic: format?.defaultTopic ?? "push.dlq", format: format, key: nil, value: [], headers: [])
            })
    }

    /// What `formats` written one by one, in their order, encode to.
    private static func written(_ formats: [OutputFormat]) -> [UInt8] {
        EncodedTraceAttribute(TraceAttributeKey("pushgate.formats"), .strings(formats.map(\.rawValue))).field
    }

    @Test func everySetOfFormatsInTheirOrderIsEncodedAsItsList() throws {
        let tracing = try Self.tracing()
        for bits in 0..<(1 << OutputFormat.allCases.count) {
            let formats = OutputFormat.allCases.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element)
            #expect(tracing.formatsAttribute(of: Self.translation(formats)).field == Self.written(formats))
        }
    }

    @Test func deadLettersHaveNoFormat() throws {
        let tracing = try Self.tracing()
        let attribute = tracing.formatsAttribute(of: Self.translation([.apns, nil, .webpush, nil]))
        #expect(attribute.field == Self.written([.apns, .webpush]))
        #expect(tracing.formatsAttribute(of: Self.translation([nil])).field == Self.written([]))
    }

    @Test func formatsOutOfOrderOrRepeatedAreWrittenAsTheyCome() throws {
        let tracing = try Self.tracing()
        for formats: [OutputFormat] in [
            [.fcm, .apns], [.apns, .apns], [.webpush, .fbCard, .adobeCarousel], [.fcm, .fcm, .webpush],
        ] {
            #expect(tracing.formatsAttribute(of: Self.translation(formats)).field == Self.written(formats))
        }
    }
}
