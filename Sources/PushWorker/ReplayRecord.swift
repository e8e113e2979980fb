import Foundation
import PushgateKafka

/// One record to write again into the input topic: its key, value and headers.
public struct ReplayRecord: Sendable, Equatable {
    /// The key, unchanged.
    public var key: [UInt8]?
    /// The value: the unified payload bytes.
    public var value: [UInt8]
    /// Whether the value is null (the dead letter of a tombstone): it is written as null again.
    public var valueIsNull: Bool
    /// The headers as read (stripped by ``ReplayFilter/forwardedHeaders(_:)`` before writing).
    public var headers: [KafkaHeader]

    /// Creates a record.
    public init(key: [UInt8]?, value: [UInt8], headers: [KafkaHeader] = [], valueIsNull: Bool = false) {
        self.key = key
        self.value = value
        self.valueIsNull = valueIsNull && value.isEmpty
        self.headers = headers
    }
}

/// Which records a replay writes, and which of their headers go along.
public struct ReplayFilter: Sendable {
    /// Only dead letters with this error code (`__connect.errors.exception.class.name`, or any code in
    /// `pushgate-errors`); `nil` for all records.
    public var errorCode: String?
    /// Only records whose `pushgate-format` header is this format; `nil` for all records.
    public var format: String?

    /// Creates a filter.
    public init(errorCode: String? = nil, format: String? = nil) {
        self.errorCode = errorCode
        self.format = format
    }

    /// Whether `record` is replayed.
    public func accepts(_ record: ReplayRecord) -> Bool {
        if let format, Self.text(of: "pushgate-format", in: record.headers) != format { return false }
        if let errorCode {
            let first = Self.text(of: "__connect.errors.exception.class.name", in: record.headers)
            if first != errorCode && !Self.errorCodes(in: record.headers).contains(errorCode) { return false }
        }
        return true
    }

    /// The headers written with a replayed record: all but `pushgate-*` and `__connect.errors.*`
    /// (pushgate writes them itself, and would not forward them anyway).
    public static func forwardedHeaders(_ headers: [KafkaHeader]) -> [KafkaHeader] {
        headers.filter { header in
            let name = header.name.lowercased()
            return !name.hasPrefix("pushgate-") && !name.hasPrefix("__connect.errors.")
        }
    }

    private static func text(of name: String, in headers: [KafkaHeader]) -> String? {
        headers.first { $0.name == name }?.value.map { String(decoding: $0, as: UTF8.self) }
    }

    private static func errorCodes(in headers: [KafkaHeader]) -> [String] {
        guard let bytes = headers.first(where: { $0.name == "pushgate-errors" })?.value,
            let errors = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]]
        else { return [] }
        return errors.compactMap { $0["code"] as? String }
    }
}
