import Crypto
import Foundation
import Logging
import PushDelivery
import Testing

/// Making the APNs sender from the command line's options: defaults, and errors naming each option.
struct APNsSenderOptionsTests {
    func withKeyFile<T>(_ body: (String, PushHTTPClient) async throws -> T) async throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString).p8").path
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: URL(fileURLWithPath: path))
        let http = try PushHTTPClient(configuration: PushHTTPConfiguration())
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let result = try await body(path, http)
            await http.shutdown()
            return result
        } catch {
            await http.shutdown()
            throw error
        }
    }

    @Test func apnsEndpointsDefaultToApplesAndOthersAreKept() async throws {
        try await withKeyFile { path, http in
            let logger = Logger(label: "test")
            let defaults = try APNsSender.make(keyFile: path, keyID: "K", teamID: "T", http: http, logger: logger)
            #expect(defaults.configuration.productionEndpoint == .production)
            #expect(defaults.configuration.sandboxEndpoint == .sandbox && defaults.configuration.bundleID == nil)
            let replaced = try APNsSender.make(
                keyFile: path, keyID: "K", teamID: "T", bundleID: "com.example.shop",
                endpoint: "https://127.0.0.1:8443", sandboxEndpoint: "https://127.0.0.1:8444", http: http,
                logger: logger)
            #expect(replaced.configuration.productionEndpoint.base == "https://127.0.0.1:8443")
            #expect(replaced.configuration.sandboxEndpoint.base == "https://127.0.0.1:8444")
            #expect(replaced.configuration.bundleID == "com.example.shop")
        }
    }

    @Test func eachBadOptionIsNamed() async throws {
        try await withKeyFile { path, http in
            let logger = Logger(label: "test")
            let cases: [(String, () throws -> APNsSender)] = [
                (
                    "--apns-key-file",
                    {
                        try APNsSender.make(
                            keyFile: path + ".missing", keyID: "K", teamID: "T", http: http, logger: logger)
                    }
                ),
                (
                    "--apns-key-id",
                    {
                        try APNsSender.make(keyFile: path, keyID: "", teamID: "T", http: http, logger: logger)
                    }
                ),
                (
                    "--apns-team-id",
                    {
                        try APNsSender.make(keyFile: path, keyID: "K", teamID: " ", http: http, logger: logger)
                    }
                ),
                (
                    "--apns-bundle-id",
                    {
                        try APNsSender.make(
                            keyFile: path, keyID: "K", teamID: "T", bundleID: "a/b", http: http, logger: logger)
                    }
                ),
                (
                    "--apns-endpoint",
                    {
                        try APNsSender.make(
                            keyFile: path, keyID: "K", teamID: "T", endpoint: "http://x", http: http, logger: logger)
                    }
                ),
                (
                    "--apns-sandbox-endpoint",
                    {
                        try APNsSender.make(
                            keyFile: path, keyID: "K", teamID: "T", sandboxEndpoint: "x", http: http, logger: logger)
                    }
                ),
            ]
            for (option, make) in cases {
                do {
                    _ = try make()
                    Issue.record("\(option) accepted")
                } catch let error as SenderOptionError {
                    #expect(error.option == option)
                } catch {
                    Issue.record("\(option): \(error)")
                }
            }
        }
    }
}
