import PushModel

/// Writing what comes from the input payload: its strings are copied as they are when they hold no
/// escape (such bytes are already written as SPEC section 2 wants: no `"`, `\` or control character
/// can appear unescaped), else decoded and escaped again the canonical way; numbers are copied as written.
extension JSONWriter {
    /// Writes a string of the input as a string value.
    mutating func string(_ text: InputText, _ document: JSONDocument) {
        if text.isEscaped {
            separate()
            appendQuoted(raw: document.raw(text), isEscaped: true)
        } else {
            appendSeparated(document.raw(text), suffix: 0)
        }
        needsComma = true
    }

    /// Writes a string of the input, when given, as the member `key`. Inlined, so that an absent text (most
    /// of the optional members an emitter lists) costs a test, not a call.
    @inline(__always)
    mutating func member(_ key: StaticString, _ text: InputText?, _ document: JSONDocument) {
        guard let text else { return }
        member(key, given: text, document)
    }

    /// Writes a string of the input as the member `key`. Inlined, so that the key's length is known where it
    /// is copied; a text with escapes (rare) is written out of line.
    @inline(__always)
    mutating func member(_ key: StaticString, given text: InputText, _ document: JSONDocument) {
        guard !text.isEscaped else {
            escapedMember(key, text, document)
            return
        }
        appendMember(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount), document.raw(text))
    }

    /// Writes a string of the input that holds escapes as the member `key`.
    @inline(never)
    private mutating func escapedMember(_ key: StaticString, _ text: InputText, _ document: JSONDocument) {
        self.key(key)
        string(text, document)
    }

    /// Writes any value of the input, members and elements in their order.
    mutating func value(_ token: Int, _ document: JSONDocument) {
        let item = document.tokens[token]
        switch item.kind {
        case .null: null()
        case .true: bool(true)
        case .false: bool(false)
        case .number:
            separate()
            append(document.raw(token))
            needsComma = true
        case .string:
            if item.isEscaped {
                separate()
                appendQuoted(raw: document.raw(token), isEscaped: true)
            } else {
                appendSeparated(document.raw(token), suffix: 0)
            }
            needsComma = true
        case .array:
            if appendCompact(token, document) { return }
            beginArray()
            for element in document.elements(token) { value(element, document) }
            endArray()
        case .object:
            if appendCompact(token, document) { return }
            beginObject()
            members(of: token, document)
            endObject()
        }
    }

    /// Writes the container at `token` as its input bytes when they are what writing it gives (see
    /// ``JSONDocument/compactBytes(_:)``); false when they are not and nothing was written.
    private mutating func appendCompact(_ token: Int, _ document: JSONDocument) -> Bool {
        guard let compact = document.compactBytes(token) else { return false }
        separate()
        append(compact)
        needsComma = true
        return true
    }

    /// Writes the members of the input object at `token` into the object being written, leaving out
    /// those whose name `skip` accepts.
    mutating func members(of token: Int, _ document: JSONDocument, skip: (Int) -> Bool = { _ in false }) {
        for (name, memberValue) in document.members(token) where !skip(name) {
            key(name: name, document)
            value(memberValue, document)
        }
    }

    /// Writes localization arguments as an array of strings.
    mutating func locArgs(_ args: LocArgs, _ document: JSONDocument) {
        switch args {
        case .single(let text):
            beginArray()
            string(text, document)
            endArray()
        case .array(let array):
            value(array.token, document)
        }
    }

    /// Appends `"raw"`, decoding escapes and writing them again the canonical way when there are any.
    mutating func appendQuoted(raw: UnsafeBufferPointer<UInt8>, isEscaped: Bool) {
        append(UInt8(ascii: "\""))
        if isEscaped {
            appendCanonical(raw)
        } else {
            append(raw)
        }
        append(UInt8(ascii: "\""))
    }

    private mutating func appendCanonical(_ raw: UnsafeBufferPointer<UInt8>) {
        var index = 0
        var runStart = 0
        while index < raw.count {
            guard raw[index] == UInt8(ascii: "\\"), index + 1 < raw.count else {
                index += 1
                continue
            }
            if runStart < index { append(UnsafeBufferPointer(rebasing: raw[runStart..<index])) }
            let escape = raw[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "/"): append(escape)
            case UInt8(ascii: "u"):
                let (scalar, next) = JSONDocument.unicodeEscape(raw, at: index)
                index = next
                if scalar.value < 0x20 || scalar == "\"" || scalar == "\\" {
                    appendEscape(UInt8(scalar.value))
                } else {
                    UTF8.encode(scalar) { append($0) }
                }
            default:
                // `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t` are already the canonical escapes.
                append(UInt8(ascii: "\\"))
                append(escape)
            }
            runStart = index
        }
        if runStart < raw.count { append(UnsafeBufferPointer(rebasing: raw[runStart..<raw.count])) }
    }
}

extension JSONWriter {
    /// Writes the member name at token `name` of the input; the next call writes its value.
    mutating func key(name: Int, _ document: JSONDocument) {
        if document.tokens[name].isEscaped {
            separate()
            appendQuoted(raw: document.raw(name), isEscaped: true)
            append(UInt8(ascii: ":"))
        } else {
            appendSeparated(document.raw(name), suffix: UInt8(ascii: ":"))
        }
        needsComma = false
    }

    /// Writes UTF-8 text as a string value, escaped as JSON requires.
    mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        separate()
        appendQuoted(utf8)
        needsComma = true
    }

    /// Writes a protobuf duration string, `"Ns"`.
    mutating func duration(seconds: Int64) {
        separate()
        append(UInt8(ascii: "\""))
        appendDecimal(seconds)
        append(UInt8(ascii: "s"), UInt8(ascii: "\""))
        needsComma = true
    }

    /// Writes `value / 10000` as a plain decimal with no trailing zeros and no exponent (`0`, `1`, `0.502`).
    mutating func decimal(ofTenThousandths value: Int) {
        separate()
        appendDecimal(Int64(value / 10_000))
        var fraction = value % 10_000
        if fraction != 0 {
            var digits = 4
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            append(UInt8(ascii: "."))
            var divisor = 1
            for _ in 1..<digits { divisor *= 10 }
            while divisor > 0 {
                append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
                divisor /= 10
            }
        }
        needsComma = true
    }
}
