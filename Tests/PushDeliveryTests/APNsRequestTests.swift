import PushDelivery
import PushModel
import Testing

/// The request SPEC 10.3 makes of each push: URL, headers, body.
struct APNsRequestTests {
    let configuration: APNsConfiguration

    init() throws {
        configuration = try APNsConfiguration(
            keyID: "KEYID12345", teamID: "TEAMID6789", bundleID: "com.example.default",
            productionEndpoint: APNsEndpoint("https://apns.test:8443", option: "--apns-endpoint"),
            sandboxEndpoint: APNsEndpoint("https://sandbox.test/prefix/", option: "--apns-sandbox-endpoint"))
    }

    func make(_ record: DeliveredRecord, _ device: Device?, configuration: APNsConfiguration? = nil) -> Result<
        APNsRequest, APNsRequest.Refusal
    > {
        APNsRequest.make(
            for: DevicePush(record: record, device: device), configuration: configuration ?? self.configuration)
    }

    func refusal(_ record: DeliveredRecord, _ device: Device?, configuration: APNsConfiguration? = nil)
        -> APNsRequest.Refusal?
    {
        guard case .failure(let refusal) = make(record, device, configuration: configuration) else { return nil }
        return refusal
    }

    func headers(_ request: APNsRequest) -> [String] { request.headers.map { "\($0.name): \($0.value)" } }

    @Test func aDevicePushCopiesTheRecordsHeadersAndBodyToItsTokensPath() throws {
        let record = APNsSamples.record()
        let request = try make(record, APNsSamples.device()).get()
        let apnsID = APNsMessageID.make(for: record, deviceID: "device-1")
        #expect(request.url == "https://apns.test:8443/3/device/\(APNsSamples.token)")
        #expect(
            headers(request) == [
                "apns-topic: com.example.shop", "apns-push-type: alert", "apns-priority: 10",
                "apns-expiration: 1900000000", "apns-collapse-id: order-1", "apns-id: \(apnsID)",
            ])
        #expect(request.body == record.value && request.apnsID == apnsID)
    }

    @Test func headersTheRecordLacksAreNotSentAndOthersAreNotCopied() throws {
        let record = APNsSamples.record(headers: [
            ("apns-push-type", "background"), ("pushgate-id", "x"), ("apns-topic", "evil"),
        ])
        let request = try make(record, APNsSamples.device()).get()
        #expect(request.headers.map(\.name) == ["apns-topic", "apns-push-type", "apns-id"])
        #expect(request.headers[0].value == "com.example.shop")
    }

    @Test func aDevelopmentDeviceGoesToTheSandboxAndItsTokenIsLowercased() throws {
        let device = APNsSamples.device(token: APNsSamples.token.uppercased(), environment: .development)
        let request = try make(APNsSamples.record(), device).get()
        #expect(request.url == "https://sandbox.test/prefix/3/device/\(APNsSamples.token)")
    }

    @Test func aLiveActivityGoesToItsTopic() throws {
        let record = APNsSamples.record(headers: [("apns-push-type", "liveactivity"), ("apns-priority", "5")])
        let request = try make(record, APNsSamples.device()).get()
        #expect(request.headers.first?.value == "com.example.shop.push-type.liveactivity")
    }

    @Test func aDeviceWithoutAppTakesTheBundleIDOrIsRejectedNoApp() throws {
        let device = APNsSamples.device(app: nil)
        #expect(try make(APNsSamples.record(), device).get().headers.first?.value == "com.example.default")
        let withoutBundle = try APNsConfiguration(keyID: "K", teamID: "T")
        #expect(refusal(APNsSamples.record(), device, configuration: withoutBundle) == .noApp)
        #expect(APNsRequest.Refusal.noApp.rawValue == "no_app")
    }

    @Test func aBroadcastGoesToTheBundlesBroadcastPathOnTheProductionEndpoint() throws {
        let record = APNsSamples.record(
            value: #"{"aps":{"event":"update"}}"#,
            headers: [
                ("apns-push-type", "liveactivity"), ("apns-channel-id", "dHN0LXNyY2gtY2hubA=="), ("apns-priority", "5"),
                ("apns-expiration", "0"), ("apns-collapse-id", "c"), ("pushgate-source", "push.unified:0:1"),
            ])
        let request = try make(record, nil).get()
        #expect(request.url == "https://apns.test:8443/4/broadcasts/apps/com.example.default")
        #expect(
            headers(request) == [
                "apns-channel-id: dHN0LXNyY2gtY2hubA==", "apns-push-type: liveactivity", "apns-priority: 5",
                "apns-expiration: 0",
            ])
        #expect(request.apnsID == nil && request.body == record.value)
        #expect(refusal(record, nil, configuration: try APNsConfiguration(keyID: "K", teamID: "T")) == .noApp)
    }

    @Test func headerValuesAHeaderCannotCarryAreRejected() {
        for value in ["10\r\nx-evil: 1", "caf\u{E9}", " 10", "1\u{0}"] {
            let record = APNsSamples.record(headers: [("apns-push-type", "alert"), ("apns-priority", value)])
            #expect(refusal(record, APNsSamples.device()) == .invalidHeader, "\(value)")
        }
        #expect(refusal(APNsSamples.record(), APNsSamples.device(app: "com.example\nshop")) == .invalidHeader)
    }

    @Test func aTokenThatIsNotHexOrADeviceOfAnotherPlatformIsRejected() {
        #expect(refusal(APNsSamples.record(), APNsSamples.device(token: "../../4/x")) == .invalidToken)
        #expect(refusal(APNsSamples.record(), APNsSamples.device(token: "abc")) == .invalidToken)
        let fcm = Device(id: "f", audience: "user-1", app: "p", address: .fcm(token: "t"))
        #expect(refusal(APNsSamples.record(), fcm) == .notAPNs)
        #expect(refusal(APNsSamples.record(), nil) == .notAPNs)
    }
}

/// The configuration's checks: each error names its option.
struct APNsConfigurationTests {
    @Test func endpointsAreHTTPSURLsOfAHost() throws {
        #expect(try APNsEndpoint("https://127.0.0.1:8443/", option: "--apns-endpoint").base == "https://127.0.0.1:8443")
        #expect(APNsEndpoint.production.base == "https://api.push.apple.com")
        #expect(APNsEndpoint.sandbox.base == "https://api.sandbox.push.apple.com")
        for text in [
            "http://api.push.apple.com", "https://", "https://user@host", "https://host?x=1", "api.push.apple.com",
            "https://:443",
        ] {
            #expect(throws: SenderOptionError.self, "\(text)") {
                try APNsEndpoint(text, option: "--apns-sandbox-endpoint")
            }
            do {
                _ = try APNsEndpoint(text, option: "--apns-sandbox-endpoint")
            } catch {
                #expect(error.option == "--apns-sandbox-endpoint")
            }
        }
    }

    @Test func idsAndTheBundleIDAreChecked() {
        #expect(throws: SenderOptionError.self) { try APNsConfiguration(keyID: "", teamID: "T") }
        do {
            _ = try APNsConfiguration(keyID: "K", teamID: "T 1")
        } catch {
            #expect(error.option == "--apns-team-id")
        }
        do {
            _ = try APNsConfiguration(keyID: "K", teamID: "T", bundleID: "com.example/../x")
        } catch {
            #expect(error.option == "--apns-bundle-id")
        }
        #expect(APNsConfiguration.isBundleID("com.example.Shop-2"))
        #expect(!APNsConfiguration.isBundleID("com example"))
    }
}
