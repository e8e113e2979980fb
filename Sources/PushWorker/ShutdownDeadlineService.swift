import Foundation
import Logging
import ServiceLifecycle

/// The last guarantee of SPEC 7's bound: once graceful shutdown (SIGTERM, SIGINT) begins, the process
/// exits with status 0 after `timeout` at the latest, whatever is still waiting then.
///
/// The worker shares the timeout out among its steps (``PushWorkerConfiguration/shutdownTimeout``) and
/// normally ends first; this is for a call that no deadline reaches (a librdkafka handle's destruction,
/// a thread blocked in the C library). What is not committed by then is read again by the next member.
/// List it last in the service group, so that it hears of the shutdown first.
public struct ShutdownDeadlineService: Service {
    private let timeout: Duration
    private let logger: Logger

    /// Creates the service; `timeout` is counted from the start of graceful shutdown.
    public init(timeout: Duration, logger: Logger) {
        self.timeout = timeout
        self.logger = logger
    }

    /// Waits for graceful shutdown, then starts a thread that ends the process at the deadline, and
    /// returns. Does nothing when the group is cancelled instead (a failure: the exit status is not 0).
    public func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            return
        }
        let (timeout, logger) = (self.timeout, self.logger)
        let thread = Thread {
            Thread.sleep(forTimeInterval: Double(timeout / .milliseconds(1)) / 1000)
            logger.warning(
                "shutdown timeout (\(timeout)) reached: exiting without waiting for the cluster; what was not committed is read again by the next member"
            )
            fflush(nil)
            // _exit: no atexit handler (OpenSSL's, the C++ runtime's) runs while librdkafka threads still do.
            _exit(0)
        }
        thread.name = "shutdown-deadline"
        thread.start()
    }
}
