import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// SIGTERM and SIGINT for a command from its first moment (SPEC 7: a shutdown ends within
/// `--shutdown-timeout`, even one that comes while the command starts).
///
/// While the command starts (reading its settings, checking the cluster, which may wait up to
/// `--connect-timeout`, starting an embedded broker), a signal ends the process at once with status 0:
/// nothing has been read yet, so nothing is left to finish or commit. Once ``handOver(to:)`` names the
/// service group, every signal starts the group's graceful shutdown instead.
///
/// This is the only handler of the two signals: the group is created without signals of its own, so that
/// none is lost between the two (the group registers its own only once it runs, and
/// `ServiceGroup.triggerGracefulShutdown()` is remembered even before then).
final class ShutdownSignals: Sendable {
    private enum Target {
        /// The command is starting; a signal ends it, logged to `logger` once there is one.
        case startup(logger: Logger?)
        /// The group runs, or is about to: a signal starts its graceful shutdown.
        case group(ServiceGroup, logger: Logger)
    }

    private let target = Mutex(Target.startup(logger: nil))
    private let watcher = Mutex<Task<Void, Never>?>(nil)

    private init() {}

    /// Traps SIGTERM and SIGINT; from when this returns, neither ends the process with its default action.
    static func trap() async -> ShutdownSignals {
        let signals = ShutdownSignals()
        let sequence = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let watcher = Task {
            for await signal in sequence { await signals.received(signal) }
        }
        signals.watcher.withLock { $0 = watcher }
        return signals
    }

    /// Where a signal during startup is logged, once logging is set up.
    func log(to logger: Logger) {
        target.withLock { target in
            if case .startup = target { target = .startup(logger: logger) }
        }
    }

    /// From now on, a signal starts `group`'s graceful shutdown.
    func handOver(to group: ServiceGroup, logger: Logger) {
        target.withLock { $0 = .group(group, logger: logger) }
    }

    /// Stops trapping (after the group has run).
    func stop() {
        watcher.withLock { $0?.cancel() }
    }

    private func received(_ signal: UnixSignal) async {
        switch target.withLock({ $0 }) {
        case .startup(let logger):
            let message = "\(signal) while starting: exiting before reading anything"
            if let logger {
                logger.notice("\(message)")
            } else {
                FileHandle.standardError.write(Data("pushgate: \(message)\n".utf8))
            }
            fflush(nil)
            // _exit: the startup may be inside a librdkafka call on a thread of its own (the cluster check),
            // which atexit handlers must not run under; nothing else is left to do.
            _exit(0)
        case .group(let group, let logger):
            logger.notice("\(signal): shutting down")
            await group.triggerGracefulShutdown()
        }
    }
}
