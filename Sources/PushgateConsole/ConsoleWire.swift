import Foundation
import PushgateKafka

/// The JSON shapes of the console's API (docs/console.md), encoded with snake_case names.
enum ConsoleWire {
    /// How many bytes of a value a list answer carries; the letter's own answer carries it whole.
    static let listedValueBytes = 64 * 1024

    struct SourceRecord: Encodable {
        var topic: String
        var partition: Int32
        var offset: Int64
    }

    struct Letter: Encodable {
        var partition: Int32
        var offset: Int64
        var timestampMs: Int64?
        var key: String?
        var keyBase64: String?
        var stage: String?
        var format: String?
        var errors: [DeadLetter.Problem]
        var headers: [[String?]]
        var value: String
        var valueBytes: Int
        var valueCut: Bool
        var valueBase64: String?
        /// Whether the value is null (the letter of a tombstone), not empty.
        var valueNull: Bool
        var binary: Bool
        var writtenByPushgate: Bool
        var source: SourceRecord?
        /// How many times the console re-drove it (each value once).
        var redriven = 0

        enum CodingKeys: String, CodingKey {
            case partition, offset, timestampMs, key, keyBase64, stage, format, errors, headers, value, valueBytes,
                valueCut
            case valueBase64, valueNull, binary, writtenByPushgate, source, redriven
        }

        /// Every member, `null` included: a client reads `key: null`, not a missing member.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(partition, forKey: .partition)
            try container.encode(offset, forKey: .offset)
            try container.encode(timestampMs, forKey: .timestampMs)
            try container.encode(key, forKey: .key)
            try container.encodeIfPresent(keyBase64, forKey: .keyBase64)
            try container.encode(stage, forKey: .stage)
            try container.encode(format, forKey: .format)
            try container.encode(errors, forKey: .errors)
            try container.encode(headers, forKey: .headers)
            try container.encode(value, forKey: .value)
            try container.encode(valueBytes, forKey: .valueBytes)
            try container.encode(valueCut, forKey: .valueCut)
            try container.encode(valueBase64, forKey: .valueBase64)
            try container.encode(valueNull, forKey: .valueNull)
            try container.encode(binary, forKey: .binary)
            try container.encode(writtenByPushgate, forKey: .writtenByPushgate)
            try container.encode(source, forKey: .source)
            try container.encode(redriven, forKey: .redriven)
        }

        init(_ letter: DeadLetter, valueLimit: Int) {
            partition = letter.partition
            offset = letter.offset
            timestampMs = letter.timestampMs
            key = letter.key.map { String(decoding: $0, as: UTF8.self) }
            keyBase64 = letter.key.flatMap {
                String(validating: $0, as: UTF8.self) == nil ? Data($0).base64EncodedString() : nil
            }
            stage = letter.stage
            format = letter.format
            errors = letter.errors
            headers = letter.headers.map { [$0.name, $0.value.map { String(decoding: $0, as: UTF8.self) }] }
            let shown = letter.value.prefix(valueLimit)
            value = String(decoding: shown, as: UTF8.self)
            valueBytes = letter.valueBytes
            valueCut = shown.count < letter.valueBytes
            valueNull = letter.valueIsNull
            binary = letter.valueIsBinary
            valueBase64 = binary ? Data(shown).base64EncodedString() : nil
            writtenByPushgate = letter.writtenByPushgate
            source = letter.source.map { SourceRecord(topic: $0.topic, partition: $0.partition, offset: $0.offset) }
        }
    }

    struct Page: Encodable {
        var letters: [Letter]
        var counts: [String: Int]
        var stageCounts: [String: Int]
        var matching: Int
        var total: Int
        var cursor: String?
        /// With `q` only: how far the text search got.
        var search: Search?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(letters, forKey: .letters)
            try container.encode(counts, forKey: .counts)
            try container.encode(stageCounts, forKey: .stageCounts)
            try container.encode(matching, forKey: .matching)
            try container.encode(total, forKey: .total)
            try container.encode(cursor, forKey: .cursor)  // null on the last page, not left out
            try container.encodeIfPresent(search, forKey: .search)
        }

        enum CodingKeys: String, CodingKey { case letters, counts, stageCounts, matching, total, cursor, search }
    }

    /// How far a text search (`q`) got: `scanned` of `total` records read, `done` once all are.
    struct Search: Encodable {
        var scanned: Int
        var total: Int
        var done: Bool
        var error: String?

        init(_ progress: TextSearch.Progress) {
            (scanned, total, done, error) = (progress.scanned, progress.total, progress.done, progress.error)
        }
    }

    struct Outcome: Encodable {
        var topic: String
        var partition: Int32
        var offset: Int64
        var format: String?
        var deadLetter: Bool
        var value: String?
        var stage: String?
        var errors: [DeadLetter.Problem]?

        init(_ outcome: FollowThrough.Outcome) {
            topic = outcome.topic
            partition = outcome.partition
            offset = outcome.offset
            format = outcome.format
            deadLetter = outcome.isDeadLetter
            value = outcome.isDeadLetter ? nil : outcome.value.map { String(decoding: $0, as: UTF8.self) }
            stage = outcome.stage
            errors = outcome.isDeadLetter ? outcome.errors : nil
        }
    }

    struct LetterRef: Encodable {
        var partition: Int32
        var offset: Int64
    }

    struct Redrive: Encodable {
        var letter: LetterRef
        var partition: Int32
        var offset: Int64
        var source: String
        var unchanged: Bool
        var new: Bool
        var outcomes: [Outcome]
    }

    struct RedriveAnswer: Encodable {
        var written: Int
        var records: [Redrive]
    }

    struct LetterAnswer: Encodable {
        var letter: Letter
        var redrives: [Redrive]
    }

    struct RedriveList: Encodable {
        var redrives: [Redrive]
        /// How many re-drives this console has written in all.
        var total: Int
    }

    struct Ids: Encodable {
        var ids: [[Int64]]
        /// With `q` only: how far the text search got.
        var search: Search?
    }

    struct RedriveBody: Decodable {
        struct Item: Decodable {
            var partition: Int32
            var offset: Int64
            var payload: String?
        }
        var letters: [Item]
    }

    struct Live: Encodable {
        struct Topic: Encodable {
            var topic: String
            var role: String
            var end: Int64
            var perSecond: Double
        }
        struct Lag: Encodable {
            var partition: Int32
            var committed: Int64?
            var end: Int64
            var lag: Int64

            enum CodingKeys: String, CodingKey { case partition, committed, end, lag }

            /// `committed: null` for a partition without a commit.
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(partition, forKey: .partition)
                try container.encode(committed, forKey: .committed)
                try container.encode(end, forKey: .end)
                try container.encode(lag, forKey: .lag)
            }
        }
        var connected: Bool
        var error: String?
        var lastSeenMs: Int64?
        var group: String
        var topics: [Topic]
        var lag: [Lag]
        var totalLag: Int64
        var deadLetters: Int
    }

    struct Config: Encodable {
        var inputTopic: String
        var deadLetterTopic: String
        var topics: [String: String]
        var groupId: String
        var androidFormats: [String]
        var lenient: Bool
        var bootstrapServers: String
        var embeddedBroker: Bool
        var maxPayloadBytes: Int
    }

    /// `value` as JSON with snake_case keys.
    static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return (try? encoder.encode(value)).map(Array.init) ?? Array("{}".utf8)
    }
}
