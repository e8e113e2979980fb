import Foundation
import PushDelivery
import PushModel
import PushgateSettings
import Testing

/// `pushgate deliver`'s settings (SPEC 10.8): one definition each, flags over variables over defaults,
/// and the usage errors that name the option.
struct DeliverSettingsTests {
    private let credentials = [
        "--apns-key-file", "key.p8", "--apns-key-id", "KEY1234567", "--apns-team-id", "TEAM123456",
    ]

    private func resolve(_ flags: [String], environment: [String: String] = [:]) throws -> DeliverSettings {
        try DeliverSettings.resolve(try DeliverOptions.parse(flags), environment: EnvironmentSettings(environment))
    }

    private func failure(_ flags: [String], environment: [String: String] = [:]) -> String {
        do {
            _ = try resolve(flags, environment: environment)
            return "no error"
        } catch let error as SettingError {
            return error.description
        } catch {
            return "\(error)"
        }
    }

    @Test func theConfigurationPageTableIsTheDefinitionsTable() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/configuration.md")
        let lines = try String(contentsOf: page, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map(String.init)
        let start = try #require(lines.firstIndex(of: "| `deliver` option | environment | default |"))
        let table = lines[start...].prefix { $0.hasPrefix("|") }.joined(separator: "\n")
        #expect(
            table == Settings.Deliver.markdownTable,
            "docs/configuration.md's deliver table differs; paste Settings.Deliver.markdownTable:\n\(Settings.Deliver.markdownTable)"
        )
    }

    @Test func theDeliverOptionsAreTheSettingsInOrder() {
        let help = DeliverOptions.helpMessage(columns: 1000)
        let options = help.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard let first = words.first, first.hasPrefix("-"), first != "-h," else { return nil }
            return String(first.split(separator: "/").first ?? first)
        }
        #expect(options == Settings.Deliver.all.map(\.flag))
    }

    @Test func defaultsAreTheContracts() throws {
        let settings = try resolve(["--bootstrap-servers", "k:9092"] + credentials)
        let delivery = settings.delivery
        #expect(delivery.groupId == "pushgate-deliver" && delivery.platforms == [.apns])
        #expect(delivery.devicesTopic == "push.devices" && delivery.receiptsTopic == "push.receipts")
        #expect(delivery.receipts == .failures && delivery.requestTimeout == .seconds(30))
        #expect(delivery.retry.giveUpAfter == .seconds(86_400) && delivery.maxInFlightRequests == 1000)
        #expect(delivery.shutdownTimeout == .seconds(10))
        #expect(delivery.deliveredTopics == ["push.apns", "push.adobe.carousel", "push.fb.card"])
        #expect(delivery.apns.keyID == "KEY1234567" && delivery.apns.bundleID == nil)
    }

    @Test func flagsWinOverVariablesWhichWinOverDefaults() throws {
        let settings = try resolve(
            ["--bootstrap-servers", "k:9092", "--receipts", "all", "--topic", "apns=ios.out", "--give-up-after", "2h"]
                + credentials,
            environment: [
                "PUSHGATE_RECEIPTS": "none", "PUSHGATE_REQUEST_TIMEOUT": "500ms", "PUSHGATE_GROUP_ID": "g2",
                "PUSHGATE_MAX_IN_FLIGHT_REQUESTS": "50", "PUSHGATE_APNS_BUNDLE_ID": "com.example.app",
            ])
        let delivery = settings.delivery
        #expect(delivery.receipts == .all && delivery.requestTimeout == .milliseconds(500))
        #expect(delivery.groupId == "g2" && delivery.maxInFlightRequests == 50)
        #expect(delivery.retry.giveUpAfter == .seconds(7200) && delivery.apns.bundleID == "com.example.app")
        #expect(delivery.deliveredTopics == ["ios.out", "push.adobe.carousel", "push.fb.card"])
        #expect(delivery.format(ofTopic: "ios.out") == .apns)
    }

    @Test func credentialsMayComeFromVariables() throws {
        let settings = try resolve(
            ["--bootstrap-servers", "k:9092"],
            environment: [
                "PUSHGATE_APNS_KEY_FILE": "k.p8", "PUSHGATE_APNS_KEY_ID": "K", "PUSHGATE_APNS_TEAM_ID": "T",
            ])
        #expect(settings.delivery.platforms == [.apns] && settings.delivery.apns.keyFile == "k.p8")
    }

    @Test func usageErrorsNameTheOption() {
        #expect(failure(credentials) == "--bootstrap-servers (or PUSHGATE_BOOTSTRAP_SERVERS) is required")
        #expect(
            failure(["--bootstrap-servers", "k:9092", "--platforms", "apns", "--apns-key-file", "k.p8"])
                == "--platforms apns needs --apns-key-id")
        #expect(
            failure(["--bootstrap-servers", "k:9092"]).hasPrefix(
                "no platform to deliver to: give --apns-key-file, --apns-key-id and --apns-team-id, --fcm-credentials"
            ))
        #expect(
            failure(["--bootstrap-servers", "k:9092", "--platforms", "apns,fcm"] + credentials)
                == "--platforms fcm needs --fcm-credentials")
        #expect(
            failure(["--bootstrap-servers", "k:9092", "--platforms", "fcm,webpush", "--fcm-credentials", "a.json"])
                == "--platforms webpush needs --vapid-key NAME=FILE")
        #expect(
            failure(["--bootstrap-servers", "k:9092", "--fcm-credentials", "a.json", "--apns-key-id", "K"])
                == "apns needs --apns-key-file (or name the platforms with --platforms)")
        #expect(
            failure(["--bootstrap-servers", "k:9092", "--fcm-credentials", "a.json", "--fcm-endpoint", "http://x"])
                == "--fcm-endpoint must be an https URL with a host, not 'http://x'")
        #expect(
            failure(["--bootstrap-servers", "k:9092", "--platforms", "apns, fcm"] + credentials)
                == "--platforms: 'apns, fcm' is not a comma-separated list of apns, fcm, webpush (exact lower-case names, no spaces)"
        )
        #expect(
            failure(["--bootstrap-servers", "k:9092", "--receipts", "some"] + credentials)
                == "--receipts must be one of failures, all, none, not 'some'")
        #expect(
            failure(["--bootstrap-servers", "k:9092", "--apns-endpoint", "http://x"] + credentials)
                == "--apns-endpoint must be an https URL with a host, not 'http://x'")
        #expect(
            failure(["--bootstrap-servers", "k:9092", "--request-timeout", "soon"] + credentials)
                == "--request-timeout must be a duration (a whole number with ms, s, m or h; seconds without), not 'soon'"
        )
        #expect(
            failure(["--bootstrap-servers", "k:9092", "--max-in-flight-requests", "0"] + credentials)
                == "--max-in-flight-requests must be at least 1 and at most 100000, not 0")
    }

    @Test func fcmCredentialsAreRepeatableAndEnableFCM() throws {
        let flags = try resolve(
            ["--bootstrap-servers", "k:9092", "--fcm-credentials", "a.json", "--fcm-credentials", "b.json"]
        ).delivery
        #expect(flags.platforms == [.fcm] && flags.fcm.credentialFiles == ["a.json", "b.json"])
        #expect(flags.fcm.endpoint == nil && flags.deliveredTopics == ["push.fcm"])
        let variables = try resolve(
            ["--bootstrap-servers", "k:9092"] + credentials,
            environment: [
                "PUSHGATE_FCM_CREDENTIALS": "a.json;b.json\nc.json", "PUSHGATE_FCM_ENDPOINT": "https://127.0.0.1:8443",
            ]
        ).delivery
        #expect(
            variables.platforms == [.apns, .fcm] && variables.fcm.credentialFiles == ["a.json", "b.json", "c.json"])
        #expect(variables.fcm.endpoint == "https://127.0.0.1:8443")
        let flagWins = try resolve(
            ["--bootstrap-servers", "k:9092", "--fcm-credentials", "x.json", "--platforms", "fcm"] + credentials,
            environment: ["PUSHGATE_FCM_CREDENTIALS": "a.json"]
        ).delivery
        #expect(flagWins.platforms == [.fcm] && flagWins.fcm.credentialFiles == ["x.json"])
    }

    @Test func anUnreadableServiceAccountFileIsAUsageError() {
        let missing = "/nonexistent-\(UInt32.random(in: 0...UInt32.max)).json"
        do {
            _ = try DeliverSettings.resolve(
                try DeliverOptions.parse(["--bootstrap-servers", "k:9092", "--fcm-credentials", missing]),
                environment: EnvironmentSettings([:]), checkingFiles: true)
            Issue.record("resolved with an unreadable service-account file")
        } catch {
            #expect("\(error)" == "--fcm-credentials: cannot read '\(missing)'")
        }
    }

    @Test func webPushSettingsComeFromFlagsAndVariables() throws {
        let flags = try resolve([
            "--bootstrap-servers", "k:9092", "--vapid-key", "site=/keys/site.pem", "--vapid-key", "shop=/keys/shop.pem",
            "--vapid-subject", "mailto:ops@example.com", "--webpush-allow-host", "127.0.0.1",
            "--webpush-allow-host", "*.push.example.com",
        ])
        #expect(flags.delivery.platforms == [.webpush])
        #expect(flags.delivery.webpush.vapidKeys == ["site": "/keys/site.pem", "shop": "/keys/shop.pem"])
        #expect(flags.delivery.webpush.vapidSubject == "mailto:ops@example.com")
        #expect(flags.delivery.webpush.allowHosts == ["127.0.0.1", "*.push.example.com"])
        #expect(flags.delivery.deliveredTopics == ["push.webpush"])
        let variables = try resolve(
            ["--bootstrap-servers", "k:9092"] + credentials,
            environment: [
                "PUSHGATE_VAPID_KEYS": "site=/keys/site.pem;shop=/keys/shop.pem",
                "PUSHGATE_VAPID_SUBJECT": "https://example.com", "PUSHGATE_WEBPUSH_ALLOW_HOST": "127.0.0.1,::1",
            ])
        #expect(variables.delivery.platforms == [.apns, .webpush])
        #expect(variables.delivery.webpush.vapidKeys.count == 2)
        #expect(variables.delivery.webpush.allowHosts == ["127.0.0.1", "::1"])
        #expect(try resolve(["--bootstrap-servers", "k:9092"] + credentials).delivery.webpush == WebPushSettings())
    }

    @Test func webPushUsageErrorsNameTheOption() {
        #expect(
            failure(["--bootstrap-servers", "k:9092", "--platforms", "webpush", "--vapid-subject", "mailto:a@b.c"])
                == "--platforms webpush needs --vapid-key NAME=FILE")
        #expect(
            failure(["--bootstrap-servers", "k:9092", "--vapid-key", "site=/k.pem"])
                == "--platforms webpush needs --vapid-subject (a mailto: or https: URI)")
        #expect(
            failure(["--bootstrap-servers", "k:9092", "--vapid-key", "=/k.pem", "--vapid-subject", "mailto:a@b.c"])
                == "--vapid-key: a VAPID key needs a name (NAME=FILE)")
        #expect(
            failure(["--bootstrap-servers", "k:9092", "--vapid-key", "site", "--vapid-subject", "mailto:a@b.c"])
                == "--vapid-key expects NAME=VALUE entries, got 'site'")
    }

    @Test func anUnreadableKeyFileIsAUsageError() {
        let missing = "/nonexistent-\(UInt32.random(in: 0...UInt32.max)).p8"
        let flags = [
            "--bootstrap-servers", "k:9092", "--apns-key-file", missing, "--apns-key-id", "K", "--apns-team-id", "T",
        ]
        do {
            _ = try DeliverSettings.resolve(
                try DeliverOptions.parse(flags), environment: EnvironmentSettings([:]), checkingFiles: true)
            Issue.record("resolved with an unreadable key file")
        } catch {
            #expect("\(error)" == "--apns-key-file: cannot read '\(missing)'")
        }
    }
}
