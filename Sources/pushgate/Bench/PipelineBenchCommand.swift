import ArgumentParser
import Foundation
import Kafka
import Logging
import PushModel
import PushTranslation
import PushWorker
import ServiceLifecycle

/// `pushgate bench pipeline`: end-to-end records/s of the worker that `pushgate run` starts, against a
/// consume → produce passthrough with no translation, through one embedded broker, on the same data in
/// the same run.
struct PipelineBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline",
        abstract: "End-to-end records/s of the worker against a no-translation passthrough, through an embedded broker.",
        discussion: """
            Writes the benchmark payload mix (keys user-N) once into an input topic of an in-process embedded \
            broker, then, in each run, reads it from the beginning with a fresh consumer group twice: with \
            pushgate's worker (PushWorker, what `pushgate run` runs) and with a passthrough that writes each \
            record unchanged to one topic with the same producer settings (idempotent, acks=all), in-flight \
            bound and commit discipline. The order alternates between runs.

            The clock starts when the first output record is on the broker (so the ~3 s group join of the \
            embedded broker is not timed) and stops when the group's committed offsets reach the end of the \
            input: every record done at least once. "written" is when the last output record is on the \
            broker, before the final commit. Progress is observed by polling the broker from this process, \
            the same polls for both contenders.

            The embedded broker keeps about 5 MiB per partition: keep --records × ~550 bytes under 4 MiB per \
            input partition.
            """
    )

    @Option(help: "Input records (payloads of the mix).")
    var records = 40_000

    @Option(help: "Partitions of every topic.")
    var partitions = 8

    @Option(help: "Runs; the table reports each and the median.")
    var runs = 3

    @Option(help: "Most input records in flight, read but not all acknowledged (as `pushgate run --max-in-flight`).")
    var maxInFlight = 1000

    @Option(help: "How often finished offsets are committed, in milliseconds (`pushgate run` commits every 500 ms).")
    var commitIntervalMs = 500

    @Option(help: "How often the broker is polled for progress, in milliseconds.")
    var pollMs = 25

    @Option(help: "Seconds each contender may take before the benchmark gives up.")
    var timeout = 120

    @Option(name: .customShort("X"), help: ArgumentHelp("A librdkafka property for every client (repeatable).", valueName: "KEY=VALUE"))
    var kafkaProperties: [String] = []

    @Option(help: "Log level of the contenders: trace, ..., warning (one line per dead letter), error, critical.")
    var logLevel = "error"

    func validate() throws {
        guard records >= 1 else { throw ValidationError("--records must be at least 1") }
        guard partitions >= 1 else { throw ValidationError("--partitions must be at least 1") }
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight must be at least 1") }
        guard commitIntervalMs >= 1, pollMs >= 1, timeout >= 1 else {
            throw ValidationError("--commit-interval-ms, --poll-ms and --timeout must be positive")
        }
        guard Logger.Level(rawValue: logLevel.lowercased()) != nil else { throw ValidationError("unknown log level '\(logLevel)'") }
        for entry in kafkaProperties { _ = try KeyValueOption.split(entry, option: "-X") }
    }

    func run() async throws {
        var logger = Logger(label: "pushgate.bench")
        logger.logLevel = Logger.Level(rawValue: logLevel.lowercased()) ?? .warning
        var properties: [String: String] = [:]
        for entry in kafkaProperties {
            let (key, value) = try KeyValueOption.split(entry, option: "-X")
            properties[key] = value
        }

        let inputTopic = "bench.input"
        let passthroughTopic = "bench.passthrough"
        let translator = TranslatorConfiguration()
        let workerTopics = OutputFormat.allCases.map { translator.topic(for: $0) } + [translator.deadLetterTopic]
        let observedTopics = workerTopics + [passthroughTopic]

        let input = Self.inputRecords(count: records, topic: inputTopic)
        let inputBytes = input.reduce(0) { $0 + $1.value.count }
        let perPartition = Double(inputBytes) / Double(partitions) / 1_048_576
        if perPartition > 4 {
            print(String(format: "warning: %.1f MiB per input partition; the embedded broker keeps ~5 MiB: lower --records or raise --partitions", perPartition))
        }
        let expectedOutputs = Self.expectedOutputs(input, translator: translator)

        let broker = try EmbeddedBroker(topics: [inputTopic] + observedTopics, partitions: partitions, logger: logger)
        defer { broker.shutdown() }
        var settings = PushWorkerConfiguration(
            bootstrapServers: broker.bootstrapServers, inputTopic: inputTopic, translator: translator,
            kafkaProperties: properties, maxInFlightRecords: maxInFlight, commitInterval: .milliseconds(commitIntervalMs))
        settings.groupId = "bench"

        let observer = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                bootstrapServers: broker.bootstrapServers, groupId: "bench-observer", topics: [], properties: properties,
                pollTimeoutMs: Self.observerPollMs),
            logger: logger)
        let inputEnds: [Int32: Int64]
        do {
            try await Self.produceInput(input, bootstrapServers: broker.bootstrapServers, properties: properties, logger: logger)
            inputEnds = try await observer.watermarks(topic: inputTopic).mapValues(\.high)
        } catch {
            await observer.close()
            throw error
        }
        let written = inputEnds.values.reduce(0, +)
        guard written == Int64(records) else {
            await observer.close()
            throw ValidationError("the input topic holds \(written) records, not \(records): the embedded broker dropped some (lower --records)")
        }

        print("""
            pushgate bench pipeline: \(records) records (\(inputBytes / records) bytes on average, \
            \(String(format: "%.1f", perPartition)) MiB per partition), \(partitions) partitions, embedded broker in-process
            worker: \(expectedOutputs) output records expected (\(String(format: "%.2f", Double(expectedOutputs) / Double(records))) per input); \
            max in flight \(maxInFlight), commit every \(commitIntervalMs) ms; \(ProcessInfo.processInfo.activeProcessorCount) cores
            clock: from the first output on the broker (group join excluded) to all input offsets committed ("written": last output on the broker)
            """)
        print("")
        print("run  contender     records  written s  committed s   records/s  outputs/s  cpu")

        var results: [Contender: [Measurement]] = [:]
        do {
            for run in 1...runs {
                let order: [Contender] = run % 2 == 1 ? [.passthrough, .pushgate] : [.pushgate, .passthrough]
                for contender in order {
                    var configuration = settings
                    configuration.groupId = "bench-\(contender.rawValue)-\(run)"
                    let service: any Service =
                        switch contender {
                        case .passthrough: Passthrough(configuration: configuration, outputTopic: passthroughTopic, logger: logger)
                        case .pushgate: PushWorker(configuration: configuration, logger: logger)
                        }
                    let measurement = try await measure(
                        service, groupId: configuration.groupId, bootstrapServers: broker.bootstrapServers, observer: observer, inputTopic: inputTopic,
                        inputEnds: inputEnds, observedTopics: observedTopics,
                        outputTopics: contender == .pushgate ? workerTopics : [passthroughTopic],
                        expectedOutputs: contender == .pushgate ? expectedOutputs : records,
                        properties: properties, logger: logger)
                    results[contender, default: []].append(measurement)
                    print(row(String(run), contender, measurement))
                    let expected = contender == .pushgate ? expectedOutputs : records
                    if measurement.outputs != expected {
                        print("     note: \(measurement.outputs) outputs written, \(expected) expected (more: records read twice, at least once)")
                    }
                }
            }
        } catch {
            await observer.close()
            throw error
        }
        await observer.close()

        let passthrough = Measurement.median(results[.passthrough] ?? [])
        let pushgate = Measurement.median(results[.pushgate] ?? [])
        if runs > 1 {
            print(row("med", .passthrough, passthrough))
            print(row("med", .pushgate, pushgate))
        }
        print("")
        print("cpu: the whole process (both clients, broker, observer) over the committed window; 100% = one core")
        print(String(format: "ratio pushgate / passthrough: %.2f (records/s to all committed), %.2f (records/s to all written); target >= 0.50",
                     pushgate.recordsPerSecond / passthrough.recordsPerSecond,
                     pushgate.writtenRecordsPerSecond / passthrough.writtenRecordsPerSecond))
    }

    // MARK: - One measurement

    /// The poll timeout of the observing consumers. Their queries run on their poll thread between two
    /// polls, so it bounds how late each query starts: short, as a 100 ms default made every watermark
    /// round (six topics) take 600 ms.
    private static let observerPollMs: Int32 = 2

    /// Runs `service` until its group has committed the whole input, observing the broker.
    private func measure(
        _ service: any Service, groupId: String, bootstrapServers: String, observer: KafkaConsumer, inputTopic: String,
        inputEnds: [Int32: Int64], observedTopics: [String], outputTopics: [String], expectedOutputs: Int,
        properties: [String: String], logger: Logger
    ) async throws -> Measurement {
        // Reads the group's committed offsets without joining it.
        let progress = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                bootstrapServers: bootstrapServers, groupId: groupId, topics: [], properties: properties,
                pollTimeoutMs: Self.observerPollMs),
            logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [service], logger: logger))
        let stopped = StopFlag()
        let running = Task { () -> (any Error)? in
            defer { stopped.set() }
            do {
                try await group.run()
                return nil
            } catch {
                return error
            }
        }
        let outcome: Result<Measurement, any Error>
        do {
            outcome = .success(try await observe(
                stopped, observer: observer, progress: progress, inputTopic: inputTopic, inputEnds: inputEnds,
                observedTopics: observedTopics, outputTopics: outputTopics, expectedOutputs: expectedOutputs))
        } catch {
            outcome = .failure(error)
        }
        await group.triggerGracefulShutdown()
        let failure = await running.value
        await progress.close()
        if let failure { throw failure }
        return try outcome.get()
    }

    /// Polls the broker until the run's outputs are all written and its input all committed.
    private func observe(
        _ stopped: StopFlag, observer: KafkaConsumer, progress: KafkaConsumer, inputTopic: String,
        inputEnds: [Int32: Int64], observedTopics: [String], outputTopics: [String], expectedOutputs: Int
    ) async throws -> Measurement {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        let before = try await Self.recordCounts(observer, topics: observedTopics)
        func outputs(_ counts: [String: Int64]) -> Int {
            outputTopics.reduce(0) { $0 + Int((counts[$1] ?? 0) - (before[$1] ?? 0)) }
        }
        // Each event happened between the last poll that did not see it and the first that did: the
        // midpoint of the two is taken.
        var lastPoll = clock.now
        var start: ContinuousClock.Instant?
        var cpuAtStart = 0.0
        var writtenAt: ContinuousClock.Instant?
        var written = 0
        while true {
            if clock.now > deadline {
                throw ValidationError("not done after \(timeout) s: \(written) of \(expectedOutputs) outputs written")
            }
            if stopped.isSet { throw ValidationError("the contender stopped before finishing (see its log)") }
            try await Task.sleep(for: .milliseconds(pollMs))
            if writtenAt == nil {
                written = outputs(try await Self.recordCounts(observer, topics: observedTopics))
                let now = clock.now
                if start == nil, written > 0 {
                    start = lastPoll + (now - lastPoll) / 2
                    cpuAtStart = Self.processCPUSeconds()
                }
                if written >= expectedOutputs { writtenAt = lastPoll + (now - lastPoll) / 2 }
            }
            if let start, let writtenAt {
                let committed = try await progress.committedOffsets(topic: inputTopic)
                let now = clock.now
                if inputEnds.allSatisfy({ (committed[$0.key] ?? nil) == $0.value }) {
                    let end = lastPoll + (now - lastPoll) / 2
                    let cpu = Self.processCPUSeconds() - cpuAtStart
                    // Outputs written again after a redelivery would show here (at least once).
                    let total = outputs(try await Self.recordCounts(observer, topics: observedTopics))
                    return Measurement(
                        records: records, outputs: total, seconds: Self.seconds(end - start),
                        writtenSeconds: Self.seconds(writtenAt - start), cpuSeconds: cpu)
                }
                lastPoll = now
            } else {
                lastPoll = clock.now
            }
        }
    }

    private func row(_ run: String, _ contender: Contender, _ measurement: Measurement) -> String {
        run.padding(toLength: 5, withPad: " ", startingAt: 0) + contender.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
            + String(format: "%10d  %9.3f  %11.3f  %10.0f  %9.0f  %3.0f%%",
                     records, measurement.writtenSeconds, measurement.seconds,
                     measurement.recordsPerSecond, measurement.outputsPerSecond, measurement.cpuPercent)
    }
}
