import Crypto

/// The `apns-id` of a device push (SPEC 10.3): a lowercase UUID that depends only on the record's
/// `pushgate-source` and `pushgate-format` headers and the device id, so that a record sent again after a crash
/// carries the same `apns-id`.
///
/// Derivation (a name-based UUID, RFC 9562 version 8 with SHA-256, as its appendix B.2 does): SHA-256 of
/// `pushgate apns-id v1` followed by three fields, the `pushgate-source` header's bytes, the `pushgate-format`
/// header's bytes and the device id's UTF-8 bytes, each written as the byte `0x01` and its length as 4 bytes
/// big-endian before its bytes, or as the single byte `0x00` when absent; the first 16 bytes of the digest, with the
/// version nibble (high 4 bits of byte 6) set to 8 and the variant (high 2 bits of byte 8) to `10`; written
/// `8-4-4-4-12` in lowercase hex.
public enum APNsMessageID {
    private static let domain = Array("pushgate apns-id v1".utf8)

    /// The `apns-id` for a record with these headers (their values' bytes, `nil` when absent) sent to `deviceID`.
    public static func make(source: [UInt8]?, format: [UInt8]?, deviceID: String) -> String {
        var input = domain
        for field in [source, format, Array(deviceID.utf8)] {
            guard let field else {
                input.append(0)
                continue
            }
            input.append(1)
            let count = UInt32(truncatingIfNeeded: field.count)
            input += [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
            input += field
        }
        var bytes = Array(SHA256.hash(data: input).prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-")
    }

    /// The `apns-id` for `record` sent to `deviceID`.
    public static func make(for record: DeliveredRecord, deviceID: String) -> String {
        make(
            source: record.headers.first(where: { $0.name == "pushgate-source" })?.value,
            format: record.headers.first(where: { $0.name == "pushgate-format" })?.value, deviceID: deviceID)
    }
}
