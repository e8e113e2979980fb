import Logging

/// The log handler of swift-otel's diagnostic lines: forwards every line and counts the spans they say were
/// dropped. swift-otel 1.6 says so only in its log lines: a full queue (`dropped_count`) and a batch that could not
/// be exported (`Failed to export batch.`, with the batch's `batch_size` in the logger's metadata).
struct DroppedSpanCounter: LogHandler {
    private var base: any LogHandler
    private let count: @Sendable (Int) -> Void

    /// Forwards to `base`; calls `count` with the number of spans each line says were dropped.
    init(forwardingTo base: any LogHandler, count: @escaping @Sendable (Int) -> Void) {
        self.base = base
        self.count = count
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        if let dropped = Self.droppedSpans(message: event.message, metadata: event.metadata, logger: metadata) {
            count(dropped)
        }
        base.log(event: event)
    }

    /// How many spans a line of swift-otel's says were dropped; `nil` when it says none was.
    static func droppedSpans(
        message: Logger.Message, metadata: Logger.Metadata?, logger: Logger.Metadata
    ) -> Int? {
        func number(_ key: String) -> Int? {
            switch metadata?[key] ?? logger[key] {
            case .string(let text)?: Int(text)
            case .stringConvertible(let value)?: Int(value.description)
            default: nil
            }
        }
        if let dropped = number("dropped_count") { return dropped }
        if message.description == "Failed to export batch." { return number("batch_size") }
        return nil
    }
}
