import PushModel

/// The parse stage (SPEC section 2): size, UTF-8, strict JSON and depth, then "is it an object".
/// Stops at the first problem, in that order.
enum PayloadParser {
    /// The payload object, or the one parse diagnostic (path `""`).
    static func parse(_ bytes: [UInt8], maxPayloadBytes: Int) -> Result<JSONObject, Diagnostic> {
        guard bytes.count <= maxPayloadBytes else {
            return .failure(
                Diagnostic(.tooLarge, at: "", "payload is \(bytes.count) bytes; the limit is \(maxPayloadBytes) bytes"))
        }
        return bytes.withUnsafeBufferPointer { buffer in
            if let offset = UTF8Validator.firstInvalidOffset(in: buffer) {
                return .failure(Diagnostic(.invalidUTF8, at: "", "invalid UTF-8 at byte \(offset)"))
            }
            switch JSONParser.parse(buffer) {
            case .failure(let failure):
                let code: DiagnosticCode = failure.kind == .tooDeep ? .tooDeep : .invalidJSON
                return .failure(Diagnostic(code, at: "", failure.message))
            case .success(.object(let object)):
                return .success(object)
            case .success(let other):
                return .failure(
                    Diagnostic(.notAnObject, at: "", "the payload is a JSON \(other.typeName); it must be an object"))
            }
        }
    }
}
