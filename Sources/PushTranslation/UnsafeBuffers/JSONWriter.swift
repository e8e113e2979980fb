import PushModel

/// Writes compact JSON into a byte buffer: no insignificant white space, only the escapes JSON requires
/// (`\"`, `\\`, and control characters as `\n \r \t \b \f` or `\u00xx`), `/` and non-ASCII raw,
/// numbers as given. Commas are placed automatically between members and elements.
///
/// The buffer is raw memory the writer owns (or borrows from ``withScratch(_:)``): appending is a bounds
/// check and a copy, which is what makes the emitters fast. Not copyable: one writer, one buffer.
///
/// Invariants (checked by `assertInvariant()` in debug builds after every write):
/// - `start` points to `capacity` bytes (`capacity > 0`), of which the first `count` are written
///   (`0 <= count <= capacity`); every write first makes room with `reserve(_:)`;
/// - `owned` is true when the writer allocated `start` and frees it; false while `start` is the thread's
///   scratch buffer (``ScratchBytes``), which the writer never frees: outgrowing it allocates a buffer of
///   the writer's own, which ``withScratch(_:)`` hands back to the scratch when the writer ends.
public struct JSONWriter: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The number of bytes written so far.
    public private(set) var count = 0
    /// Whether `start` must be freed by this writer (false while it is the thread's scratch buffer).
    private var owned: Bool
    var needsComma = false

    /// Creates a writer with room for `capacity` bytes (it grows as needed).
    public init(capacity: Int = 1024) {
        self.capacity = Swift.max(capacity, 16)
        start = .allocate(capacity: self.capacity)
        owned = true
    }

    private init(borrowing start: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.start = start
        self.capacity = capacity
        owned = false
    }

    deinit { if owned { start.deallocate() } }

    /// Calls `body` with the bytes written so far (no copy).
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: start, count: count))
    }

    /// The bytes written so far, as a new array.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    /// The bytes written from `offset` on, as a new array.
    func bytes(from offset: Int) -> [UInt8] {
        assert(offset >= 0 && offset <= count, "JSONWriter: offset \(offset) past the \(count) bytes written")
        return Array(UnsafeBufferPointer(start: start + offset, count: count - offset))
    }

    /// Starts a new document after what is written (one buffer holding several outputs): the offset
    /// where it starts.
    mutating func beginOutput() -> Int {
        needsComma = false
        return count
    }

    /// Appends a copy of bytes written earlier, at `range`.
    mutating func appendWritten(_ range: Range<Int>) {
        assert(range.lowerBound >= 0 && range.upperBound <= count, "JSONWriter: \(range) was not written")
        reserve(range.count)
        (start + count).update(from: start + range.lowerBound, count: range.count)
        count += range.count
    }

    /// Calls `body` with a writer over this thread's reusable buffer (nothing allocated once it has grown
    /// to the outputs' size). Take what was written with ``bytes`` before returning.
    /// Inlined: a closure passed on to it captured the emitter's notification by copying it.
    @inline(__always)
    static func withScratch<Result>(_ body: (inout JSONWriter) -> Result) -> Result {
        ScratchBytes.with { buffer in
            var writer = JSONWriter(borrowing: buffer.start, capacity: buffer.capacity)
            let result = body(&writer)
            let (start, capacity, owned) = writer.release()
            if owned {
                buffer.start.deallocate()
                buffer.start = start
                buffer.capacity = capacity
            }
            return result
        }
    }

    private consuming func release() -> (UnsafeMutablePointer<UInt8>, Int, Bool) {
        let result = (start, capacity, owned)
        discard self
        return result
    }

    /// Makes room for `additional` more bytes.
    @inline(__always)
    private mutating func reserve(_ additional: Int) {
        if count + additional > capacity { grow(count + additional) }
        assert(additional >= 0 && count + additional <= capacity, "JSONWriter: no room for \(additional) bytes")
    }

    /// Checks the invariant in debug builds: the bytes written fit the buffer.
    @inline(__always)
    private func assertInvariant() {
        assert(capacity > 0 && count >= 0 && count <= capacity, "JSONWriter: \(count) bytes written of \(capacity)")
    }

    private mutating func grow(_ needed: Int) {
        let newCapacity = Swift.max(needed, capacity * 2)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.update(from: start, count: count)
        if owned { start.deallocate() }
        start = newStart
        capacity = newCapacity
        owned = true
    }

    /// Forgets what was written after `count` bytes (to take back a value that did not fit).
    mutating func truncate(to count: Int, needsComma: Bool) {
        assert(count >= 0, "JSONWriter: truncated to \(count) bytes")
        self.count = Swift.min(count, self.count)
        self.needsComma = needsComma
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count += 1
        assertInvariant()
    }

    /// Appends bytes as they are (short runs by ``copyBytes(_:_:count:)``: a call to memmove costs more).
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        reserve(bytes.count)
        Self.copyBytes(base, start + count, count: bytes.count)
        count += bytes.count
        assertInvariant()
    }

    /// Copies `count` bytes from `source` to `destination` (which do not overlap). Up to 32 bytes with a
    /// few loads and stores of whole words, the last ones overlapping the first (a byte loop took four
    /// instructions a byte, and a call to memmove costs more); longer runs with memmove.
    @inline(__always)
    static func copyBytes(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, count: Int) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(destination)
        if count >= 8 {
            guard count <= 32 else {
                destination.update(from: source, count: count)
                return
            }
            // Each load before its store: 8...16 bytes are the first and last word; 17...32 the first
            // two and the last two.
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            if count > 16 {
                let second = from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                let third = from.loadUnaligned(fromByteOffset: count &- 16, as: UInt64.self)
                to.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
                to.storeBytes(of: third, toByteOffset: count &- 16, as: UInt64.self)
            }
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 {
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
        } else if count > 0 {
            // 1...3 bytes: the first, the middle and the last (some the same byte).
            let first = source[0]
            let middle = source[count >> 1]
            let last = source[count &- 1]
            destination[0] = first
            destination[count >> 1] = middle
            destination[count &- 1] = last
        }
    }

    /// Appends two bytes.
    @inline(__always)
    mutating func append(_ first: UInt8, _ second: UInt8) {
        reserve(2)
        start[count] = first
        start[count + 1] = second
        count += 2
        assertInvariant()
    }

    /// Starts an object (a value).
    public mutating func beginObject() {
        separate()
        append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Ends an object.
    public mutating func endObject() {
        append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Starts an array (a value).
    public mutating func beginArray() {
        separate()
        append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Ends an array.
    public mutating func endArray() {
        append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes a member name; the next call writes its value.
    @inline(__always)
    public mutating func key(_ name: StaticString) {
        appendSeparated(
            UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount), suffix: UInt8(ascii: ":"))
        needsComma = false
    }

    /// Appends `,` when needed, then `"bytes"` (bytes as they are) and `suffix` when not 0: one capacity
    /// check for all of it.
    @inline(__always)
    mutating func appendSeparated(_ bytes: UnsafeBufferPointer<UInt8>, suffix: UInt8) {
        reserve(bytes.count + 4)
        var position = count
        if needsComma {
            start[position] = UInt8(ascii: ",")
            position += 1
        }
        start[position] = UInt8(ascii: "\"")
        position += 1
        if let base = bytes.baseAddress { Self.copyBytes(base, start + position, count: bytes.count) }
        position += bytes.count
        start[position] = UInt8(ascii: "\"")
        position += 1
        if suffix != 0 {
            start[position] = suffix
            position += 1
        }
        count = position
        assertInvariant()
    }

    /// Writes the member `"name":"value"`, both as they are (they need no escape): one capacity check
    /// for all of it.
    @inline(__always)
    mutating func appendMember(_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) {
        reserve(name.count + value.count + 6)
        if needsComma {
            start[count] = UInt8(ascii: ",")
            count += 1
        }
        start[count] = UInt8(ascii: "\"")
        count += 1
        copy(name, to: start + count)
        count += name.count
        start[count] = UInt8(ascii: "\"")
        start[count + 1] = UInt8(ascii: ":")
        start[count + 2] = UInt8(ascii: "\"")
        count += 3
        copy(value, to: start + count)
        count += value.count
        start[count] = UInt8(ascii: "\"")
        count += 1
        needsComma = true
        assertInvariant()
    }

    /// Copies `bytes` to `destination` (see ``copyBytes(_:_:count:)``).
    @inline(__always)
    private func copy(_ bytes: UnsafeBufferPointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        Self.copyBytes(base, destination, count: bytes.count)
    }

    /// Writes a string value.
    public mutating func string(_ text: String) {
        separate()
        var text = text
        text.withUTF8 { appendQuoted($0) }
        needsComma = true
    }

    /// Writes a string value known at compile time (no escaping needed).
    public mutating func literal(_ text: StaticString) {
        separate()
        append(UInt8(ascii: "\""))
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Writes a number exactly as it was written in the input.
    public mutating func number(_ number: JSONNumber) {
        separate()
        var text = number.text
        text.withUTF8 { append($0) }
        needsComma = true
    }

    /// Writes a plain integer that pushgate makes.
    public mutating func integer(_ value: Int64) {
        separate()
        appendDecimal(value)
        needsComma = true
    }

    /// Appends the decimal digits of `value` (no allocation).
    mutating func appendDecimal(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        DecimalText.withDigits(of: value) { append($0.bindMemory(to: UInt8.self)) }
    }

    /// Appends the bytes of a compile-time string as they are.
    mutating func appendStatic(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        appendStatic(value ? "true" : "false")
        needsComma = true
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        appendStatic("null")
        needsComma = true
    }

    /// Appends already-encoded JSON (a complete value) as the next value.
    public mutating func raw(_ json: [UInt8]) {
        separate()
        json.withUnsafeBufferPointer { append($0) }
        needsComma = true
    }

    /// Appends already-encoded JSON (a complete value, part of a buffer) as the next value.
    public mutating func raw(_ json: ArraySlice<UInt8>) {
        separate()
        json.withUnsafeBufferPointer { append($0) }
        needsComma = true
    }

    private static func lowerHex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10 }

    /// Writes `,` when a value or member came before in the current container.
    mutating func separate() {
        if needsComma { append(UInt8(ascii: ",")) }
    }

    /// Appends `"text"` with the escapes JSON requires.
    mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        var runStart = 0
        var position = 0
        while position < utf8.count {
            // Eight bytes at a time while none needs an escape (the scanner's mask, non-ASCII bytes left out).
            if let base = utf8.baseAddress, position + 8 <= utf8.count {
                let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                let mask = JSONScanner.attentionMask(word) & ~(UInt64(littleEndian: word) & 0x8080_8080_8080_8080)
                guard mask != 0 else {
                    position += 8
                    continue
                }
            }
            let byte = utf8[position]
            position += 1
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            let escaped = position - 1
            if runStart < escaped { append(UnsafeBufferPointer(rebasing: utf8[runStart..<escaped])) }
            appendEscape(byte)
            runStart = position
        }
        if runStart < utf8.count { append(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count])) }
        append(UInt8(ascii: "\""))
    }

    mutating func appendEscape(_ byte: UInt8) {
        append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): append(UInt8(ascii: "\\"))
        case 0x0A: append(UInt8(ascii: "n"))
        case 0x0D: append(UInt8(ascii: "r"))
        case 0x09: append(UInt8(ascii: "t"))
        case 0x08: append(UInt8(ascii: "b"))
        case 0x0C: append(UInt8(ascii: "f"))
        default:
            append(UInt8(ascii: "u"))
            append(UInt8(ascii: "0"))
            append(UInt8(ascii: "0"))
            append(Self.lowerHex(byte >> 4))
            append(Self.lowerHex(byte & 0x0F))
        }
    }
}

extension JSONWriter {
    /// Encodes a string as a complete JSON string value.
    static func encodedString(_ text: String) -> String {
        var writer = JSONWriter(capacity: text.utf8.count + 2)
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
