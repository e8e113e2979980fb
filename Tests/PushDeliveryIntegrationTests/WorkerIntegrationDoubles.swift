import PushDelivery
import Synchronization

/// A directory held in memory (the directory's own reader is tested in its suites).
final class WorkerDirectory: DeviceLookup {
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

/// Answers 410 `Unregistered` for the devices of `gone`, 200 for the others, each after its gate opens.
final class WorkerScriptedSender: PushSender {
    let platform = Platform.apns
    private let gone: Set<String>
    private let gates: [String: WorkerGate]
    init(gone: Set<String>, gates: [String: WorkerGate]) {
        self.gone = gone
        self.gates = gates
    }
    func send(_ push: DevicePush) async -> PushAnswer {
        let id = push.device?.id ?? ""
        if let gate = gates[id] { await gate.wait() }
        if gone.contains(id) { return .final(.gone, AnswerDetails(status: 410, reason: "Unregistered")) }
        return .final(.delivered, AnswerDetails(status: 200))
    }
}

/// Opens once; waiters before and after pass.
final class WorkerGate: Sendable {
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
