import ArgumentParser
import Foundation
import Kafka
import Logging
import PushModel
import PushTranslation

/// `pushgate bench pipeline`: end-to-end input records/s and CPU per input record of the worker that
/// `pushgate run` starts, against two baselines through the same broker on the same data in the same
/// run: pushgate's safe passthrough (no translation) and a raw librdkafka consume → produce.
struct PipelineBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline",
        abstract: "End-to-end records/s and CPU per record of the worker against a safe and a raw passthrough.",
        discussion: """
            Starts `pushgate broker` as a subprocess (or uses --bootstrap-servers), writes the benchmark payload \
            mix (keys user-N, one header) once into its input topic, then, in each run, reads it from the \
            beginning with a fresh consumer group, once per contender, each in a process of its own:
              worker       `pushgate run` (translation, at-least-once commits, in-flight bound, per-key order)
              passthrough  the worker's pipeline without translation: each record unchanged to one topic
              raw          librdkafka consume -> produce: auto commit, no in-flight bound, no delivery reports
              floor        the passthrough writing the worker's outputs of each input, translated once at start: \
            the worker's Kafka traffic with translation free, about the most the worker could reach here
            The order rotates between runs. A raw pass first warms the broker up (shown, not counted).

            The clock starts when the first output record is on the broker (the ~3 s group join is not \
            timed). "written" is when every expected output is on the broker; "committed" when the group's \
            committed offsets reach the end of the input. CPU is the contender process's user + system time \
            from its start to "committed" (librdkafka's threads included), divided by the input records; peak \
            RSS is its VmHWM. Both are read from /proc. From the first output to the last, the broker's CPU \
            per input record (when the benchmark started it) and the machine's busy cores (/proc/stat, every \
            process) are shown too: near the core count, the machine sets the pace.

            The embedded broker keeps about 5 MiB per partition: keep --records x ~560 bytes under 4 MiB per \
            input partition (1,000,000 records: --partitions 256).
            """
    )

    @Option(help: "Input records (payloads of the mix).")
    var records = 100_000

    @Option(help: "Partitions of every topic of the embedded broker.")
    var partitions = 32

    @Option(help: "Runs; the table reports each and the median.")
    var runs = 3

    @Option(help: ArgumentHelp("Contenders to run (repeatable): worker, passthrough, raw, floor.", valueName: "NAME"))
    var contender: [Contender] = Contender.allCases

    @Option(help: "Most input records in flight of the worker and the passthrough (`pushgate run --max-in-flight`).")
    var maxInFlight = 4000

    @Option(help: "Use this broker instead of starting one; it must have the topics bench.input, bench.passthrough, bench.raw and the worker's.")
    var bootstrapServers: String?

    @Option(help: "How often the broker is polled for progress, in milliseconds.")
    var pollMs = 25

    @Option(help: "Seconds each contender may take before the benchmark gives up.")
    var timeout = 300

    @Option(name: .customShort("X"), help: ArgumentHelp("A librdkafka property for every client (repeatable).", valueName: "KEY=VALUE"))
    var kafkaProperties: [String] = []

    static let inputTopic = "bench.input"

    func validate() throws {
        guard records >= 1 else { throw ValidationError("--records must be at least 1") }
        guard (1...10_000).contains(partitions) else { throw ValidationError("--partitions must be 1...10000") }
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight must be at least 1") }
        guard pollMs >= 1, timeout >= 1 else { throw ValidationError("--poll-ms and --timeout must be positive") }
        for entry in kafkaProperties { _ = try KeyValueOption.split(entry, option: "-X") }
    }

    func run() async throws {
        var logger = Logger(label: "pushgate.bench")
        logger.logLevel = .error
        var properties: [String: String] = [:]
        for entry in kafkaProperties {
            let (key, value) = try KeyValueOption.split(entry, option: "-X")
            properties[key] = value
        }
        let translator = TranslatorConfiguration()
        let contenders = Array(Set(contender)).sorted { $0.rawValue < $1.rawValue }

        var broker: PipelineChildProcess?
        let servers: String
        if let bootstrapServers {
            servers = bootstrapServers
        } else {
            let child = try PipelineChildProcess(
                arguments: ["broker", "--partitions", String(partitions), "--input-topic", Self.inputTopic]
                    + Contender.passthroughTopics.flatMap { ["--extra-topic", $0] },
                captureOutput: true)
            broker = child
            do {
                servers = try await child.firstLine()
            } catch {
                child.forceStop()
                throw error
            }
        }
        defer { broker?.forceStop() }

        let observer = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                bootstrapServers: servers, groupId: "bench-observer", topics: [], properties: properties,
                pollTimeoutMs: Self.observerPollMs),
            logger: logger)
        do {
            try await benchmark(
                contenders, servers: servers, broker: broker, observer: observer, translator: translator,
                properties: properties, logger: logger)
        } catch {
            await observer.close()
            throw error
        }
        await observer.close()
        if let broker { _ = await broker.terminate(timeout: .seconds(10)) }
    }

    private func benchmark(
        _ contenders: [Contender], servers: String, broker: PipelineChildProcess?, observer: KafkaConsumer,
        translator: TranslatorConfiguration, properties: [String: String], logger: Logger
    ) async throws {
        let before = try await observer.watermarks(topic: Self.inputTopic).mapValues(\.high).values.reduce(0, +)
        guard before == 0 else { throw ValidationError("\(Self.inputTopic) is not empty: use a fresh broker") }
        let input = try await Self.produceInput(
            count: records, topic: Self.inputTopic, translator: translator, bootstrapServers: servers,
            properties: properties, logger: logger)
        let inputEnds = try await observer.watermarks(topic: Self.inputTopic).mapValues(\.high)
        let written = inputEnds.values.reduce(0, +)
        guard written == Int64(records) else {
            throw ValidationError("the input topic holds \(written) records, not \(records): the broker dropped some (raise --partitions)")
        }
        let perPartition = Double(input.bytes) / Double(max(inputEnds.count, 1)) / 1_048_576
        print("""
            pushgate bench pipeline: \(records) records (\(input.bytes / records) bytes on average, \
            \(String(format: "%.1f", perPartition)) MiB per input partition), \(inputEnds.count) partitions, \
            broker \(bootstrapServers ?? "`pushgate broker` subprocess")
            worker: \(input.expectedOutputs) outputs expected (\(String(format: "%.2f", Double(input.expectedOutputs) / Double(records))) per input), \
            max in flight \(maxInFlight), commits every 500 ms; \(ProcessInfo.processInfo.activeProcessorCount) cores
            clock: from the first output on the broker (group join excluded) to the last ("written") and to all input offsets committed
            cpu: the contender process from its start to all committed, librdkafka's threads included, per input record
            broker: the broker process from the first output to the last, per input record; machine cores: cores busy (all processes) over that window
            """)
        print("")
        print(Measurement.header)

        let floorOutputs = FloorOutputs(configuration: translator, inputTopic: Self.inputTopic).expectedOutputs(records: records)
        let context = MeasureContext(
            servers: servers, observer: observer, inputEnds: inputEnds, properties: properties, logger: logger,
            broker: broker)
        // The first pass over freshly written input is slower for whichever contender makes it (the
        // broker's first reads of the data, measured up to 4x): one raw pass first, shown, not counted.
        let warmUp = try await measure(.raw, run: 0, expectedOutputs: records, context: context)
        print(warmUp.row("warm", .raw) + "  (warm-up, not counted)")
        var results: [Contender: [Measurement]] = [:]
        for run in 1...runs {
            let rotation = (run - 1) % contenders.count
            for contender in Array(contenders[rotation...] + contenders[..<rotation]) {
                let expected =
                    switch contender {
                    case .worker: input.expectedOutputs
                    case .floor: floorOutputs
                    case .passthrough, .raw: records
                    }
                let measurement = try await measure(contender, run: run, expectedOutputs: expected, context: context)
                results[contender, default: []].append(measurement)
                print(measurement.row(String(run), contender))
                if measurement.outputs != expected {
                    print("     note: \(measurement.outputs) outputs written, \(expected) expected (more: records read twice, at least once)")
                }
            }
        }
        let medians = results.mapValues(Measurement.median)
        if runs > 1 {
            for contender in contenders { if let median = medians[contender] { print(median.row("med", contender)) } }
        }
        print("")
        if let raw = medians[.raw] {
            let comparisons: [(String, Contender, String)] = [
                ("worker", .worker, "(target >= 0.50)"), ("passthrough", .passthrough, "(target >= 0.80)"),
                ("floor", .floor, "(about the most the worker could reach)"),
            ]
            for (name, contender, target) in comparisons {
                guard let other = medians[contender] else { continue }
                print(String(
                    format: "ratio %@ / raw: %.2f input records/s written, %.2f committed %@", name,
                    other.writtenRecordsPerSecond / raw.writtenRecordsPerSecond, other.recordsPerSecond / raw.recordsPerSecond, target))
            }
        }
        if let worker = medians[.worker] {
            print(String(format: "worker cpu per input record: %.1f us (target <= 12); peak RSS %.0f MB (target <= 150)",
                         worker.cpuMicrosecondsPerRecord, Double(worker.peakResidentBytes) / 1e6))
            if let floor = medians[.floor] {
                let rest = worker.cpuMicrosecondsPerRecord - floor.cpuMicrosecondsPerRecord
                let floorCPU = floor.cpuMicrosecondsPerRecord
                print(rest >= 0
                    ? String(format: "of which writing the outputs (floor): %.1f us; translation and the worker's own work: %.1f us",
                             floorCPU, rest)
                    : String(format: "writing the outputs (floor) took %.1f us, %.1f us more than the whole worker "
                             + "(its pipeline hands records over differently)", floorCPU, -rest))
            }
        }
    }

    /// The poll timeout of the observing consumers: their queries run between two polls.
    static let observerPollMs: Int32 = 2
}
