import Logging
import PushDelivery
import Testing

/// What the FCM sender answers before any request: the device's project chosen by its `app` (or the only one), and
/// values that cannot carry a token.
struct FCMSenderTests {
    /// Runs `body` with a sender of `projects` whose endpoints are unreachable: only answers made without a request
    /// can come back as anything but transient.
    func withSender(
        projects: [String] = [FCMSamples.projectID], _ body: (FCMSender) async throws -> Void
    ) async throws {
        let http = try PushHTTPClient(configuration: PushHTTPConfiguration(connectTimeout: .milliseconds(200)))
        let logger = Logger(label: "fcm-test")
        let tokens = try projects.map { project in
            FCMAccessToken(account: try FCMSamples.account(projectID: project), logger: logger) { _, _, _ in
                .failed(HTTPFailure(kind: .connectFailed))
            }
        }
        let sender = FCMSender(tokens: tokens, endpoint: "https://127.0.0.1:9", http: http, logger: logger)
        do {
            try await body(sender)
        } catch {
            await http.shutdown()
            throw error
        }
        await http.shutdown()
    }

    @Test func aDeviceOfAnotherProjectIsAnUnknownApp() async throws {
        try await withSender { sender in
            let answer = await sender.send(
                DevicePush(record: FCMSamples.record(), device: FCMSamples.device(app: "other-project")))
            #expect(answer == .final(.rejected, AnswerDetails(reason: "unknown_app")))
        }
    }

    @Test func aDeviceWithoutAppUsesTheOnlyProject() async throws {
        try await withSender { sender in
            // The only project is used: the grant is tried (and the stand-in-less token endpoint is unreachable).
            let answer = await sender.send(DevicePush(record: FCMSamples.record(), device: FCMSamples.device(app: nil)))
            #expect(answer == .transient(AnswerDetails(reason: "grant_connect_failed"), retryAfter: nil))
        }
        try await withSender(projects: [FCMSamples.projectID, "other-project"]) { sender in
            let answer = await sender.send(DevicePush(record: FCMSamples.record(), device: FCMSamples.device(app: nil)))
            #expect(answer == .final(.rejected, AnswerDetails(reason: "no_app")))
        }
    }

    /// A refused credential pauses the project the push was sent with (SPEC 10.6), named by `app` or not.
    @Test func thePauseScopeIsTheProjectUsed() async throws {
        try await withSender { sender in
            let record = FCMSamples.record()
            #expect(
                sender.pauseScope(of: DevicePush(record: record, device: FCMSamples.device(app: nil)))
                    == FCMSamples.projectID)
            #expect(
                sender.pauseScope(of: DevicePush(record: record, device: FCMSamples.device(app: "other-project")))
                    == "other-project")
        }
        try await withSender(projects: [FCMSamples.projectID, "other-project"]) { sender in
            #expect(
                sender.pauseScope(of: DevicePush(record: FCMSamples.record(), device: FCMSamples.device(app: nil)))
                    == nil)
        }
    }

    @Test func aValueWithoutAMessageObjectIsRejectedWithoutARequest() async throws {
        try await withSender { sender in
            let answer = await sender.send(
                DevicePush(record: FCMSamples.record(value: #"{"validate_only":true}"#), device: FCMSamples.device()))
            #expect(answer == .final(.rejected, AnswerDetails(reason: "no_message_object")))
            let notJSON = await sender.send(
                DevicePush(record: FCMSamples.record(value: "<html>"), device: FCMSamples.device()))
            #expect(notJSON == .final(.rejected, AnswerDetails(reason: "value_not_json")))
        }
    }

    @Test func aDeviceOfAnotherPlatformIsRefused() async throws {
        try await withSender { sender in
            let device = Device(
                id: "d", audience: "user-1", app: nil, address: .apns(token: "00ff", environment: .production))
            #expect(
                await sender.send(DevicePush(record: FCMSamples.record(), device: device))
                    == .final(.rejected, AnswerDetails(reason: "not_fcm")))
        }
    }
}
