import Foundation
import PushDelivery
import PushModel
import _CryptoExtras

/// Service accounts, records and devices for the FCM sender's unit tests. Every key is made when the tests run:
/// none is ever committed.
enum FCMSamples {
    static let projectID = "shop-12345"
    static let clientEmail = "pushgate@shop-12345.iam.gserviceaccount.com"
    static let privateKeyID = "0123456789abcdef0123456789abcdef01234567"
    static let tokenURI = "https://127.0.0.1:9/token"
    static let registrationToken = "fcm-token-1:APA91bHun4MxP5egoKMwt2KZFBaFUH"

    /// One 2048-bit key for the whole test run (making one takes a moment).
    private static let sharedKey = Result { try _RSA.Signing.PrivateKey(keySize: .bits2048) }

    static func key() throws -> _RSA.Signing.PrivateKey { try sharedKey.get() }

    static func account(projectID: String = projectID, tokenURI: String = tokenURI) throws -> FCMServiceAccount {
        FCMServiceAccount(
            projectID: projectID, privateKeyID: privateKeyID, clientEmail: clientEmail, tokenURI: tokenURI,
            privateKey: try key())
    }

    /// The text of a service-account key file as Google writes it; `dropping` leaves members out, `replacing`
    /// replaces them.
    static func serviceAccountJSON(
        pem: String? = nil, projectID: String = projectID, dropping: Set<String> = [],
        replacing: [String: Any] = [:]
    ) throws -> String {
        var members: [String: Any] = [
            "type": "service_account", "project_id": projectID, "private_key_id": privateKeyID,
            "private_key": try pem ?? key().pkcs8PEMRepresentation, "client_email": clientEmail,
            "client_id": "123456789012345678901", "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": tokenURI, "universe_domain": "googleapis.com",
        ]
        for name in dropping { members[name] = nil }
        members.merge(replacing) { $1 }
        return String(
            decoding: try JSONSerialization.data(withJSONObject: members, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Writes `text` to a new temporary file and returns its path.
    static func file(_ text: String, suffix: String = ".json") throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fcm-\(UUID().uuidString)\(suffix)")
            .path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let value = #"{"message":{"data":{"order":"1234"},"android":{"priority":"HIGH","ttl":"3600s"}}}"#

    static func record(value: String = value) -> DeliveredRecord {
        DeliveredRecord(
            topic: "push.fcm", partition: 0, offset: 3, key: "user-1", value: Array(value.utf8),
            headers: [(name: "pushgate-format", value: Array("fcm".utf8))], timestampMilliseconds: 0, format: .fcm)
    }

    static func device(id: String = "device-1", token: String = registrationToken, app: String? = projectID) -> Device {
        Device(id: id, audience: "user-1", app: app, address: .fcm(token: token))
    }
}
