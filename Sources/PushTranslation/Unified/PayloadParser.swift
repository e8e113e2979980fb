import PushModel

/// The parse stage (SPEC section 2): size, UTF-8, strict JSON and depth, then "is it an object".
/// Stops at the first problem, in that order.
enum PayloadParser {
    /// The one parse diagnostic (path `""`) of a payload larger than the limit, else `nil`.
    static func checkSize(_ bytes: [UInt8], maxPayloadBytes: Int) -> Diagnostic? {
        // Token offsets are 32-bit: nothing larger can be indexed (Kafka's own limit is far below).
        let limit = min(maxPayloadBytes, Int(UInt32.max) - 1)
        guard bytes.count > limit else { return nil }
        return Diagnostic(.tooLarge, at: "", "payload is \(bytes.count) bytes; the limit is \(limit) bytes")
    }

    /// The length of a Schema Registry frame (SPEC 2, version 4): `0x00`, then a 4-byte big-endian schema id.
    static let frameLength = 5

    /// The payload of a record's value: the bytes after a Schema Registry frame when the value starts
    /// with `0x00` (JSON text never does), else the whole value; `nil` for a frame cut short (1 to 4 bytes).
    /// The schema id is not read: pushgate asks no registry.
    @inline(__always)
    static func payload(ofValue value: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard let first = value.first, first == 0 else { return value }
        guard value.count >= frameLength else { return nil }
        return UnsafeBufferPointer(rebasing: value[frameLength...])
    }

    /// The one parse diagnostic of a value of `count` bytes (1 to 4) that starts with `0x00`: `invalid_json`.
    static func truncatedFrame(_ count: Int) -> Diagnostic {
        Diagnostic(
            .invalidJSON, at: "",
            "the value starts with 0x00, a Schema Registry frame, but has \(count) of the frame's \(frameLength) "
                + "bytes (0x00 and a 4-byte schema id) and no payload")
    }

    /// Scans `bytes` into `tokens` (room for `bytes.count` tokens): the number of tokens, or the one
    /// parse diagnostic when they are not a JSON object.
    ///
    /// UTF-8 comes first (SPEC 9), but it is checked in one pass with the scan: a scan that succeeds has
    /// seen only ASCII outside strings and well-formed UTF-8 inside them. Only when the scan fails is the
    /// whole payload checked for the first invalid UTF-8 byte, which then takes precedence.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, into tokens: UnsafeMutablePointer<JSONToken>)
        -> Result<Int, Diagnostic>
    {
        let count: Int
        switch JSONScanner.scan(bytes, into: tokens) {
        case .success(let scanned): count = scanned
        case .failure(let failure):
            if let offset = UTF8Validator.firstInvalidOffset(in: bytes) {
                return .failure(Diagnostic(.invalidUTF8, at: "", "invalid UTF-8 at byte \(offset)"))
            }
            return .failure(Diagnostic(failure.kind == .tooDeep ? .tooDeep : .invalidJSON, at: "", failure.message))
        }
        guard count > 0, tokens[0].kind == .object else {
            let typeName = count > 0 ? tokens[0].typeName : "value"
            return .failure(
                Diagnostic(.notAnObject, at: "", "the payload is a JSON \(typeName); it must be an object"))
        }
        return .success(count)
    }
}
