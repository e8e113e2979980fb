import Foundation
import Synchronization

/// A dedicated thread that calls librdkafka's blocking functions, so they never run on Swift's
/// cooperative thread pool (one thread per core: a blocked poll there would freeze every task).
///
/// The thread alternates between running queued commands and calling `poll`, which should block for a
/// short time (tens of milliseconds) at most. Async code hands work over with ``run(_:)``.
///
/// Its queue of commands and its stop and exit flags are kept behind a mutex.
final class PollThread: Sendable {
    private struct State {
        var commands: [@Sendable () -> Void] = []
        var stopRequested = false
        var exited = false
        var exitWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let name: String
    private let poll: (@Sendable () -> Void)?
    /// Wakes a thread without `poll` when a command is queued or it is asked to stop.
    private let commandQueued = DispatchSemaphore(value: 0)
    /// Ends a `poll` that sleeps on something of its own, when a command is queued.
    private let interruptPoll: (@Sendable () -> Void)?

    /// Creates a thread named `name` that calls `poll` whenever it has no command to run; without
    /// `poll`, it sleeps until a command comes.
    /// - Parameter interruptPoll: makes a `poll` that is sleeping return soon, so that a command queued
    ///   meanwhile runs without waiting for the poll's timeout.
    init(name: String, poll: (@Sendable () -> Void)?, interruptPoll: (@Sendable () -> Void)? = nil) {
        self.name = name
        self.poll = poll
        self.interruptPoll = interruptPoll
    }

    /// Wakes the thread for a command just queued.
    private func wakeForCommand() {
        if poll == nil { commandQueued.signal() } else { interruptPoll?() }
    }

    func start() {
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.start()
    }

    /// Queues `command` to run on the thread after the current poll returns; `false` when the thread
    /// is stopping or has exited (the command is then dropped): once ``stop(after:)`` has queued its
    /// last command, which may destroy the librdkafka handle, nothing may run after it.
    @discardableResult
    func enqueue(_ command: @escaping @Sendable () -> Void) -> Bool {
        let queued = state.withLock { state in
            guard !state.exited && !state.stopRequested else { return false }
            state.commands.append(command)
            return true
        }
        if queued { wakeForCommand() }
        return queued
    }

    /// Runs `body` on the thread and returns its result to the calling task.
    func run<Result: Sendable>(_ body: @escaping @Sendable () throws(KafkaError) -> Result) async throws(KafkaError)
        -> Result
    {
        let outcome: Swift.Result<Result, KafkaError> = await withCheckedContinuation { continuation in
            let accepted = enqueue {
                do throws(KafkaError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            if !accepted {
                continuation.resume(returning: .failure(KafkaError.client("the Kafka client \(name) is shut down")))
            }
        }
        return try outcome.get()
    }

    /// Asks the thread to run the commands already queued, then `last` (which may destroy what `poll`
    /// uses: `poll` is not called again), and exit; returns once it has exited.
    func stop(after last: (@Sendable () -> Void)? = nil) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let exited = state.withLock { state in
                if state.exited { return true }
                if let last { state.commands.append(last) }
                state.stopRequested = true
                state.exitWaiters.append(continuation)
                return false
            }
            if exited {
                continuation.resume()
            } else {
                wakeForCommand()
            }
        }
    }

    private func loop() {
        while true {
            let (pending, stopping) = state.withLock { state in
                defer { state.commands.removeAll() }
                return (state.commands, state.stopRequested)
            }
            for command in pending { command() }
            if stopping && pending.isEmpty { break }
            if !stopping {
                if let poll {
                    poll()
                } else if pending.isEmpty {
                    _ = commandQueued.wait(timeout: .now() + .milliseconds(100))
                }
            }
        }
        let (waiters, late) = state.withLock { state in
            state.exited = true
            defer {
                state.exitWaiters.removeAll()
                state.commands.removeAll()
            }
            return (state.exitWaiters, state.commands)
        }
        // Commands queued while stopping still run, on this thread, so their continuations resume.
        for command in late { command() }
        for waiter in waiters { waiter.resume() }
    }
}
