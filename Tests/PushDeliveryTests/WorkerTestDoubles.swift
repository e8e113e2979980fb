import Logging
import PushDelivery
import PushModel
import Synchronization

/// A directory held in memory, with `gone` marks as SPEC 10.2 step 1 says.
final class InMemoryDirectory: DeviceLookup {
    private let state: Mutex<(devices: [Device], gone: Set<String>)>

    init(_ devices: [Device]) { state = Mutex((devices, [])) }

    func devices(audience: String, platform: Platform) -> [Device] {
        state.withLock { state in
            state.devices.filter { $0.audience == audience && $0.platform == platform && !state.gone.contains($0.id) }
        }
    }

    func markGone(device: Device) { _ = state.withLock { $0.gone.insert(device.id) } }

    var gone: Set<String> { state.withLock { $0.gone } }
}

/// A sender that answers from a script: per device id (or `broadcast`), the answers in order, the last
/// one repeated; a device may wait at a gate before its answer. Records every push it is given.
final class ScriptedSender: PushSender {
    let platform: Platform
    private let script: Mutex<[String: [PushAnswer]]>
    private let sent = Mutex<[(device: String, at: ContinuousClock.Instant)]>([])
    private let gates: [String: Gate]

    init(platform: Platform = .apns, _ script: [String: [PushAnswer]], gates: [String: Gate] = [:]) {
        self.platform = platform
        self.script = Mutex(script)
        self.gates = gates
    }

    func send(_ push: DevicePush) async -> PushAnswer {
        let name = push.device?.id ?? "broadcast"
        sent.withLock { $0.append((name, .now)) }
        if let gate = gates[name] { await gate.wait() }
        return script.withLock { script in
            guard var answers = script[name], let first = answers.first else {
                return .final(.delivered, AnswerDetails(status: 200))
            }
            if answers.count > 1 {
                answers.removeFirst()
                script[name] = answers
            }
            return first
        }
    }

    /// The device ids (or `broadcast`) of every push sent, in order.
    var requests: [String] { sent.withLock { $0.map(\.device) } }
    /// When each push to `device` was sent.
    func times(of device: String) -> [ContinuousClock.Instant] {
        sent.withLock { $0.filter { $0.device == device }.map(\.at) }
    }
}

/// Opens once; waiters before and after pass.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if open { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Receipts kept in memory, in the order written.
final class InMemoryReceipts: ReceiptWriter {
    private let written = Mutex<[Receipt]>([])
    func write(_ receipt: Receipt) async throws { written.withLock { $0.append(receipt) } }
    var receipts: [Receipt] { written.withLock { $0 } }
}

enum WorkerFixtures {
    static func device(_ id: String, audience: String = "user-1", app: String? = nil) -> Device {
        Device(
            id: id, audience: audience, app: app,
            address: .apns(token: String(repeating: "ab", count: 32), environment: .production))
    }

    static func record(
        offset: Int64 = 0, key: String? = "user-1", format: OutputFormat = .apns, headers: [(String, String)] = []
    ) -> DeliveredRecord {
        let base: [(String, String)] = [
            ("pushgate-id", "id-\(offset)"), ("pushgate-format", format.rawValue),
            ("pushgate-source", "push.unified:0:\(offset)"),
        ]
        return DeliveredRecord(
            topic: format.defaultTopic, partition: 0, offset: offset, key: key, value: Array(#"{"aps":{}}"#.utf8),
            headers: (base + headers).map { (name: $0.0, value: Array($0.1.utf8)) }, timestampMilliseconds: 1_000,
            format: format)
    }

    /// A policy of millisecond back-offs, no jitter.
    static let fastPolicy = RetryPolicy(
        initialDelay: .milliseconds(1), maximumDelay: .milliseconds(8), randomFactor: { _ in 1 })

    static func delivery(
        senders: [any PushSender], directory: any DeviceLookup, receipts: any ReceiptWriter,
        selection: ReceiptSelection = .all, bundleID: String? = "com.example.app",
        policy: RetryPolicy = fastPolicy, maxInFlightRequests: Int = 1000, pauses: CredentialPauses? = nil,
        now: @escaping @Sendable () -> Int64 = { 2_000 }
    ) -> RecordDelivery {
        let metrics = DeliveryMetrics()
        return RecordDelivery(
            attempts: PushAttempts(
                senders: senders, maxInFlightRequests: maxInFlightRequests,
                pauses: pauses ?? CredentialPauses(policy: policy, logger: Logger(label: "test")), policy: policy,
                metrics: metrics, wallClock: now),
            directory: directory, receipts: receipts, selection: selection, bundleID: bundleID, metrics: metrics,
            logger: Logger(label: "test"))
    }
}

/// A sender whose pushes wait at a gate, counting how many are in flight at once.
final class ConcurrencyCountingSender: PushSender {
    let platform = Platform.apns
    private let gate: Gate
    private let counts = Mutex<(current: Int, highest: Int, total: Int)>((0, 0, 0))

    init(gate: Gate) { self.gate = gate }

    func send(_ push: DevicePush) async -> PushAnswer {
        counts.withLock { counts in
            counts.current += 1
            counts.total += 1
            counts.highest = max(counts.highest, counts.current)
        }
        await gate.wait()
        counts.withLock { $0.current -= 1 }
        return .final(.delivered, AnswerDetails(status: 200))
    }

    var current: Int { counts.withLock { $0.current } }
    var highest: Int { counts.withLock { $0.highest } }
    var total: Int { counts.withLock { $0.total } }
}
