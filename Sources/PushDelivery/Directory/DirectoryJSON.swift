/// A strict reader of one JSON text (RFC 8259) for directory values: a small tree whose objects keep
/// their members in order with the bytes each member was written with, so that `pushgate devices` can
/// write a member back exactly as it was given.
///
/// Strict where the translator is strict: UTF-8 only, no duplicate member names in an object, at most
/// ``maximumDepth`` nested arrays and objects, nothing after the value but whitespace.
enum DirectoryJSON: Sendable, Equatable {
    case object([Member])
    case array([DirectoryJSON])
    case string(String)
    /// A number, as written.
    case number(String)
    case bool(Bool)
    case null

    /// One member of an object: its name, its value, and the bytes from its name's opening quote to its
    /// value's last byte (`"name": value`), as offsets into the text read.
    struct Member: Sendable, Equatable {
        var name: String
        var value: DirectoryJSON
        var bytes: Range<Int>
    }

    /// Why a text is not JSON, and where in it.
    struct SyntaxError: Error, Equatable {
        /// What is wrong, without quoting the text.
        var message: String
        /// The JSON Pointer of the object with a duplicate name, or `""` (the whole text).
        var pointer: String = ""
    }

    /// The deepest nesting of arrays and objects read.
    static let maximumDepth = 64

    /// Reads `bytes` as one JSON text.
    static func read(_ bytes: [UInt8]) throws(SyntaxError) -> DirectoryJSON {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw SyntaxError(message: "is not valid UTF-8")
        }
        var reader = Reader(bytes: bytes)
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw SyntaxError(message: "is not JSON: text after the value") }
        return value
    }

    /// The member named `name` of an object (`nil` for another kind of value or no such member).
    subscript(name: String) -> DirectoryJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    /// `component` escaped for a JSON Pointer (RFC 6901: `~` as `~0`, `/` as `~1`).
    static func pointerComponent(_ component: String) -> String {
        component.replacing("~", with: "~0").replacing("/", with: "~1")
    }
}

extension DirectoryJSON {
    fileprivate struct Reader {
        /// One step of the path from the whole text to the value being read: a member's name or an element's
        /// position. The JSON Pointer they make is written only for an error that names it.
        enum Step {
            case member(String)
            case element(Int)
        }

        let bytes: [UInt8]
        var index = 0
        /// The steps to the value being read (the objects and arrays it is in).
        var path: [Step] = []

        init(bytes: [UInt8]) { self.bytes = bytes }

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        private func invalid(_ what: String) -> SyntaxError { SyntaxError(message: "is not JSON: \(what)") }

        /// The JSON Pointer of the value being read, then of `name` in it.
        private func pointer(then name: String) -> String {
            var pointer = ""
            for step in path {
                switch step {
                case .member(let member): pointer += "/" + DirectoryJSON.pointerComponent(member)
                case .element(let position): pointer += "/\(position)"
                }
            }
            return pointer + "/" + DirectoryJSON.pointerComponent(name)
        }

        mutating func value(depth: Int) throws(SyntaxError) -> DirectoryJSON {
            guard let byte = current else { throw invalid("a value is missing") }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw invalid("unexpected character")
            }
        }

        private mutating func literal(_ word: StaticString, _ result: DirectoryJSON) throws(SyntaxError)
            -> DirectoryJSON
        {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count,
                word.withUTF8Buffer({ bytes[index..<index + count].elementsEqual($0) })
            else { throw invalid("unexpected character") }
            index += count
            return result
        }

        private mutating func object(depth: Int) throws(SyntaxError) -> DirectoryJSON {
            guard depth <= DirectoryJSON.maximumDepth else { throw invalid("nested too deep") }
            index += 1
            var members: [Member] = []
            // The names seen, in a set only for a large object: a directory value's objects have a few members.
            var names: Set<String> = []
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw invalid("a member name is missing") }
                let start = index
                let name = try string()
                if members.count < Self.linearNameSearchLimit {
                    if members.contains(where: { $0.name == name }) { throw duplicate(name) }
                } else {
                    if names.isEmpty { names = Set(members.map(\.name)) }
                    guard names.insert(name).inserted else { throw duplicate(name) }
                }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw invalid("':' is missing") }
                index += 1
                skipWhitespace()
                path.append(.member(name))
                let value = try value(depth: depth)
                path.removeLast()
                members.append(Member(name: name, value: value, bytes: start..<index))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    return .object(members)
                default: throw invalid("',' or '}' is missing")
                }
            }
        }

        /// Up to how many members an object's names are compared one by one for a duplicate.
        private static let linearNameSearchLimit = 16

        private func duplicate(_ name: String) -> SyntaxError {
            SyntaxError(message: "has a duplicate member name", pointer: pointer(then: name))
        }

        private mutating func array(depth: Int) throws(SyntaxError) -> DirectoryJSON {
            guard depth <= DirectoryJSON.maximumDepth else { throw invalid("nested too deep") }
            index += 1
            var elements: [DirectoryJSON] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                path.append(.element(elements.count))
                elements.append(try value(depth: depth))
                path.removeLast()
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    return .array(elements)
                default: throw invalid("',' or ']' is missing")
                }
            }
        }

        private mutating func number() throws(SyntaxError) -> DirectoryJSON {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
            } else {
                guard try digits() > 0 else { throw invalid("a number has no digits") }
            }
            if current == UInt8(ascii: ".") {
                index += 1
                guard try digits() > 0 else { throw invalid("a number has no digits after '.'") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard try digits() > 0 else { throw invalid("a number has no exponent digits") }
            }
            return .number(String(decoding: bytes[start..<index], as: UTF8.self))
        }

        private mutating func digits() throws(SyntaxError) -> Int {
            let start = index
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index - start
        }

        /// A string starting at its opening quote; the text is valid UTF-8 (checked before reading).
        private mutating func string() throws(SyntaxError) -> String {
            index += 1
            // The common case first: no escape, read in one piece.
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"),
                bytes[index] >= 0x20
            {
                index += 1
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: bytes[start..<index - 1], as: UTF8.self)
            }
            index = start
            var scalars = String.UnicodeScalarView()
            var runStart = index
            func flush(_ reader: Reader, _ scalars: inout String.UnicodeScalarView, upTo end: Int) {
                scalars.append(contentsOf: String(decoding: reader.bytes[runStart..<end], as: UTF8.self).unicodeScalars)
            }
            while true {
                guard let byte = current else { throw invalid("a string is not closed") }
                switch byte {
                case UInt8(ascii: "\""):
                    flush(self, &scalars, upTo: index)
                    index += 1
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush(self, &scalars, upTo: index)
                    index += 1
                    scalars.append(try escape())
                    runStart = index
                case 0x00..<0x20: throw invalid("a control character in a string")
                default: index += 1
                }
            }
        }

        private mutating func escape() throws(SyntaxError) -> Unicode.Scalar {
            guard let byte = current else { throw invalid("a string is not closed") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let unit = try hexUnit()
                if (0xD800..<0xDC00).contains(unit) {
                    guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                    else { throw invalid("a lone surrogate in a string") }
                    index += 2
                    let low = try hexUnit()
                    guard (0xDC00..<0xE000).contains(low),
                        let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                    else { throw invalid("a lone surrogate in a string") }
                    return scalar
                }
                guard let scalar = Unicode.Scalar(unit) else { throw invalid("a lone surrogate in a string") }
                return scalar
            default: throw invalid("an unknown escape in a string")
            }
        }

        private mutating func hexUnit() throws(SyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw invalid("a short \\u escape") }
            var unit: UInt32 = 0
            for byte in bytes[index..<index + 4] {
                guard let digit = HexDigits.value(of: byte) else { throw invalid("a bad \\u escape") }
                unit = unit << 4 | UInt32(digit)
            }
            index += 4
            return unit
        }
    }
}

/// Hexadecimal digits, either case.
enum HexDigits {
    /// The digit's value, or `nil` for a byte that is not `0-9 a-f A-F`.
    static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
