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
        if !lhs.path.utf8.elementsEqual(rhs.path.utf8) { return lhs.path.utf8.lexicographicallyPrecedes(rhs.path.utf8) }
        return lhs.code < rhs.code
    }
}

extension Array where Element == Diagnostic {
    /// The diagnostics as the compact JSON array of `pushgate-errors` / `pushgate-warnings`:
    /// `[{"code":..,"path":..,"message":..},..]`.
    func encodedJSON() -> [UInt8] {
        var writer = JSONWriter(capacity: 64 * count + 2)
        writer.beginArray()
        for diagnostic in self {
            writer.beginObject()
            writer.key("code")
            writer.string(diagnostic.code.rawValue)
            writer.key("path")
            writer.string(diagnostic.path)
            writer.key("message")
            writer.string(diagnostic.message)
            writer.endObject()
        }
        writer.endArray()
        return writer.bytes
    }
}
extension Diagnostic: Error {}
