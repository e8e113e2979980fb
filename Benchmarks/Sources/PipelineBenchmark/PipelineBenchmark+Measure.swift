import BenchProcess
import Foundation
import Logging
import PushModel
import PushTranslation
import PushgateKafka

/// How each contender is started.
struct ContenderCommands: Sendable {
    let pushgate: String
    let cProgram: String
    let servers: String
    let inputTopic: String
    let recordsPath: String
    let maxInFlight: Int
    let properties: [String: String]
    let translator: TranslatorConfiguration
    /// librdkafka's mock cluster: pushgate run keeps one produce request in flight there, and so does
    /// librdkafka-c.
    let isMock: Bool
    /// The `OTEL_*` variables of ``Contender/tracedWorker``.
    let tracedEnvironment: [String: String]

    /// The executable and arguments of `contender` in the consumer group `groupId`.
    func command(_ contender: Contender, groupId: String) -> (String, [String]) {
        switch contender {
        case .worker, .tracedWorker:
            let flags = properties.sorted { $0.key < $1.key }.flatMap { ["-X", "\($0.key)=\($0.value)"] }
            return (
                pushgate,
                [
                    "run", "--bootstrap-servers", servers, "--group-id", groupId, "--input-topic", inputTopic,
                    "--max-in-flight", String(maxInFlight), "--log-level", "error",
                ] + flags
            )
        case .librdkafkaC:
            let producer = producerProperties.flatMap { ["-P", "\($0.0)=\($0.1)"] }
            let consumer = consumerProperties(groupId: groupId).flatMap { ["-C", "\($0.0)=\($0.1)"] }
            return (
                cProgram,
                [
                    "--records", recordsPath, "--input-topic", inputTopic, "--max-in-flight", String(maxInFlight),
                ] + producer + consumer
            )
        }
    }

    /// The worker's producer settings, in the order the worker applies them: the Kafka binding's
    /// defaults, the worker's own (`PushWorkerConfiguration.producerDefaults`: Java-compatible key
    /// hashing, a record size limit that fits a dead letter of the largest accepted payload, a 20 ms linger), `-X`, one
    /// produce request in flight on the mock unless `-X` set the limit
    /// (`PushWorkerConfiguration.keepOneProduceRequestInFlight()`), then the enforced idempotence and
    /// `acks=all`.
    var producerProperties: [(String, String)] {
        var result = KafkaProducerConfiguration.defaultProperties.sorted { $0.key < $1.key }
        result.append(("bootstrap.servers", servers))
        result += [
            ("partitioner", "murmur2_random"),
            ("message.max.bytes", String(max(1_000_000, translator.maxPayloadBytes + 256 * 1024))),
            ("linger.ms", "20"),
        ]
        let given = PipelineBenchmark.scoped(properties, to: "producer")
        result += given.sorted { $0.key < $1.key }.filter {
            KafkaProducerConfiguration.enforcedProperties[$0.key] == nil
        }
        if isMock,
            !given.keys.contains(where: { ["max.in.flight", "max.in.flight.requests.per.connection"].contains($0) })
        {
            result.append(("max.in.flight.requests.per.connection", "1"))
        }
        result += KafkaProducerConfiguration.enforcedProperties.sorted { $0.key < $1.key }
        return result
    }

    /// The worker's consumer settings (the Kafka binding's defaults, `-X`), with librdkafka committing
    /// the stored offsets every 500 ms (the worker commits what it finished every 500 ms itself).
    func consumerProperties(groupId: String) -> [(String, String)] {
        var result = KafkaConsumerConfiguration.defaultProperties.sorted { $0.key < $1.key }
        result += [("bootstrap.servers", servers), ("group.id", groupId)]
        let enforced = ["enable.auto.commit", "enable.auto.offset.store", "auto.commit.interval.ms"]
        result += PipelineBenchmark.scoped(properties, to: "consumer").sorted { $0.key < $1.key }.filter {
            !enforced.contains($0.key)
        }
        result += [
            ("enable.auto.offset.store", "false"), ("enable.auto.commit", "true"), ("auto.commit.interval.ms", "500"),
        ]
        return result
    }
}

/// What every measurement of one benchmark shares.
struct MeasureContext: Sendable {
    let servers: String
    let observer: KafkaConsumer
    let inputEnds: [Int32: Int64]
    let properties: [String: String]
    let logger: Logger
    /// The broker when the benchmark started it: its CPU time is read too.
    let broker: ChildProcess?
    let contenders: ContenderCommands
}

extension PipelineBenchmark {
    /// The worker's output topics, which both contenders write.
    static var outputTopics: [String] {
        let translator = TranslatorConfiguration()
        return OutputFormat.allCases.map { translator.topic(for: $0) } + [translator.deadLetterTopic]
    }

    /// Starts `contender` in a process of its own, observes the broker until its outputs are all written
    /// and its input all committed, reads its CPU time and peak RSS, and stops it with SIGTERM.
    func measure(
        _ contender: Contender, run: Int, expectedOutputs: Int, context: MeasureContext
    ) async throws -> Measurement {
        let groupId = "bench-\(contender.rawValue)-\(run)"
        let (executable, arguments) = context.contenders.command(contender, groupId: groupId)
        // Reads the group's committed offsets without joining it.
        let progress = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                bootstrapServers: context.servers, groupId: groupId, topics: [],
                properties: Self.scoped(context.properties, to: "consumer"),
                pollTimeoutMs: Self.observerPollMs),
            logger: context.logger)
        let child: ChildProcess
        let startEnds: [KafkaTopicPartition: Int64]
        do {
            startEnds = verify ? try await OutputDigest.ends(context.observer, topics: Self.outputTopics) : [:]
            child = try ChildProcess(
                executable, arguments: arguments, captureOutput: contender == .librdkafkaC,
                environment: contender == .tracedWorker ? context.contenders.tracedEnvironment : [:])
        } catch {
            await progress.close()
            throw error
        }
        do {
            // librdkafka-c is measured from the end of loading its records ("ready").
            var cpuAtReady = 0.0
            var residentAtReady = 0
            if contender == .librdkafkaC {
                _ = try await child.nextLine()
                cpuAtReady = child.cpuSeconds() ?? .nan
                residentAtReady = child.memoryBytes("VmRSS") ?? 0
            }
            var measurement = try await observe(
                child, progress: progress, context: context, expectedOutputs: expectedOutputs)
            measurement.cpuSeconds -= cpuAtReady
            measurement.peakResidentBytes -= residentAtReady
            let status = await child.terminate()
            await progress.close()
            guard status == 0 else {
                throw BenchmarkError(
                    "\(contender.rawValue) exited with \(status.map(String.init) ?? "SIGKILL") after SIGTERM")
            }
            measurement.outputs = try await outputCount(context.observer, since: measurement.countsBefore)
            if verify {
                measurement.digest = try await OutputDigest.read(
                    from: startEnds, to: try await OutputDigest.ends(context.observer, topics: Self.outputTopics),
                    servers: context.servers, properties: context.properties, logger: context.logger)
            }
            return measurement
        } catch {
            child.forceStop()
            await progress.close()
            throw error
        }
    }

    /// Polls the broker until `child`'s outputs are all written and its input all committed.
    private func observe(
        _ child: ChildProcess, progress: KafkaConsumer, context: MeasureContext, expectedOutputs: Int
    ) async throws -> Measurement {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        let before = try await Self.recordCounts(context.observer, topics: Self.outputTopics)
        // Each event happened between the last poll that did not see it and the first that did: the
        // midpoint of the two is taken.
        var lastPoll = clock.now
        var start: ContinuousClock.Instant?
        var cpuAtStart = 0.0
        // The broker's CPU time and the machine's, from the first output to the last (the written window).
        var brokerCPUAtStart = Double.nan
        var brokerWindowCPU = Double.nan
        var machineAtStart: MachineCPU?
        var machineCores = Double.nan
        var writtenAt: ContinuousClock.Instant?
        var written = 0
        while true {
            if clock.now > deadline {
                throw BenchmarkError("not done after \(timeout) s: \(written) of \(expectedOutputs) outputs written")
            }
            guard child.isRunning else {
                throw BenchmarkError("\(child.name) exited before finishing (see its errors above)")
            }
            try await Task.sleep(for: .milliseconds(pollMs))
            if writtenAt == nil {
                written = try await outputCount(context.observer, since: before)
                let now = clock.now
                if start == nil, written > 0 {
                    start = lastPoll + (now - lastPoll) / 2
                    cpuAtStart = child.cpuSeconds() ?? .nan
                    brokerCPUAtStart = context.broker?.cpuSeconds() ?? .nan
                    machineAtStart = MachineCPU.now()
                }
                if written >= expectedOutputs {
                    writtenAt = lastPoll + (now - lastPoll) / 2
                    brokerWindowCPU = (context.broker?.cpuSeconds() ?? .nan) - brokerCPUAtStart
                    machineCores = MachineCPU.coresBusy(from: machineAtStart, to: MachineCPU.now())
                }
            }
            if let start, let writtenAt {
                let committed = try await progress.committedOffsets(topic: Self.inputTopic)
                let now = clock.now
                if context.inputEnds.allSatisfy({ (committed[$0.key] ?? nil) == $0.value }) {
                    let end = lastPoll + (now - lastPoll) / 2
                    let cpu = child.cpuSeconds() ?? .nan
                    return Measurement(
                        records: records, outputs: written, seconds: Self.seconds(end - start),
                        writtenSeconds: Self.seconds(writtenAt - start), cpuSeconds: cpu,
                        windowCPUSeconds: cpu - cpuAtStart, peakResidentBytes: child.memoryBytes("VmHWM") ?? 0,
                        brokerWindowCPUSeconds: brokerWindowCPU, machineCoresBusy: machineCores, countsBefore: before)
                }
                lastPoll = now
            } else {
                lastPoll = clock.now
            }
        }
    }

    /// Records written to the output topics since `before`.
    private func outputCount(_ observer: KafkaConsumer, since before: [String: Int64]) async throws -> Int {
        let counts = try await Self.recordCounts(observer, topics: Self.outputTopics)
        return Self.outputTopics.reduce(0) { $0 + Int((counts[$1] ?? 0) - (before[$1] ?? 0)) }
    }

    /// How many records each of `topics` has received: the sum of its partitions' end offsets, asked
    /// with one ListOffsets request per topic (the "latest" timestamp, -1, which the embedded broker
    /// answers), where ``KafkaConsumer/watermarks(topic:timeoutMs:)`` sends one per partition.
    static func recordCounts(_ observer: KafkaConsumer, topics: [String]) async throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for topic in topics {
            let ends = try await observer.offsets(topic: topic, atOrAfter: -1)
            guard ends.values.allSatisfy({ $0 != nil }) else {
                throw BenchmarkError("the broker did not report the end offsets of \(topic)")
            }
            result[topic] = ends.values.reduce(0) { $0 + ($1 ?? 0) }
        }
        return result
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
