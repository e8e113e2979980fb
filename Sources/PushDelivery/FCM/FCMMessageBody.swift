/// The body of FCM's `messages:send` (SPEC 10.4): the record's value with `"token":<the device's token>` inserted as
/// the first member of its `message` object, every other byte unchanged (no re-serialisation: what the translator
/// wrote is what FCM reads). Whether the value asks for a dry run (`"validate_only":true`) is read here too.
public struct FCMMessageBody: Sendable, Hashable {
    /// The body to post.
    public var bytes: [UInt8]
    /// Whether the value's top-level `validate_only` is `true`: FCM's 200 is then `validated`.
    public var validateOnly: Bool

    /// Why a value cannot be made into a body: a final `rejected` outcome with pushgate's own reason.
    public enum Refusal: String, Error, Sendable, Hashable {
        /// The value is not a JSON object (or breaks JSON's grammar somewhere).
        case notJSON = "value_not_json"
        /// The value has no `message` member whose value is an object.
        case noMessage = "no_message_object"
        /// The `message` object names a target already (`token`, `topic` or `condition`): the token inserted first
        /// would be overridden by it ("the last occurrence takes precedence") or FCM would refuse two targets.
        case targetGiven = "message_has_target"
    }

    /// The members that name a message's target; FCM takes exactly one.
    static let targetMembers: Set<String> = ["token", "topic", "condition"]

    /// The body for `token` from `value`, or why there is none. Of repeated top-level members, the last counts (as
    /// FCM reads them).
    public static func make(token: String, value: [UInt8]) -> Result<FCMMessageBody, Refusal> {
        guard let members = JSONMemberScanner.topLevelMembers(of: value) else { return .failure(.notJSON) }
        guard let message = members.last(where: { $0.name == "message" }), value[message.value.lowerBound] == 0x7B
        else { return .failure(.noMessage) }
        guard let inner = JSONMemberScanner.topLevelMembers(of: Array(value[message.value])) else {
            return .failure(.notJSON)
        }
        guard !inner.contains(where: { targetMembers.contains($0.name) }) else { return .failure(.targetGiven) }
        let validateOnly = members.last(where: { $0.name == "validate_only" }).map {
            value[$0.value].elementsEqual("true".utf8)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.count + token.utf8.count + 12)
        let afterBrace = message.value.lowerBound + 1
        bytes += value[..<afterBrace]
        bytes += Array("\"token\":\(APNsProviderToken.jsonString(token))".utf8)
        if !inner.isEmpty { bytes.append(UInt8(ascii: ",")) }
        bytes += value[afterBrace...]
        return .success(FCMMessageBody(bytes: bytes, validateOnly: validateOnly ?? false))
    }
}

/// A small JSON scanner (RFC 8259) that finds the members of a top-level object and where each value lies, without
/// building the values: strings with their escapes, numbers, literals, arrays and objects nested up to
/// ``maximumDepth``.
enum JSONMemberScanner {
    /// The deepest nesting followed; deeper is not JSON pushgate made.
    static let maximumDepth = 256

    /// One member: its name (escapes decoded) and the range of its value's bytes.
    struct Member: Hashable {
        var name: String
        var value: Range<Int>
    }

    /// The members of the object `bytes` holds (whitespace around it allowed), in order; `nil` when `bytes` is not
    /// one JSON object.
    static func topLevelMembers(of bytes: [UInt8]) -> [Member]? {
        var scanner = Cursor(bytes: bytes)
        scanner.skipWhitespace()
        guard scanner.peek == 0x7B, let members = scanner.object(depth: 0, collecting: true) else { return nil }
        scanner.skipWhitespace()
        return scanner.atEnd ? members : nil
    }

    private struct Cursor {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index >= bytes.count }
        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// An object at `index`; its members when `collecting`, else an empty list.
        mutating func object(depth: Int, collecting: Bool) -> [Member]? {
            guard depth < JSONMemberScanner.maximumDepth, peek == 0x7B else { return nil }
            index += 1
            var members: [Member] = []
            skipWhitespace()
            if peek == 0x7D {
                index += 1
                return members
            }
            while true {
                skipWhitespace()
                guard let name = string() else { return nil }
                skipWhitespace()
                guard peek == 0x3A else { return nil }
                index += 1
                skipWhitespace()
                let start = index
                guard value(depth: depth + 1) else { return nil }
                if collecting { members.append(Member(name: name, value: start..<index)) }
                skipWhitespace()
                switch peek {
                case 0x2C: index += 1
                case 0x7D:
                    index += 1
                    return members
                default: return nil
                }
            }
        }

        mutating func array(depth: Int) -> Bool {
            guard depth < JSONMemberScanner.maximumDepth, peek == 0x5B else { return false }
            index += 1
            skipWhitespace()
            if peek == 0x5D {
                index += 1
                return true
            }
            while true {
                skipWhitespace()
                guard value(depth: depth + 1) else { return false }
                skipWhitespace()
                switch peek {
                case 0x2C: index += 1
                case 0x5D:
                    index += 1
                    return true
                default: return false
                }
            }
        }

        mutating func value(depth: Int) -> Bool {
            switch peek {
            case 0x7B: return object(depth: depth, collecting: false) != nil
            case 0x5B: return array(depth: depth)
            case 0x22: return string() != nil
            case 0x74: return literal("true")
            case 0x66: return literal("false")
            case 0x6E: return literal("null")
            case .some(let byte) where byte == 0x2D || (0x30...0x39).contains(byte): return number()
            default: return false
            }
        }

        mutating func literal(_ word: String) -> Bool {
            let word = Array(word.utf8)
            guard index + word.count <= bytes.count, bytes[index..<index + word.count].elementsEqual(word) else {
                return false
            }
            index += word.count
            return true
        }

        mutating func number() -> Bool {
            if peek == 0x2D { index += 1 }
            guard let first = peek, (0x30...0x39).contains(first) else { return false }
            index += 1
            if first != 0x30 { skipDigits() }
            if peek == 0x2E {
                index += 1
                guard digits() else { return false }
            }
            if peek == 0x65 || peek == 0x45 {
                index += 1
                if peek == 0x2B || peek == 0x2D { index += 1 }
                guard digits() else { return false }
            }
            return true
        }

        /// One digit or more.
        mutating func digits() -> Bool {
            let start = index
            skipDigits()
            return index > start
        }

        mutating func skipDigits() {
            while let byte = peek, (0x30...0x39).contains(byte) { index += 1 }
        }

        /// A string at `index`, escapes decoded; `nil` when it breaks JSON's rules (a control character, a bad
        /// escape, no closing quote, bytes that are not UTF-8).
        mutating func string() -> String? {
            guard peek == 0x22 else { return nil }
            index += 1
            var decoded: [UInt8] = []
            while let byte = peek {
                index += 1
                switch byte {
                case 0x22:
                    return String(validating: decoded, as: UTF8.self)
                case 0x5C:
                    guard let escaped = peek else { return nil }
                    index += 1
                    switch escaped {
                    case 0x22, 0x5C, 0x2F: decoded.append(escaped)
                    case 0x62: decoded.append(0x08)
                    case 0x66: decoded.append(0x0C)
                    case 0x6E: decoded.append(0x0A)
                    case 0x72: decoded.append(0x0D)
                    case 0x74: decoded.append(0x09)
                    case 0x75:
                        guard let scalar = unicodeEscape() else { return nil }
                        decoded += Array(String(Character(scalar)).utf8)
                    default: return nil
                    }
                case 0x00..<0x20: return nil
                default: decoded.append(byte)
                }
            }
            return nil
        }

        /// The scalar of `XXXX` after `\u` (a surrogate pair taken whole; a lone surrogate is U+FFFD).
        mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(high), peek == 0x5C, index + 1 < bytes.count, bytes[index + 1] == 0x75 {
                let mark = index
                index += 2
                if let low = hex4(), (0xDC00..<0xE000).contains(low) {
                    return Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (low - 0xDC00))
                }
                index = mark
            }
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        }

        mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for byte in bytes[index..<index + 4] {
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x41 + 10
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            index += 4
            return value
        }
    }
}
