import Crypto
import Foundation
import Logging
import PushDelivery
import Testing
import _CryptoExtras

/// Loading `--fcm-credentials` files: every member the grant needs, an RSA key; errors name the option and the
/// file, never the key.
struct FCMServiceAccountTests {
    @Test func aGoogleServiceAccountFileIsLoaded() throws {
        let path = try FCMSamples.file(try FCMSamples.serviceAccountJSON())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let account = try FCMServiceAccount.load(path: path)
        #expect(account.projectID == FCMSamples.projectID && account.privateKeyID == FCMSamples.privateKeyID)
        #expect(account.clientEmail == FCMSamples.clientEmail && account.tokenURI == FCMSamples.tokenURI)
        #expect(account.privateKey.derRepresentation == (try FCMSamples.key()).derRepresentation)
    }

    @Test func aPKCS1KeyIsLoadedToo() throws {
        let text = try FCMSamples.serviceAccountJSON(pem: try FCMSamples.key().pemRepresentation)
        let account = try FCMServiceAccount.parse(Array(text.utf8), source: "sa.json")
        #expect(account.privateKey.derRepresentation == (try FCMSamples.key()).derRepresentation)
    }

    static let badFiles: [(String, String)] = [
        ("not json at all", "sa.json is not JSON (a Google service-account key file is a JSON object)"),
        ("[1,2]", "sa.json is not JSON (a Google service-account key file is a JSON object)"),
    ]

    @Test func aFileThatIsNotAJSONObjectIsNamed() {
        for (text, message) in Self.badFiles {
            #expect(throws: SenderOptionError(option: "--fcm-credentials", message: message)) {
                try FCMServiceAccount.parse(Array(text.utf8), source: "sa.json")
            }
        }
    }

    @Test(arguments: ["token_uri", "client_email", "private_key", "project_id", "private_key_id"])
    func aMissingMemberIsNamed(member: String) throws {
        let text = try FCMSamples.serviceAccountJSON(dropping: [member])
        #expect(
            throws: SenderOptionError(
                option: "--fcm-credentials",
                message: "sa.json has no \(member) (a Google service-account key file has one)")
        ) {
            try FCMServiceAccount.parse(Array(text.utf8), source: "sa.json")
        }
    }

    @Test func aKeyThatIsNotRSAIsAnErrorThatShowsNoKey() throws {
        let notRSA = [
            P256.Signing.PrivateKey().pemRepresentation, try FCMSamples.key().publicKey.pemRepresentation,
            "not a key", try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024)).pemRepresentation,
        ]
        for pem in notRSA {
            let text = try FCMSamples.serviceAccountJSON(pem: pem)
            do {
                _ = try FCMServiceAccount.parse(Array(text.utf8), source: "sa.json")
                Issue.record("a key that is not an RSA private key was taken")
            } catch {
                #expect(
                    error
                        == SenderOptionError(
                            option: "--fcm-credentials",
                            message: "sa.json: private_key is not an RSA private key of at least 2048 bits in PEM"))
                #expect(!error.description.contains("BEGIN") && !error.description.contains(pem))
            }
        }
    }

    @Test func aTokenURIThatIsNotHTTPSAndABadProjectIDAreNamed() throws {
        let http = try FCMSamples.serviceAccountJSON(replacing: ["token_uri": "http://127.0.0.1/token"])
        #expect(
            throws: SenderOptionError(
                option: "--fcm-credentials",
                message: "sa.json: token_uri \"http://127.0.0.1/token\" is not an https URL of a host")
        ) {
            try FCMServiceAccount.parse(Array(http.utf8), source: "sa.json")
        }
        let path = try FCMSamples.serviceAccountJSON(projectID: "shop/../other")
        #expect(throws: SenderOptionError.self) { try FCMServiceAccount.parse(Array(path.utf8), source: "sa.json") }
        #expect(!FCMServiceAccount.isProjectID("a b") && FCMServiceAccount.isProjectID("example.com:shop-1"))
    }

    @Test func theSenderOptionsCheckEveryFileAndTheEndpoint() async throws {
        let first = try FCMSamples.file(try FCMSamples.serviceAccountJSON())
        let again = try FCMSamples.file(try FCMSamples.serviceAccountJSON())
        let other = try FCMSamples.file(try FCMSamples.serviceAccountJSON(projectID: "other-project"))
        defer { for path in [first, again, other] { try? FileManager.default.removeItem(atPath: path) } }
        let http = try PushHTTPClient(configuration: PushHTTPConfiguration())
        let logger = Logger(label: "fcm-test")
        let sender = try FCMSender.make(credentialFiles: [first, other], http: http, logger: logger)
        #expect(sender.projectIDs == ["other-project", FCMSamples.projectID].sorted())
        #expect(sender.endpoint == "https://fcm.googleapis.com")
        let local = try FCMSender.make(
            credentialFiles: [first], endpoint: "https://127.0.0.1:8443/", http: http, logger: logger)
        #expect(local.endpoint == "https://127.0.0.1:8443")
        #expect(
            throws: SenderOptionError(
                option: "--fcm-credentials",
                message: "\(first) and \(again) are both of project \(FCMSamples.projectID) (one file per project)")
        ) {
            try FCMSender.make(credentialFiles: [first, again], http: http, logger: logger)
        }
        #expect(throws: SenderOptionError(option: "--fcm-credentials", message: "is required for fcm")) {
            try FCMSender.make(credentialFiles: [], http: http, logger: logger)
        }
        #expect(throws: SenderOptionError(option: "--fcm-credentials", message: "/nonexistent/sa.json: no such file")) {
            try FCMSender.make(credentialFiles: ["/nonexistent/sa.json"], http: http, logger: logger)
        }
        #expect(throws: SenderOptionError.self) {
            try FCMSender.make(credentialFiles: [first], endpoint: "http://127.0.0.1", http: http, logger: logger)
        }
        await http.shutdown()
    }
}
