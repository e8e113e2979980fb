import Crypto

/// The provider token's signing key: the `.p8` file Apple gives (`--apns-key-file`), a P-256 private key in
/// PKCS#8 PEM (a `PRIVATE KEY` block). A SEC1 PEM (an `EC PRIVATE KEY` block) of the same key is read too.
public enum APNsSigningKey {
    /// The option errors name.
    public static let option = "--apns-key-file"

    /// Reads the key from the file at `path`; a missing or unreadable file, or one that is not a P-256 private key
    /// in PEM, is an error naming `--apns-key-file` (and the file, never its content).
    public static func load(path: String) throws(SenderOptionError) -> P256.Signing.PrivateKey {
        let bytes = try OptionFile.read(path, option: option)
        return try parse(bytes, source: path)
    }

    /// Reads the key from the PEM text `bytes`; `source` names it in errors.
    public static func parse(_ bytes: [UInt8], source: String) throws(SenderOptionError) -> P256.Signing.PrivateKey {
        guard let text = String(validating: bytes, as: UTF8.self), text.contains("-----BEGIN ") else {
            throw SenderOptionError(
                option: option, message: "\(source) is not a PEM file (the .p8 key Apple gives: PKCS#8 PEM)")
        }
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: text)
        } catch {
            throw SenderOptionError(
                option: option, message: "\(source) is not a P-256 private key in PKCS#8 PEM (the .p8 key Apple gives)")
        }
    }
}
