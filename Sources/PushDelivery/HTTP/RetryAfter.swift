/// The `Retry-After` header (RFC 9110 section 10.2.3): how long a push service asks to be left alone.
public enum RetryAfter {
    /// The longest wait taken from a header: a larger value is read as this (a day), so that a broken or hostile
    /// answer cannot hold a device past any record's expiry by itself.
    public static let longest: Duration = .seconds(86_400)

    /// The wait `value` asks for, counted from `now` (seconds since 1970): a number of seconds, or an HTTP date
    /// (a date already past is a wait of zero). `nil` when `value` is neither.
    public static func parse(_ value: String, now: Int64) -> Duration? {
        let text = value.trimmingWhitespace()
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard text.utf8.count <= 9, let seconds = Int64(text) else { return longest }
            return min(.seconds(seconds), longest)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        return min(.seconds(max(0, date - now)), longest)
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs (the optional whitespace around a field value).
    fileprivate func trimmingWhitespace() -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isWhitespace($0) }), let last = lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
