import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Which dead letters a request asks for: the filters of `GET /api/dead-letters`, all optional.
///
/// `code` (any of the letter's errors), `stage` (`parse`, `validate`, `emit`, or `none` for records
/// pushgate did not write), `topic` and `partition` (the source record's), `key` (the key as text,
/// exactly), `q` (text the value contains, exactly), `from_ms` and `to_ms` (the record timestamp, from
/// inclusive, to exclusive). The time range also bounds the counts; the other filters do not.
public struct DeadLetterQuery: Sendable, Equatable {
    /// An error code the letter has.
    public var code: String?
    /// The letter's stage, or `none`.
    public var stage: String?
    /// The source record's topic.
    public var sourceTopic: String?
    /// The source record's partition.
    public var sourcePartition: Int32?
    /// The key, as text.
    public var key: String?
    /// Text in the value.
    public var text: String?
    /// Timestamps at or after this (ms).
    public var fromMs: Int64?
    /// Timestamps before this (ms).
    public var toMs: Int64?

    /// No filter: every letter.
    public init() {}

    /// The filters of a query string (`code=C&stage=S&...`, percent-encoded; `+` is a space).
    /// - Throws: ``DeadLetterQueryError`` for a number that does not read as one.
    public init(queryItems: [String: String]) throws(DeadLetterQueryError) {
        func number<T: FixedWidthInteger>(_ name: String, as: T.Type) throws(DeadLetterQueryError) -> T? {
            guard let text = queryItems[name], !text.isEmpty else { return nil }
            guard let value = T(text) else { throw DeadLetterQueryError("\(name) must be an integer, got '\(text)'") }
            return value
        }
        func item(_ name: String) -> String? { queryItems[name].flatMap { $0.isEmpty ? nil : $0 } }
        code = item("code")
        stage = item("stage")
        sourceTopic = item("topic")
        sourcePartition = try number("partition", as: Int32.self)
        key = queryItems["key"]
        text = item("q")
        fromMs = try number("from_ms", as: Int64.self)
        toMs = try number("to_ms", as: Int64.self)
    }

    /// The filters, ready to test summaries against `tables`; `found` answers `q` (`nil`: no letter
    /// passes `q`, when it is asked).
    func matcher(_ tables: DeadLetterTables, found: TextSearch.Found?) -> Matcher {
        Matcher(
            fromMs: fromMs, toMs: toMs, code: code.map { tables.knownCode($0) },
            stage: stage.map { tables.knownStage($0) },
            topic: sourceTopic.map { tables.knownTopic($0) }, partition: sourcePartition,
            keyHash: key.map { DeadLetterSummary.hash($0.utf8) }, text: text == nil ? nil : .some(found))
    }

    /// Tests summaries against the filters of a query. A filter naming a text no letter has (`.some(nil)`)
    /// passes no letter.
    struct Matcher {
        let fromMs: Int64?
        let toMs: Int64?
        let code: Int??
        let stage: UInt8??
        let topic: UInt16??
        let partition: Int32?
        let keyHash: UInt64?
        let text: TextSearch.Found??

        /// Whether `letter` is in the time range.
        func inTimeRange(_ letter: DeadLetterSummary) -> Bool {
            if fromMs == nil && toMs == nil { return true }
            guard let timestamp = letter.timestampMs else { return false }
            if let fromMs, timestamp < fromMs { return false }
            if let toMs, timestamp >= toMs { return false }
            return true
        }

        /// Whether `letter`, at `row`, passes every filter.
        func matches(_ letter: DeadLetterSummary, row: Int32, extraCodes: [Int32: [Int]]) -> Bool {
            guard inTimeRange(letter) else { return false }
            if let code {
                guard let code else { return false }
                if code < DeadLetterTables.codeBitCount {
                    guard letter.codeBits & (1 << UInt64(code)) != 0 else { return false }
                } else {
                    guard extraCodes[row]?.contains(code) == true else { return false }
                }
            }
            if let stage, letter.stage != stage { return false }
            if let topic {
                guard let topic, letter.sourceTopic == topic else { return false }
            }
            if let partition, letter.sourceTopic == 0 || letter.sourcePartition != partition { return false }
            if let keyHash, !letter.hasKey || letter.keyHash != keyHash { return false }
            if let text {
                guard let text, text.contains(row) else { return false }
            }
            return true
        }

        /// Whether `needle` occurs in `haystack`: `memchr` to each candidate first byte, `memcmp` there.
        static func contains(_ hay: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
            guard !needle.isEmpty else { return true }
            guard hay.count >= needle.count else { return false }
            return needle.withUnsafeBytes { pin in
                guard let hayStart = hay.baseAddress, let pinStart = pin.baseAddress else { return false }
                let first = Int32(pin[0])
                var at = 0
                let last = hay.count - pin.count
                while at <= last {
                    guard let found = memchr(hayStart + at, first, last - at + 1) else { return false }
                    let index = hayStart.distance(to: UnsafeRawPointer(found))
                    if memcmp(hayStart + index, pinStart, pin.count) == 0 { return true }
                    at = index + 1
                }
                return false
            }
        }
    }

    /// The decoded items of `uri`'s query string (the last of a repeated name wins).
    static func items(of uri: String) -> [String: String] { DeadLetterQueryItems.decode(uri) }
}

/// The query string of a request URI, decoded.
public enum DeadLetterQueryItems {
    /// The decoded items of `uri`'s query string: percent-encoding and `+` for a space undone; the last
    /// of a repeated name wins.
    public static func decode(_ uri: String) -> [String: String] {
        guard let mark = uri.firstIndex(of: "?") else { return [:] }
        var items: [String: String] = [:]
        for pair in uri[uri.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                let spaced = String(part).replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            items[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return items
    }
}

/// A query string the console cannot read (answered 400).
public struct DeadLetterQueryError: Error, CustomStringConvertible {
    /// What is wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}
