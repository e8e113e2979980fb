import Crypto
import Foundation
import PushDelivery
import Testing

/// Loading the `.p8` key (`--apns-key-file`): errors name the option, the file, never the key.
struct APNsSigningKeyTests {
    func file(_ content: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("apns-key-\(UUID().uuidString).p8")
            .path
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A key made now, cut short: its PEM block's first body line and its end line, not a whole key.
    static func truncatedPEM() -> String {
        let lines = P256.Signing.PrivateKey().pemRepresentation.split(separator: "\n").map(String.init)
        return [lines[0], lines[1], lines[lines.count - 1]].joined(separator: "\n") + "\n"
    }

    @Test func aPKCS8P256KeyIsLoaded() throws {
        let key = P256.Signing.PrivateKey()  // made now: no key is ever committed
        let path = try file(key.pemRepresentation)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try APNsSigningKey.load(path: path).rawRepresentation == key.rawRepresentation)
    }

    @Test func aMissingFileIsAnErrorNamingTheOption() {
        #expect(throws: SenderOptionError(option: "--apns-key-file", message: "/nonexistent/AuthKey.p8: no such file"))
        {
            try APNsSigningKey.load(path: "/nonexistent/AuthKey.p8")
        }
    }

    @Test(arguments: [
        "not a key at all",
        P384.Signing.PrivateKey().pemRepresentation,
        P256.Signing.PrivateKey().publicKey.pemRepresentation,
        Self.truncatedPEM(),
    ])
    func aFileThatIsNotAP256PrivateKeyIsAnErrorNamingTheOption(content: String) throws {
        let path = try file(content)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try APNsSigningKey.load(path: path)
            Issue.record("loaded a key from \(content.prefix(30))")
        } catch {
            #expect(error.option == "--apns-key-file")
            #expect(error.description.hasPrefix("--apns-key-file: \(path) is not a"))
            #expect(!error.description.contains("MIG"))
        }
    }

    @Test func aDirectoryOrAnUnreadableFileIsAnErrorNamingTheOption() throws {
        let directory = FileManager.default.temporaryDirectory.path
        #expect(throws: SenderOptionError.self) { try APNsSigningKey.load(path: directory) }
        let path = try file(P256.Signing.PrivateKey().pemRepresentation)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
        guard geteuid() != 0 else { return }  // root reads any file
        do {
            _ = try APNsSigningKey.load(path: path)
            Issue.record("read an unreadable file")
        } catch {
            #expect(error.description == "--apns-key-file: \(path): cannot be read (permission denied?)")
        }
    }
}
