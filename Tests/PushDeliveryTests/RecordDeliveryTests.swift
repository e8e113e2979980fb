import Logging
import PushDelivery
import PushModel
import Testing

/// What a record becomes (SPEC 10.2) and its outcomes (10.6), with a scripted sender.
struct RecordDeliveryTests {
    typealias F = WorkerFixtures

    @Test func eachDeviceOfTheAudienceOnTheRecordsPlatformGetsOnePushAndAReceipt() async throws {
        let directory = InMemoryDirectory([
            F.device("d1"), F.device("d2", app: "com.other"), F.device("d3", audience: "user-2"),
            Device(id: "f1", audience: "user-1", app: nil, address: .fcm(token: "t")),
        ])
        let sender = ScriptedSender(["d2": [.final(.delivered, AnswerDetails(status: 200, apnsID: "id-2"))]])
        let receipts = InMemoryReceipts()
        let done = try await F.delivery(senders: [sender], directory: directory, receipts: receipts)
            .deliver(F.record(offset: 7))
        #expect(done)
        #expect(sender.requests.sorted() == ["d1", "d2"])
        let byDevice = Dictionary(uniqueKeysWithValues: receipts.receipts.map { ($0.key ?? "", $0) })
        #expect(byDevice.keys.sorted() == ["d1", "d2"])
        let d2 = try #require(byDevice["d2"])
        #expect(d2.outcome == .delivered && d2.device == "d2" && d2.audience == "user-1" && d2.app == "com.other")
        #expect(d2.record == "push.apns:0:7" && d2.source == "push.unified:0:7" && d2.id == "id-7")
        #expect(d2.format == "apns" && d2.status == 200 && d2.attempts == 1 && d2.at == 2_000 && d2.apnsID == "id-2")
        #expect(byDevice["d1"]?.app == "com.example.app")
    }

    @Test func aRecordWithoutDevicesHasOneNoDeviceOutcomeKeyedByItsKey() async throws {
        let receipts = InMemoryReceipts()
        let sender = ScriptedSender([:])
        let delivery = F.delivery(senders: [sender], directory: InMemoryDirectory([]), receipts: receipts)
        #expect(try await delivery.deliver(F.record(key: "nobody")))
        #expect(try await delivery.deliver(F.record(key: nil)))
        #expect(sender.requests.isEmpty)
        #expect(receipts.receipts.map(\.outcome) == [.noDevice, .noDevice])
        #expect(receipts.receipts.map(\.key) == ["nobody", nil])
        #expect(receipts.receipts.first?.device == nil && receipts.receipts.first?.audience == "nobody")
        #expect(receipts.receipts.first?.attempts == 0)
    }

    @Test func aDryRunIsNotSentAndEachDeviceIsDryRun() async throws {
        let receipts = InMemoryReceipts()
        let sender = ScriptedSender([:])
        let delivery = F.delivery(
            senders: [sender], directory: InMemoryDirectory([F.device("d1"), F.device("d2")]), receipts: receipts)
        #expect(try await delivery.deliver(F.record(headers: [("pushgate-dry-run", "true")])))
        #expect(sender.requests.isEmpty)
        #expect(receipts.receipts.map(\.outcome) == [.dryRun, .dryRun])
        #expect(receipts.receipts.allSatisfy { $0.attempts == 0 })
    }

    @Test func aBroadcastIsOnePushWhateverTheDirectoryHolds() async throws {
        let receipts = InMemoryReceipts()
        let sender = ScriptedSender([:])
        let directory = InMemoryDirectory([F.device("d1")])
        let record = F.record(headers: [("apns-channel-id", "dHN0LXNyY2gtY2hubA==")])
        #expect(try await F.delivery(senders: [sender], directory: directory, receipts: receipts).deliver(record))
        #expect(sender.requests == ["broadcast"])
        let receipt = try #require(receipts.receipts.first)
        #expect(receipt.key == "dHN0LXNyY2gtY2hubA==" && receipt.device == nil && receipt.audience == nil)
        #expect(receipt.outcome == .delivered && receipt.app == "com.example.app")
    }

    @Test func aBroadcastWithoutABundleIDIsRejectedNoApp() async throws {
        let receipts = InMemoryReceipts()
        let sender = ScriptedSender([:])
        let delivery = F.delivery(
            senders: [sender], directory: InMemoryDirectory([]), receipts: receipts, bundleID: nil)
        #expect(try await delivery.deliver(F.record(headers: [("apns-channel-id", "c2")])))
        #expect(sender.requests.isEmpty)
        #expect(receipts.receipts.map(\.outcome) == [.rejected])
        #expect(receipts.receipts.first?.reason == "no_app" && receipts.receipts.first?.key == "c2")
    }

    @Test func aGoneDeviceIsMarkedAndGetsNothingMore() async throws {
        let directory = InMemoryDirectory([F.device("d1"), F.device("d2")])
        let sender = ScriptedSender([
            "d1": [.final(.gone, AnswerDetails(status: 410, reason: "Unregistered", goneSince: 1_234))]
        ])
        let receipts = InMemoryReceipts()
        let delivery = F.delivery(senders: [sender], directory: directory, receipts: receipts, selection: .failures)
        #expect(try await delivery.deliver(F.record(offset: 1)))
        #expect(directory.gone == ["d1"])
        #expect(receipts.receipts.map(\.outcome) == [.gone])
        #expect(receipts.receipts.first?.goneSince == 1_234 && receipts.receipts.first?.reason == "Unregistered")
        #expect(try await delivery.deliver(F.record(offset: 2)))
        #expect(sender.requests.filter { $0 == "d1" }.count == 1)
        #expect(sender.requests.filter { $0 == "d2" }.count == 2)
    }

    @Test func transientAnswersAreRetriedUntilAFinalOne() async throws {
        let sender = ScriptedSender([
            "d1": [
                .transient(AnswerDetails(status: 503, reason: "ServiceUnavailable"), retryAfter: nil),
                .transient(AnswerDetails(status: 429, reason: "TooManyRequests"), retryAfter: nil),
                .final(.delivered, AnswerDetails(status: 200)),
            ]
        ])
        let receipts = InMemoryReceipts()
        #expect(
            try await F.delivery(senders: [sender], directory: InMemoryDirectory([F.device("d1")]), receipts: receipts)
                .deliver(F.record()))
        #expect(sender.requests == ["d1", "d1", "d1"])
        #expect(receipts.receipts.map(\.outcome) == [.delivered])
        #expect(receipts.receipts.first?.attempts == 3)
    }

    @Test func retryAfterIsWaitedBeforeTheNextAttempt() async throws {
        let sender = ScriptedSender([
            "d1": [
                .transient(AnswerDetails(status: 429), retryAfter: .milliseconds(300)),
                .final(.delivered, AnswerDetails(status: 200)),
            ]
        ])
        let receipts = InMemoryReceipts()
        #expect(
            try await F.delivery(senders: [sender], directory: InMemoryDirectory([F.device("d1")]), receipts: receipts)
                .deliver(F.record()))
        let times = sender.times(of: "d1")
        #expect(times.count == 2)
        #expect(times[1] - times[0] >= .milliseconds(300))
    }

    @Test func anExpirationOfZeroIsOneAttempt() async throws {
        let sender = ScriptedSender([
            "d1": [.transient(AnswerDetails(status: 503, reason: "Shutdown"), retryAfter: nil)]
        ])
        let receipts = InMemoryReceipts()
        #expect(
            try await F.delivery(senders: [sender], directory: InMemoryDirectory([F.device("d1")]), receipts: receipts)
                .deliver(F.record(headers: [("apns-expiration", "0")])))
        #expect(sender.requests == ["d1"])
        let receipt = try #require(receipts.receipts.first)
        #expect(receipt.outcome == .expired && receipt.status == 503 && receipt.reason == "Shutdown")
        #expect(receipt.attempts == 1)
    }

    @Test func aSendersOwnRefusalCountsNoRequest() async throws {
        let sender = ScriptedSender(["d1": [.final(.rejected, AnswerDetails(reason: "endpoint_not_allowed"))]])
        let receipts = InMemoryReceipts()
        #expect(
            try await F.delivery(senders: [sender], directory: InMemoryDirectory([F.device("d1")]), receipts: receipts)
                .deliver(F.record()))
        let receipt = try #require(receipts.receipts.first)
        #expect(receipt.outcome == .rejected && receipt.reason == "endpoint_not_allowed")
        #expect(receipt.attempts == 0 && receipt.status == nil)
    }

    @Test func aRecordPastItsExpiryIsExpiredWithoutARequest() async throws {
        let sender = ScriptedSender([:])
        let receipts = InMemoryReceipts()
        let delivery = F.delivery(
            senders: [sender], directory: InMemoryDirectory([F.device("d1")]), receipts: receipts,
            now: { 1_700_000_000_000 })
        #expect(try await delivery.deliver(F.record(headers: [("apns-expiration", "1600000000")])))
        #expect(sender.requests.isEmpty)
        #expect(receipts.receipts.map(\.outcome) == [.expired])
        #expect(receipts.receipts.first?.attempts == 0 && receipts.receipts.first?.status == nil)
    }

    @Test func transientAnswersPastGiveUpAfterAreExpired() async throws {
        let sender = ScriptedSender(["d1": [.transient(AnswerDetails(status: 500), retryAfter: nil)]])
        let receipts = InMemoryReceipts()
        var policy = F.fastPolicy
        policy.giveUpAfter = .milliseconds(60)
        let started = ContinuousClock.now
        #expect(
            try await F.delivery(
                senders: [sender], directory: InMemoryDirectory([F.device("d1")]), receipts: receipts, policy: policy
            ).deliver(F.record()))
        #expect(ContinuousClock.now - started >= .milliseconds(60))
        #expect(receipts.receipts.map(\.outcome) == [.expired])
        #expect((receipts.receipts.first?.attempts ?? 0) >= 1)
        #expect(receipts.receipts.first?.status == 500)
    }

    /// A device without `app` is sent with the app its sender chooses (the only FCM project or VAPID key); its
    /// receipt names that app (SPEC 10.7: `app` when known).
    @Test func aReceiptNamesTheAppTheSenderChose() async throws {
        struct OnlyProjectSender: PushSender {
            var platform: Platform { .fcm }
            func pauseScope(of push: DevicePush) -> String? { push.device?.app ?? "only-project" }
            func send(_ push: DevicePush) async -> PushAnswer {
                .final(.rejected, AnswerDetails(status: 400, reason: "INVALID_ARGUMENT"))
            }
        }
        let device = { (id: String, app: String?) in
            Device(id: id, audience: "user-1", app: app, address: .fcm(token: "t-\(id)"))
        }
        let receipts = InMemoryReceipts()
        let delivery = F.delivery(
            senders: [OnlyProjectSender()],
            directory: InMemoryDirectory([device("without", nil), device("with", "named-project")]), receipts: receipts)
        #expect(try await delivery.deliver(F.record(format: .fcm)))
        let apps = Dictionary(uniqueKeysWithValues: receipts.receipts.map { ($0.device ?? "", $0.app) })
        #expect(apps == ["without": "only-project", "with": "named-project"])
    }

    @Test func receiptsFollowTheSelection() async throws {
        let directory = InMemoryDirectory([F.device("d1"), F.device("d2")])
        let script: [String: [PushAnswer]] = ["d2": [.final(.rejected, AnswerDetails(status: 400, reason: "BadTopic"))]]
        for (selection, expected) in [(ReceiptSelection.failures, 1), (.all, 2), (.none, 0)] {
            let receipts = InMemoryReceipts()
            let delivery = F.delivery(
                senders: [ScriptedSender(script)], directory: directory, receipts: receipts, selection: selection)
            #expect(try await delivery.deliver(F.record()))
            #expect(receipts.receipts.count == expected)
        }
    }

    @Test func requestsOfAPlatformNeverExceedItsInFlightBound() async throws {
        let devices = (0..<20).map { F.device("d\($0)") }
        let gate = Gate()
        let counting = ConcurrencyCountingSender(gate: gate)
        let delivery = F.delivery(
            senders: [counting], directory: InMemoryDirectory(devices), receipts: InMemoryReceipts(),
            maxInFlightRequests: 3)
        async let done = delivery.deliver(F.record())
        try await waitUntil { counting.current == 3 }
        // Given time, no fourth request starts while three wait.
        try await Task.sleep(for: .milliseconds(100))
        #expect(counting.current == 3)
        gate.open()
        #expect(try await done)
        #expect(counting.highest == 3 && counting.total == 20)
    }
}
