import PushModel

/// What an emitter made of a notification: where its value is in the writer, or the emit-stage errors
/// that stop it.
struct Emission {
    /// Where the value's bytes are in the writer (empty when there are errors): the outputs of one input
    /// are copied out of it together, into one buffer they share.
    var value: Range<Int>
    /// Emit-stage errors; any makes the format a dead letter.
    var errors: [Diagnostic]
    /// Format warnings (`overridden_field`, `text_too_long`).
    var warnings: [Diagnostic]
    /// Where in the writer this emitter wrote the parts it shares with other formats, when it wrote them
    /// itself (see ``SharedParts``).
    var parts = SharedParts.Ranges()
}

extension Emission {
    /// The emission of a format that `errors` stop: no value, no warnings.
    init(failed errors: [Diagnostic]) {
        self.init(value: 0..<0, errors: errors, warnings: [])
    }
}

/// Writes one output format from the IR.
protocol Emitter: Sendable {
    /// The format this emitter writes.
    var format: OutputFormat { get }
    /// Writes the format's value, or reports why it cannot; `document` is the payload the IR refers to,
    /// `shared` the parts an earlier format of the same input wrote.
    /// The value is written at the end of `writer`, whose earlier bytes are the input's other formats.
    func emit(
        _ notification: borrowing PushNotification, document: JSONDocument, shared: SharedParts,
        into writer: inout JSONWriter
    ) -> Emission
}

/// The per-format size limit shared by APNs and FCM.
enum PayloadLimit {
    /// 4096 bytes.
    static let bytes = 4096

    /// The emission of a written value: `payload_too_large` when it is over `limit` bytes, else where its
    /// bytes are in the writer, with `warnings`.
    static func emission(
        _ writer: borrowing JSONWriter, from start: Int, format: OutputFormat, limit: Int = bytes,
        parts: SharedParts.Ranges = SharedParts.Ranges(),
        warnings: @autoclosure () -> [Diagnostic] = []
    ) -> Emission {
        let size = writer.count - start
        guard size > limit else {
            return Emission(value: start..<writer.count, errors: [], warnings: warnings(), parts: parts)
        }
        let tooLarge = Diagnostic(
            .payloadTooLarge, at: "",
            "the \(format.rawValue) payload would be \(size) bytes; the limit is \(limit). Shorten the text or data"
        )
        return Emission(failed: [tooLarge])
    }
}

/// Data members the format writes itself and so may not come from `data`.
struct ReservedKeys {
    let names: [StaticString]
    let prefix: StaticString?
    /// Bit `n` set when a name of `n` bytes may be reserved (every length from the prefix's up when there
    /// is one; 63 stands for 63 and longer): most data members are told apart by their length alone.
    private let lengths: UInt64

    init(names: [StaticString], prefix: StaticString?) {
        self.names = names
        self.prefix = prefix
        var lengths: UInt64 = 0
        for name in names { lengths |= Self.lengthBit(name.utf8CodeUnitCount) }
        if let prefix { lengths |= ~0 << UInt64(Swift.min(prefix.utf8CodeUnitCount, 63)) }
        self.lengths = lengths
    }

    /// The bit of names of `length` bytes in ``lengths``.
    static func lengthBit(_ length: Int) -> UInt64 { 1 << UInt64(Swift.min(length, 63)) }

    /// Whether the decoded member name is reserved. Compares UTF-8 bytes: `String.hasPrefix` compares
    /// grapheme clusters, so `adb_` followed by a combining mark would slip through.
    private func isReserved(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lengths & Self.lengthBit(name.count) != 0, let base = name.baseAddress else { return false }
        for reserved in names
        where name.count == reserved.utf8CodeUnitCount
            && JSONDocument.bytesEqual(base, reserved.utf8Start, count: name.count)
        {
            return true
        }
        guard let prefix else { return false }
        return name.count >= prefix.utf8CodeUnitCount
            && JSONDocument.bytesEqual(base, prefix.utf8Start, count: prefix.utf8CodeUnitCount)
    }

    /// The `reserved_key` errors of `data`, whose member name lengths `shared` holds.
    func check(_ data: InputValue?, _ shared: SharedParts, _ document: JSONDocument, format: OutputFormat)
        -> [Diagnostic]
    {
        guard let data, shared.dataNameLengths & lengths != 0 else { return [] }
        var errors: [Diagnostic] = []
        for (name, _) in document.members(data.token) {
            let reserved =
                document.tokens[name].isEscaped
                ? document.decodedBytes(name).withUnsafeBufferPointer(isReserved) : isReserved(document.raw(name))
            guard reserved else { continue }
            let text = document.string(name)
            errors.append(
                Diagnostic(
                    .reservedKey, at: JSONPointer.appending("/data", text),
                    "\(format.rawValue) writes \"\(JSONDocument.printable(text))\" itself; rename this data member"))
        }
        return errors
    }
}

extension JSONWriter {
    /// Writes the members of `data`, when given, into the object being written: copied from `written` when
    /// an earlier format wrote them, else written from the document. Where they are in this writer when
    /// written here (for ``SharedParts``), else `nil`.
    mutating func data(_ data: InputValue?, _ document: JSONDocument, _ written: Range<Int>?) -> Range<Int>? {
        guard let data, document.count(data.token) > 0 else { return nil }
        separate()
        needsComma = false
        if let written {
            append(written)
            return nil
        }
        let start = count
        if let compact = document.compactBytes(data.token) {
            // The members as written in the input, without the braces.
            append(UnsafeBufferPointer(rebasing: compact.dropFirst().dropLast()))
            needsComma = true
        } else {
            members(of: data.token, document)
        }
        return start..<count
    }

    /// Writes a part shared with other formats as the next value: copied from `written` when an earlier
    /// format wrote it, else written by `write`. Where it is in this writer when written here, else `nil`.
    mutating func sharedValue(_ written: Range<Int>?, _ write: (inout JSONWriter) -> Void) -> Range<Int>? {
        separate()
        needsComma = false
        if let written {
            append(written)
            return nil
        }
        let start = count
        write(&self)
        return start..<count
    }

    /// Appends a part an earlier format wrote; a value or member follows it with a comma.
    private mutating func append(_ written: Range<Int>) {
        appendWritten(written)
        needsComma = true
    }
}
