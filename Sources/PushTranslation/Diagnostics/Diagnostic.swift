#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One problem with a payload: a code, where it is (a JSON Pointer into the input) and what to do about it.
public struct Diagnostic: Sendable, Equatable, Comparable {
    /// The code of SPEC section 6.
    public var code: DiagnosticCode
    /// A JSON Pointer (RFC 6901) into the input; `""` is the whole payload.
    public var path: String
    /// A message a person can act on.
    public var message: String

    /// Creates a diagnostic.
    public init(_ code: DiagnosticCode, at path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// SPEC order: by path compared by Unicode code point, then by code.
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        let order = Self.compareCodePoints(lhs.path, rhs.path)
        return order != 0 ? order < 0 : lhs.code < rhs.code
    }

    /// Negative, zero or positive as `lhs` sorts before, with or after `rhs` by Unicode code point: the
    /// order of their UTF-8 bytes, compared a run at a time.
    private static func compareCodePoints(_ lhs: String, _ rhs: String) -> Int {
        let order = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right -> Int in
                let common = Swift.min(left.count, right.count)
                if common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
                    let order = memcmp(leftBase, rightBase, common)
                    if order != 0 { return Int(order) }
                }
                return left.count - right.count
            }
        }
        if let order = order ?? nil { return order }
        if lhs.utf8.elementsEqual(rhs.utf8) { return 0 }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? -1 : 1
    }
}

extension Array where Element == Diagnostic {
    /// The most bytes `pushgate-errors` or `pushgate-warnings` may take: a payload with thousands of
    /// problems must still give a record Kafka accepts.
    static let headerBudget = 64 * 1024
    /// The most UTF-8 bytes of one path or message in those headers.
    static let fieldBudget = 1024

    /// The diagnostics as the compact JSON array of `pushgate-errors` / `pushgate-warnings`:
    /// `[{"code":..,"path":..,"message":..},..]`. Past ``headerBudget`` the list stops with one more
    /// element naming the first diagnostic left out and how many are not listed; paths and messages
    /// longer than ``fieldBudget`` bytes are cut (marked with "...").
    func encodedJSON() -> [UInt8] {
        JSONWriter.withScratch { encodedJSON(into: &$0) }
    }

    /// ``encodedJSON()``, written at the end of `writer` (which is left as it was).
    func encodedJSON(into writer: inout JSONWriter) -> [UInt8] {
        withEncodedJSON(in: &writer) { [UInt8]($0) }
    }

    /// Calls `body` with the bytes of ``encodedJSON()``, written in this thread's scratch buffer (valid only
    /// during the call): for a caller that copies them into a buffer of its own.
    func withEncodedJSON<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        JSONWriter.withScratch { withEncodedJSON(in: &$0, body) }
    }

    /// Calls `body` with the bytes of ``encodedJSON()``, written at the end of `writer` (which is left as
    /// it was after the call).
    func withEncodedJSON<Result>(in writer: inout JSONWriter, _ body: (UnsafeBufferPointer<UInt8>) -> Result)
        -> Result
    {
        let start = writer.beginOutput()
        defer { writer.truncate(to: start, needsComma: false) }
        writer.beginArray()
        for (index, diagnostic) in enumerated() {
            let before = writer.count
            let neededComma = writer.needsComma
            writer.append(diagnostic, message: diagnostic.message)
            // Past the budget: take the element back and end with one naming what is left out.
            let elementSize = writer.count - before - (neededComma ? 1 : 0)
            if before - start + elementSize + 1 > Self.headerBudget, index > 0 {
                writer.truncate(to: before, needsComma: neededComma)
                let omitted = count - index
                writer.append(
                    diagnostic,
                    message:
                        "\(omitted) of \(count) problems are not listed (header size limit); the first is: \(diagnostic.message)"
                )
                break
            }
        }
        writer.endArray()
        return writer.withBytes { body(UnsafeBufferPointer(rebasing: $0[start...])) }
    }
}

extension JSONWriter {
    /// Writes one diagnostic object with `message`, cutting long fields.
    mutating func append(_ diagnostic: Diagnostic, message: String) {
        beginObject()
        key("code")
        string(diagnostic.code.rawValue)
        key("path")
        string(Diagnostic.cut(diagnostic.path))
        key("message")
        string(Diagnostic.cut(message))
        endObject()
    }
}

extension Diagnostic {
    /// `text` cut to at most ``Array/fieldBudget`` UTF-8 bytes at a scalar boundary, marked with "...".
    static func cut(_ text: String) -> String {
        let budget = [Diagnostic].fieldBudget
        guard text.utf8.count > budget else { return text }
        var result = ""
        var used = 0
        for scalar in text.unicodeScalars {
            let size = String(scalar).utf8.count
            if used + size > budget - 3 { break }
            result.unicodeScalars.append(scalar)
            used += size
        }
        return result + "..."
    }

    /// Appends `PATH: MESSAGE` for `__connect.errors.exception.message`, with long fields cut.
    func appendExceptionMessage(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: Self.cut(path).utf8)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: Self.cut(message).utf8)
    }
}

extension Diagnostic: Error {}
