import PushModel

/// A strict RFC 8259 parser: no trailing data, no duplicate member names, no unpaired surrogate escapes,
/// and a depth limit that keeps recursion bounded. Numbers keep their source text.
///
/// The input must already be valid UTF-8 (see ``UTF8Validator``).
struct JSONParser {
    /// The deepest allowed value: the top-level value is at depth 1; depth 65 is `too_deep`.
    static let maximumDepth = 64

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses one complete JSON document.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseFailure> {
        var parser = JSONParser(bytes: bytes)
        do {
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 1)
            parser.skipWhitespace()
            if parser.index < bytes.count {
                return .failure(parser.invalid("unexpected data after the top-level value"))
            }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    // MARK: values

    private mutating func parseValue(depth: Int) throws(JSONParseFailure) -> JSONValue {
        guard index < bytes.count else { throw invalid("unexpected end of input, expected a value") }
        if depth > Self.maximumDepth {
            throw JSONParseFailure(
                kind: .tooDeep, offset: index,
                message: "value at byte \(index) is nested deeper than \(Self.maximumDepth) levels")
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw invalid("unexpected \(describeByte(bytes[index])), expected a value")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseFailure) -> JSONValue {
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject())
        }
        var members: [JSONMember] = []
        members.reserveCapacity(8)
        var names: Set<[UInt8]>? = nil
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw invalid("expected a member name in double quotes") }
            let nameOffset = index
            let name = try parseString()
            if Self.isDuplicate(name, in: members, index: &names) {
                throw JSONParseFailure(
                    kind: .invalidJSON, offset: nameOffset,
                    message: "duplicate member name \"\(Self.printable(name))\" at byte \(nameOffset)")
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw invalid("expected ':' after a member name") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            members.append(JSONMember(name: name, value: value))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                return .object(JSONObject(members))
            default:
                throw invalid("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseFailure) -> JSONValue {
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array([])
        }
        var elements: [JSONValue] = []
        elements.reserveCapacity(4)
        while true {
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default:
                throw invalid("expected ',' or ']' in an array")
            }
        }
    }

    /// Duplicate check on the exact code points (Swift's `==` on strings would treat canonically
    /// equivalent names such as precomposed and decomposed "é" as equal): a linear scan for small
    /// objects, a set of UTF-8 byte strings once an object grows.
    private static func isDuplicate(_ name: String, in members: [JSONMember], index: inout Set<[UInt8]>?) -> Bool {
        if members.count < 16 {
            for member in members where sameBytes(member.name, name) { return true }
            return false
        }
        if index == nil { index = Set(members.lazy.map { Array($0.name.utf8) }) }
        return index?.insert(Array(name.utf8)).inserted == false
    }

    /// Whether two strings have the same UTF-8 bytes (contiguous native strings: no copy).
    private static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in rhs.withUTF8 { right in left.elementsEqual(right) } }
    }

    // MARK: numbers and literals

    private mutating func parseNumber() throws(JSONParseFailure) -> JSONNumber {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw invalid("expected a digit in a number") }
        index += 1
        if first != UInt8(ascii: "0") {
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let byte = peek(), isDigit(byte) else { throw invalid("expected a digit after '.' in a number") }
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let byte = peek(), isDigit(byte) else { throw invalid("expected a digit in a number's exponent") }
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        return JSONNumber(text: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseFailure) {
        let length = literal.utf8CodeUnitCount
        let pointer = literal.utf8Start
        for offset in 0..<length {
            guard index + offset < bytes.count, bytes[index + offset] == pointer[offset] else {
                index += offset
                throw invalid("invalid literal, expected '\(literal)'")
            }
        }
        index += length
    }

    // MARK: helpers

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func invalid(_ problem: String) -> JSONParseFailure {
        let where_ = index < bytes.count ? "at byte \(index)" : "at byte \(index) (end of input)"
        return JSONParseFailure(kind: .invalidJSON, offset: index, message: "invalid JSON \(where_): \(problem)")
    }

    private func describeByte(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: false))"
    }

    /// A member name fit for a message: control characters escaped, long names shortened.
    static func printable(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars.prefix(64) {
            if scalar.value < 0x20 || scalar == "\"" || scalar == "\\" {
                out += scalar.escaped(asASCII: false)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return name.unicodeScalars.count > 64 ? out + "..." : out
    }
}
