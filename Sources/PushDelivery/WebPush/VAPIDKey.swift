import Crypto

/// A site's VAPID key (`--vapid-key NAME=FILE`, SPEC 10.5): a P-256 private key in PEM, PKCS#8 (`PRIVATE KEY`) or
/// SEC1 (`EC PRIVATE KEY`, as `openssl ecparam -genkey`, web-push and py_vapid write it; an `EC PARAMETERS` block
/// before it is skipped).
public enum VAPIDKey {
    /// The option errors name.
    public static let option = "--vapid-key"

    /// Reads the key named `name` from the file at `path`; a missing or unreadable file, or one that is not a P-256
    /// private key in PEM, is an error naming `--vapid-key`, the key's name and the file (never its content).
    public static func load(name: String, path: String) throws(SenderOptionError) -> P256.Signing.PrivateKey {
        let bytes = try OptionFile.read(path, option: "\(option) \(name)")
        return try parse(bytes, source: "\(name)=\(path)")
    }

    /// Reads the key from the PEM text `bytes`; `source` names it in errors (`NAME=FILE`).
    public static func parse(_ bytes: [UInt8], source: String) throws(SenderOptionError) -> P256.Signing.PrivateKey {
        let wrongKind = SenderOptionError(
            option: option,
            message: "\(source): not a P-256 private key in PEM (PKCS#8 PRIVATE KEY or SEC1 EC PRIVATE KEY)")
        guard let text = String(validating: bytes, as: UTF8.self) else { throw wrongKind }
        for label in ["PRIVATE KEY", "EC PRIVATE KEY"] {
            guard let block = pemBlock(label, in: text) else { continue }
            guard let key = try? P256.Signing.PrivateKey(pemRepresentation: block) else { throw wrongKind }
            return key
        }
        throw wrongKind
    }

    /// The first PEM block labelled `label` in `text`, markers included.
    private static func pemBlock(_ label: String, in text: String) -> String? {
        let begin = "-----BEGIN \(label)-----"
        let end = "-----END \(label)-----"
        guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex)
        else { return nil }
        return String(text[start.lowerBound..<stop.upperBound])
    }
}
