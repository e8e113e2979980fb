import PushModel

/// What a ``Translator`` needs to know besides the record: topic names, limits and leniency.
public struct TranslatorConfiguration: Sendable, Equatable {
    /// Whether unknown fields are warnings instead of errors. Default: `false`.
    public var lenient: Bool
    /// The largest payload accepted, in bytes; larger is `too_large`. Default: 1 MiB (1,048,576).
    public var maxPayloadBytes: Int
    /// The output topic of each format. Default: the names of SPEC section 1 (`push.apns`, ...).
    public var topics: [OutputFormat: String] {
        didSet { topicsInRecordOrder = Self.topicsInRecordOrder(topics) }
    }
    /// ``topics`` by ``OutputFormat/order``, so that looking one up per record hashes nothing.
    private var topicsInRecordOrder: [String]
    /// The dead-letter topic. Default: `push.dlq`.
    public var deadLetterTopic: String
    /// The formats a payload routed to Android gets (`--android-formats`, SPEC section 4): Android formats
    /// only, at least one. Default: `android-expandable`.
    public var androidFormats: OutputFormatSet

    /// The default input topic name, `push.unified`.
    public static let defaultInputTopic = "push.unified"
    /// The default dead-letter topic name, `push.dlq`.
    public static let defaultDeadLetterTopic = "push.dlq"
    /// The default Android formats: `android-expandable`.
    public static let defaultAndroidFormats = OutputFormatSet([.androidExpandable])

    /// Reads `--android-formats`: a comma-separated list of `android-expandable` and `fcm`, exact
    /// lower-case names, no spaces, repeats allowed. `nil` for an empty list or any other name.
    public static func androidFormats(from text: String) -> OutputFormatSet? {
        var formats = OutputFormatSet()
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let format = OutputFormat(rawValue: String(name)), format.isAndroidFormat else { return nil }
            formats.insert(format)
        }
        return formats.isEmpty ? nil : formats
    }

    /// The names `--android-formats` accepts, for messages.
    public static let androidFormatNames = OutputFormat.allCases.filter(\.isAndroidFormat).map(\.rawValue)

    /// The default payload limit, 1 MiB.
    public static let defaultMaxPayloadBytes = 1_048_576

    /// Creates a configuration; every argument has the documented default.
    public init(
        lenient: Bool = false,
        maxPayloadBytes: Int = TranslatorConfiguration.defaultMaxPayloadBytes,
        topics: [OutputFormat: String] = [:],
        deadLetterTopic: String = TranslatorConfiguration.defaultDeadLetterTopic,
        androidFormats: OutputFormatSet = TranslatorConfiguration.defaultAndroidFormats
    ) {
        self.androidFormats = androidFormats
        self.lenient = lenient
        self.maxPayloadBytes = maxPayloadBytes
        var all: [OutputFormat: String] = [:]
        for format in OutputFormat.allCases { all[format] = topics[format] ?? format.defaultTopic }
        self.topics = all
        self.topicsInRecordOrder = Self.topicsInRecordOrder(all)
        self.deadLetterTopic = deadLetterTopic
    }

    private static func topicsInRecordOrder(_ topics: [OutputFormat: String]) -> [String] {
        OutputFormat.allCases.sorted().map { topics[$0] ?? $0.defaultTopic }
    }

    /// The topic records of `format` go to.
    public func topic(for format: OutputFormat) -> String { topicsInRecordOrder[format.order] }

    /// Every topic a translation may write to, each once: the formats' topics in record order (any format,
    /// whatever `androidFormats` says: a payload's `targets` may name it), then the dead-letter topic.
    public var writtenTopics: [String] {
        var seen = Set<String>()
        return (topicsInRecordOrder + [deadLetterTopic]).filter { seen.insert($0).inserted }
    }
}
