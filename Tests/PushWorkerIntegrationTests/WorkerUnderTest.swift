import Logging
import PushWorker
import PushgateKafka
import PushgateTestSupport
import ServiceLifecycle

/// One `PushWorker` in a service group, running until ``stop()`` or until it stops on its own.
struct WorkerUnderTest {
    let group: String
    let bootstrap: String
    private let services: ServiceGroup
    private let running: Task<Void, any Error>

    /// Starts a worker with `configuration`.
    init(configuration: PushWorkerConfiguration, logger: Logger, health: WorkerHealth = WorkerHealth()) {
        self.group = configuration.groupId
        self.bootstrap = configuration.bootstrapServers
        let services = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(
                        service: PushWorker(configuration: configuration, logger: logger, health: health),
                        successTerminationBehavior: .gracefullyShutdownGroup)
                ],
                logger: WorkerTestSupport.logger))
        self.services = services
        self.running = Task { try await services.run() }
    }

    /// Starts a worker of `group` (a new group by default) on `broker`, logging into `log`, with one
    /// produce request in flight, that waits at most `revokeDrainTimeout` for a revoked partition's
    /// records in flight.
    init(
        broker: EmbeddedBroker, log: CapturedLog, group: String = "worker-\(UInt32.random(in: 0...UInt32.max))",
        revokeDrainTimeout: Duration = .seconds(1)
    ) {
        let configuration = PushWorkerConfiguration(
            bootstrapServers: broker.bootstrapServers, groupId: group,
            kafkaProperties: WorkerTestSupport.quickGroup.merging(WorkerTestSupport.producerFaultSafe) { $1 },
            maxInFlightRecords: 100, commitInterval: .milliseconds(200), revokeDrainTimeout: revokeDrainTimeout)
        self.init(configuration: configuration, logger: Logger(label: "worker-under-test") { log.handler(label: $0) })
    }

    /// Waits until the group's committed offsets of the input topic are `expected` (60 s at most), and
    /// returns the last offsets read.
    func waitForCommit(of expected: [String: Int64]) async throws -> [String: Int64] {
        var committed: [String: Int64] = [:]
        for _ in 0..<60 {
            committed = try await PythonKafkaClient.committed(group: group, topic: "push.unified", bootstrap: bootstrap)
            if committed == expected { break }
            try await Task.sleep(for: .seconds(1))
        }
        return committed
    }

    /// Shuts the worker down gracefully; rethrows the failure if it had stopped on its own.
    func stop() async throws {
        await services.triggerGracefulShutdown()
        try await running.value
    }

    /// Waits for the worker to stop on its own; rethrows its failure.
    func waitUntilStopped() async throws {
        try await running.value
    }
}
