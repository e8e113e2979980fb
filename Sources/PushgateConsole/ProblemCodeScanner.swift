/// Reads the error codes of a `pushgate-errors` header in place: a small exact JSON parser that checks
/// the header is a list of problems (objects each with `code`, `path` and `message` texts, as
/// ``DeadLetter/Problem`` decodes them) and keeps only the codes.
///
/// The console reads every dead letter of the topic with it: decoding each header whole into
/// ``DeadLetter/Problem`` values is most of what reading a letter costs.
enum ProblemCodeScanner {
    /// The codes of `header`, in order (repeats included); `nil` when it is not a list of problems.
    static func codes(_ header: UnsafeRawBufferPointer) -> [String]? {
        var parser = Parser(bytes: header)
        return parser.problems()
    }

    private struct Parser {
        let bytes: UnsafeRawBufferPointer
        var at = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func problems() -> [String]? {
            var codes: [String] = []
            guard consume(UInt8(ascii: "[")) else { return nil }
            if !consume(UInt8(ascii: "]")) {
                repeat {
                    guard let code = problem() else { return nil }
                    codes.append(code)
                } while consume(UInt8(ascii: ","))
                guard consume(UInt8(ascii: "]")) else { return nil }
            }
            skipSpace()
            return at == bytes.count ? codes : nil
        }

        /// One problem object; its code.
        private mutating func problem() -> String? {
            guard consume(UInt8(ascii: "{")) else { return nil }
            var code: String?
            var (hasPath, hasMessage) = (false, false)
            if !consume(UInt8(ascii: "}")) {
                repeat {
                    skipSpace()
                    guard let name = string(), consume(UInt8(ascii: ":")) else { return nil }
                    skipSpace()
                    let isString = at < bytes.count && bytes[at] == UInt8(ascii: "\"")
                    switch name {
                    case "code":
                        guard isString, let text = string() else { return nil }
                        code = text
                    case "path", "message":
                        guard isString, string() != nil else { return nil }
                        if name == "path" { hasPath = true } else { hasMessage = true }
                    default:
                        guard skipValue(depth: 0) else { return nil }
                    }
                } while consume(UInt8(ascii: ","))
                guard consume(UInt8(ascii: "}")) else { return nil }
            }
            return hasPath && hasMessage ? code : nil
        }

        private mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }

        /// Skips white space, then `byte` if it is next.
        private mutating func consume(_ byte: UInt8) -> Bool {
            skipSpace()
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        /// A string at `at`, its escapes undone (bytes that are not UTF-8 become U+FFFD, as the header's
        /// text does).
        private mutating func string() -> String? {
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
            at += 1
            var text: [UInt8] = []
            while at < bytes.count {
                let byte = bytes[at]
                at += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
                case 0..<0x20: return nil
                case UInt8(ascii: "\\"):
                    guard at < bytes.count else { return nil }
                    let escaped = bytes[at]
                    at += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
                    case UInt8(ascii: "b"): text.append(0x08)
                    case UInt8(ascii: "f"): text.append(0x0C)
                    case UInt8(ascii: "n"): text.append(0x0A)
                    case UInt8(ascii: "r"): text.append(0x0D)
                    case UInt8(ascii: "t"): text.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        text.append(contentsOf: String(Character(scalar)).utf8)
                    default: return nil
                    }
                default: text.append(byte)
                }
            }
            return nil
        }

        /// The scalar of `\uXXXX` (after the `u`), a surrogate pair joined; a lone surrogate is U+FFFD.
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            guard (0xD800..<0xDC00).contains(high) else {
                return Unicode.Scalar(high) ?? Unicode.Scalar(0xFFFD)
            }
            let mark = at
            if at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") {
                at += 2
                if let low = hex4(), (0xDC00..<0xE000).contains(low) {
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                }
                at = mark
            }
            return Unicode.Scalar(0xFFFD)
        }

        private mutating func hex4() -> UInt32? {
            guard at + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = Character(Unicode.Scalar(bytes[at])).hexDigitValue else { return nil }
                value = value << 4 | UInt32(digit)
                at += 1
            }
            return value
        }

        /// Skips one JSON value of any kind (nested at most 64 deep).
        private mutating func skipValue(depth: Int) -> Bool {
            skipSpace()
            guard at < bytes.count, depth < 64 else { return false }
            switch bytes[at] {
            case UInt8(ascii: "\""): return string() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = bytes[at] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                at += 1
                if consume(close) { return true }
                repeat {
                    if close == UInt8(ascii: "}") {
                        skipSpace()
                        guard string() != nil, consume(UInt8(ascii: ":")) else { return false }
                    }
                    guard skipValue(depth: depth + 1) else { return false }
                } while consume(UInt8(ascii: ","))
                return consume(close)
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard at + count <= bytes.count else { return false }
            for index in 0..<count where bytes[at + index] != word.utf8Start[index] { return false }
            at += count
            return true
        }

        /// A number: `-`? digits (`.` digits)? (`e` sign? digits)?.
        private mutating func number() -> Bool {
            func digits() -> Bool {
                let start = at
                while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
                return at > start
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard digits() else { return false }
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                at += 1
                guard digits() else { return false }
            }
            if at < bytes.count, bytes[at] | 0x20 == UInt8(ascii: "e") {
                at += 1
                if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
                guard digits() else { return false }
            }
            return true
        }
    }
}
