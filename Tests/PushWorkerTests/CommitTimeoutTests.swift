import Testing

@testable import PushWorker

/// A commit in progress when a shutdown starts (periodic, or a revocation's) holds the consumer's poll
/// thread, which the last commit needs: every commit waits at most the shutdown's first share.
@Suite("Commits wait at most the shutdown's first share")
struct CommitTimeoutTests {
    @Test(arguments: [
        (Duration.seconds(30), Int32(10_000)), (.seconds(5), 2000), (.milliseconds(100), 40), (.seconds(3600), 10_000),
    ])
    func theCommitTimeoutIsTenSecondsOrLessForAShortShutdown(shutdownTimeout: Duration, commitTimeoutMs: Int32) {
        var configuration = PushWorkerConfiguration(bootstrapServers: "k:9092")
        configuration.shutdownTimeout = shutdownTimeout
        #expect(configuration.consumerConfiguration.commitTimeoutMs == commitTimeoutMs)
        #expect(configuration.revocationDrainTimeout == .milliseconds(commitTimeoutMs))
    }
}
