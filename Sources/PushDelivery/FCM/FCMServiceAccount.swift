import Foundation
import _CryptoExtras

/// A Google service-account key file (`--fcm-credentials`, SPEC 10.4): the Firebase project it sends for and
/// what the OAuth 2.0 JWT-bearer grant needs (DELIVERY.md B2). Its other members (`type`, `client_id`, ...) are
/// ignored.
public struct FCMServiceAccount: Sendable {
    /// The option errors name.
    public static let option = "--fcm-credentials"

    /// `project_id`: the Firebase project, which devices name in `app`.
    public var projectID: String
    /// `private_key_id`: the assertion's `kid`.
    public var privateKeyID: String
    /// `client_email`: the assertion's `iss`.
    public var clientEmail: String
    /// `token_uri`: where the grant is posted, and the assertion's `aud`.
    public var tokenURI: String
    /// `private_key`: the RSA key that signs the assertion (RS256).
    public var privateKey: _RSA.Signing.PrivateKey

    /// Creates an account from its parts (tests).
    public init(
        projectID: String, privateKeyID: String, clientEmail: String, tokenURI: String,
        privateKey: _RSA.Signing.PrivateKey
    ) {
        self.projectID = projectID
        self.privateKeyID = privateKeyID
        self.clientEmail = clientEmail
        self.tokenURI = tokenURI
        self.privateKey = privateKey
    }

    /// Reads the file at `path`; a missing or unreadable file, one that is not a JSON object, lacks a member or
    /// holds a key that is not an RSA private key in PEM is an error naming `--fcm-credentials` and the file (never
    /// the key).
    public static func load(path: String) throws(SenderOptionError) -> FCMServiceAccount {
        try parse(try OptionFile.read(path, option: option), source: path)
    }

    /// Reads the JSON text `bytes`; `source` names it in errors.
    public static func parse(_ bytes: [UInt8], source: String) throws(SenderOptionError) -> FCMServiceAccount {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw SenderOptionError(
                option: option, message: "\(source) is not JSON (a Google service-account key file is a JSON object)")
        }
        func member(_ name: String) throws(SenderOptionError) -> String {
            guard let value = object[name] as? String, !value.isEmpty else {
                throw SenderOptionError(
                    option: option, message: "\(source) has no \(name) (a Google service-account key file has one)")
            }
            return value
        }
        let projectID = try member("project_id")
        guard isProjectID(projectID) else {
            throw SenderOptionError(
                option: option,
                message: "\(source): project_id \"\(projectID)\" is not a project id (letters, digits, -, . and :)")
        }
        let privateKeyID = try member("private_key_id")
        let clientEmail = try member("client_email")
        let tokenURI = try member("token_uri")
        guard (try? APNsEndpoint(tokenURI, option: option)) != nil else {
            throw SenderOptionError(
                option: option, message: "\(source): token_uri \"\(tokenURI)\" is not an https URL of a host")
        }
        for (name, value) in [("private_key_id", privateKeyID), ("client_email", clientEmail)]
        where !value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) {
            throw SenderOptionError(option: option, message: "\(source): \(name) holds control characters")
        }
        let pem = try member("private_key")
        let privateKey: _RSA.Signing.PrivateKey
        do {
            privateKey = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw SenderOptionError(
                option: option,
                message: "\(source): private_key is not an RSA private key of at least 2048 bits in PEM")
        }
        return FCMServiceAccount(
            projectID: projectID, privateKeyID: privateKeyID, clientEmail: clientEmail, tokenURI: tokenURI,
            privateKey: privateKey)
    }

    /// Whether `text` can be a project id in a request's path: 1 to 128 letters, digits, `-`, `.` and `:` (Google's
    /// ids are lowercase letters, digits and `-`; older ones are scoped by a domain, `example.com:project`).
    public static func isProjectID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 128
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"):
                    true
                default: false
                }
            }
    }
}
