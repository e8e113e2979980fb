import ArgumentParser
import BenchProcess
import Foundation
import Logging
import PushModel
import PushTranslation
import PushgateKafka

/// `pipeline-benchmark`: CPU per input record and input records/s of `pushgate run` against
/// librdkafka-c, a C program straight on librdkafka that writes exactly the worker's records, through
/// the same broker on the same data in the same run.
@main
struct PipelineBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline-benchmark",
        abstract: "CPU per input record of pushgate's worker against librdkafka-c writing the same records.",
        discussion: """
            Starts `pushgate broker` as a subprocess (or uses --bootstrap-servers), writes the payload mix (keys \
            user-N, one header; a `traceparent` too with --input-traceparent) once into its input topic, reads it \
            back and translates each input once, as the worker will, into a file of the worker's records. Then, \
            in each run, each contender reads the input from the beginning with a fresh consumer group, in a \
            process of its own:
              worker        `pushgate run` (translation, at-least-once commits, in-flight bound, per-key order)
              librdkafka-c  C on librdkafka: the worker's records from the file, same topics, keys, headers and \
            values, the worker's producer settings, each input's headers read through librdkafka (the worker \
            forwards them), a delivery report per record, an input's offset stored once \
            its records and all earlier inputs of its partition are acknowledged (the transport's own price)
            The order rotates between runs; a librdkafka-c pass first warms the broker up (shown, not counted).

            The clock starts when the first output record is on the broker (the ~3 s group join is not timed). \
            "written" is when every expected output is on the broker; "committed" when the group's committed \
            offsets reach the end of the input. CPU is the contender's user + system time (librdkafka's threads \
            included) from its start (librdkafka-c: from the end of loading its records) to "committed", \
            divided by the input records; peak RSS is its VmHWM (librdkafka-c: less its loaded records). From \
            the first output to the last, the broker's CPU per input record (when the benchmark started it) and \
            the machine's busy cores (/proc/stat, every process) are shown too.

            The last line, for scripts: `pipeline: worker W us CPU per input, librdkafka-c C us, \
            worker/librdkafka-c R, medians M% and L% above the fastest runs` (medians; M and L say how far \
            each contender's median sat above its fastest run: large ones mark a run disturbed by other load). \
            The embedded broker keeps about 5 MiB per partition: keep \
            --records x ~560 bytes under 4 MiB per input partition.
            """
    )

    @Option(help: "The pushgate executable (its `broker` and `run`).")
    var pushgate = "../.build/release/pushgate"

    @Option(help: "The librdkafka-c executable (default: next to this one).")
    var librdkafkaC: String?

    @Option(help: "Input records (payloads of the mix).")
    var records = 100_000

    @Option(help: "Partitions of every topic of the embedded broker.")
    var partitions = 32

    /// Five by default: on a shared machine, the medians of three runs move too much.
    @Option(help: "Runs; the table reports each and the median.")
    var runs = 5

    @Option(
        help: ArgumentHelp(
            "Contenders to run (repeatable): worker, librdkafka-c, worker-traced (default: the first two; the third with --traced-env).",
            valueName: "NAME"))
    var contender: [Contender] = []

    @Option(
        help: ArgumentHelp(
            "An environment variable of worker-traced, `pushgate run` with tracing on (repeatable; e.g. OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318, OTEL_TRACES_SAMPLER_ARG=0.01). Adds worker-traced to the default contenders.",
            valueName: "NAME=VALUE"))
    var tracedEnv: [String] = []

    /// The contenders asked for, or the default ones.
    var chosenContenders: [Contender] {
        if !contender.isEmpty { return contender }
        return tracedEnv.isEmpty ? [.worker, .librdkafkaC] : Contender.allCases
    }

    /// `--traced-env` as a dictionary.
    func tracedEnvironment() throws -> [String: String] {
        var environment: [String: String] = [:]
        for entry in tracedEnv {
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else {
                throw ValidationError("--traced-env \(entry): not NAME=VALUE")
            }
            environment[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        return environment
    }

    @Option(
        help: ArgumentHelp(
            "Each input also carries a `traceparent`, as from a producer that traces, sampled on this share of them (1: all, 0.01: one in a hundred); by default inputs carry none.",
            valueName: "SHARE"))
    var inputTraceparent: Double?

    @Option(help: "Most input records in flight of both contenders (`pushgate run --max-in-flight`).")
    var maxInFlight = 4000

    @Option(help: "Use this broker instead of starting one; it must have the topic bench.input and the worker's.")
    var bootstrapServers: String?

    @Option(help: "How often the broker is polled for progress, in milliseconds.")
    var pollMs = 25

    @Option(help: "Seconds each contender may take before the benchmark gives up.")
    var timeout = 300

    @Flag(
        help:
            "Also check that the contenders write the same records (topic, partition, key, value, headers) in every run (reads them back after each)."
    )
    var verify = false

    @Option(
        name: .customShort("X"),
        help: ArgumentHelp(
            "A librdkafka property for both contenders (repeatable; producer. or consumer. prefix: that client only).",
            valueName: "KEY=VALUE"))
    var kafkaProperties: [String] = []

    static let inputTopic = "bench.input"

    func validate() throws {
        guard records >= 1 else { throw ValidationError("--records must be at least 1") }
        guard (1...10_000).contains(partitions) else { throw ValidationError("--partitions must be 1...10000") }
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        if let inputTraceparent, !(0...1).contains(inputTraceparent) {
            throw ValidationError("--input-traceparent must be 0...1")
        }
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight must be at least 1") }
        guard pollMs >= 1, timeout >= 1 else { throw ValidationError("--poll-ms and --timeout must be positive") }
        if chosenContenders.contains(.tracedWorker), try tracedEnvironment().isEmpty {
            throw ValidationError("worker-traced needs --traced-env (at least OTEL_EXPORTER_OTLP_ENDPOINT)")
        }
        _ = try properties()
    }

    /// The `-X` properties, by name.
    func properties() throws -> [String: String] {
        var properties: [String: String] = [:]
        for entry in kafkaProperties {
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else {
                throw ValidationError("-X \(entry): not KEY=VALUE")
            }
            properties[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        return properties
    }

    func run() async throws {
        var logger = Logger(label: "pipeline-benchmark")
        logger.logLevel = .error
        let properties = try properties()
        let cProgram =
            librdkafkaC
            ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("librdkafka-c").path
        for executable in [pushgate, cProgram] where !FileManager.default.isExecutableFile(atPath: executable) {
            throw BenchmarkError("no executable at \(executable) (build it first: make bench builds both)")
        }

        var broker: ChildProcess?
        let servers: String
        if let bootstrapServers {
            servers = bootstrapServers
        } else {
            let child = try ChildProcess(
                pushgate, arguments: ["broker", "--partitions", String(partitions), "--input-topic", Self.inputTopic],
                captureOutput: true)
            broker = child
            do {
                servers = try await child.nextLine()
            } catch {
                child.forceStop()
                throw error
            }
        }
        defer { broker?.forceStop() }
        let recordsPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("pipeline-benchmark-\(getpid()).records").path
        defer { try? FileManager.default.removeItem(atPath: recordsPath) }

        let observer = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                bootstrapServers: servers, groupId: "bench-observer", topics: [],
                properties: Self.scoped(properties, to: "consumer"),
                pollTimeoutMs: Self.observerPollMs),
            logger: logger)
        do {
            try await benchmark(
                servers: servers, broker: broker, observer: observer, recordsPath: recordsPath, cProgram: cProgram,
                properties: properties, logger: logger)
        } catch {
            await observer.close()
            throw error
        }
        await observer.close()
        if let broker { _ = await broker.terminate(timeout: .seconds(10)) }
    }

    private func benchmark(
        servers: String, broker: ChildProcess?, observer: KafkaConsumer, recordsPath: String, cProgram: String,
        properties: [String: String], logger: Logger
    ) async throws {
        let before = try await observer.watermarks(topic: Self.inputTopic).mapValues(\.high).values.reduce(0, +)
        guard before == 0 else { throw BenchmarkError("\(Self.inputTopic) is not empty: use a fresh broker") }
        let translator = TranslatorConfiguration()
        let input = try await PipelineInput.write(
            count: records, topic: Self.inputTopic, translator: translator, bootstrapServers: servers,
            properties: properties, recordsPath: recordsPath, traceparentShare: inputTraceparent, logger: logger)
        let inputEnds = try await observer.watermarks(topic: Self.inputTopic).mapValues(\.high)
        let written = inputEnds.values.reduce(0, +)
        guard written == Int64(records) else {
            throw BenchmarkError(
                "the input topic holds \(written) records, not \(records): the broker dropped some (raise --partitions)"
            )
        }
        let isMock: Bool
        if broker != nil {
            isMock = true
        } else {
            isMock = try await KafkaCluster.describe(
                bootstrapServers: servers, properties: Self.scoped(properties, to: "producer"), timeout: .seconds(10),
                logger: logger
            ).isLibrdkafkaMock
        }
        let contenders = ContenderCommands(
            pushgate: pushgate, cProgram: cProgram, servers: servers, inputTopic: Self.inputTopic,
            recordsPath: recordsPath, maxInFlight: maxInFlight, properties: properties, translator: translator,
            isMock: isMock, tracedEnvironment: try tracedEnvironment())
        let perPartition = Double(input.bytes) / Double(max(input.partitions, 1)) / 1_048_576
        if let inputTraceparent {
            print("inputs carry a traceparent, sampled on \(inputTraceparent) of them (--input-traceparent)")
        }
        print(
            """
            pipeline-benchmark: \(records) input records (\(input.bytes / records) bytes on average, \
            \(String(format: "%.1f", perPartition)) MiB per input partition), \(input.partitions) partitions, \
            broker \(bootstrapServers ?? "`pushgate broker` subprocess")\(isMock ? " (librdkafka's mock cluster: one produce request in flight, as pushgate run keeps there)" : "")
            both contenders write \(input.expectedOutputs) records (\(String(format: "%.2f", Double(input.expectedOutputs) / Double(records))) per input), \
            max in flight \(maxInFlight) inputs, commits every 500 ms; \(ProcessInfo.processInfo.activeProcessorCount) cores
            clock: from the first output on the broker (group join excluded) to the last ("written") and to all input offsets committed
            cpu: the contender process (librdkafka's threads included) to all committed, per input record; \
            worker from its start, librdkafka-c from the end of loading its records
            peak RSS: VmHWM (librdkafka-c: less the records it loaded before starting)
            broker: the broker process from the first output to the last, per input record; machine cores: cores busy (all processes) over that window
            """)
        print("")
        print(Measurement.header)

        let context = MeasureContext(
            servers: servers, observer: observer, inputEnds: inputEnds, properties: properties, logger: logger,
            broker: broker, contenders: contenders)
        // The first pass over freshly written input is slower for whichever contender makes it (the
        // broker's first reads of the data): one librdkafka-c pass first, shown, not counted.
        let warmUp = try await measure(.librdkafkaC, run: 0, expectedOutputs: input.expectedOutputs, context: context)
        print(warmUp.row("warm", .librdkafkaC) + "  (warm-up, not counted)")
        let order = Contender.allCases.filter(chosenContenders.contains)
        var results: [Contender: [Measurement]] = [:]
        for run in 1...runs {
            let rotation = (run - 1) % order.count
            for contender in Array(order[rotation...] + order[..<rotation]) {
                let measurement = try await measure(
                    contender, run: run, expectedOutputs: input.expectedOutputs, context: context)
                results[contender, default: []].append(measurement)
                print(measurement.row(String(run), contender))
                if measurement.outputs != input.expectedOutputs {
                    print(
                        "     note: \(measurement.outputs) outputs written, \(input.expectedOutputs) expected (more: records read twice, at least once)"
                    )
                }
            }
        }
        if verify {
            let digests = Set(([warmUp] + results.values.joined()).compactMap { $0.digest.map(\.description) })
            guard digests.count == 1, let digest = digests.first else {
                throw BenchmarkError("verify: the contenders wrote different records: \(digests.sorted())")
            }
            print("verify: every run of every contender wrote the same \(digest)")
        }
        let medians = results.mapValues(Measurement.median)
        if runs > 1 {
            for contender in order { if let median = medians[contender] { print(median.row("med", contender)) } }
        }
        print("")
        if let worker = medians[.worker], let traced = medians[.tracedWorker] {
            // Each run's worker and traced worker ran one after the other, under much the same other load.
            let runRatios = zip(results[.tracedWorker] ?? [], results[.worker] ?? []).map {
                String(format: "%.3f", $0.cpuMicrosecondsPerRecord / $1.cpuMicrosecondsPerRecord)
            }
            print(
                String(
                    format:
                        "tracing: worker-traced %.2f us CPU per input, worker %.2f us, worker-traced/worker %.3f (run by run: %@)",
                    traced.cpuMicrosecondsPerRecord, worker.cpuMicrosecondsPerRecord,
                    traced.cpuMicrosecondsPerRecord / worker.cpuMicrosecondsPerRecord, runRatios.joined(separator: ", ")
                ))
        }
        guard let worker = medians[.worker], let c = medians[.librdkafkaC] else { return }
        let ratio = worker.cpuMicrosecondsPerRecord / c.cpuMicrosecondsPerRecord
        // Each run's two contenders ran one after the other, under much the same other load.
        let runRatios = zip(results[.worker] ?? [], results[.librdkafkaC] ?? []).map {
            String(format: "%.2f", $0.cpuMicrosecondsPerRecord / $1.cpuMicrosecondsPerRecord)
        }
        print(
            String(
                format:
                    "worker / librdkafka-c: %.2f of the CPU per input (run by run: %@; %.2f with each one's broker share); %.2f of the input records/s written, %.2f committed",
                ratio, runRatios.joined(separator: ", "),
                (worker.cpuMicrosecondsPerRecord + worker.brokerMicrosecondsPerRecord)
                    / (c.cpuMicrosecondsPerRecord + c.brokerMicrosecondsPerRecord),
                worker.writtenRecordsPerSecond / c.writtenRecordsPerSecond, worker.recordsPerSecond / c.recordsPerSecond
            ))
        print(
            String(
                format:
                    "pipeline: worker %.2f us CPU per input, librdkafka-c %.2f us, worker/librdkafka-c %.2f, medians %d%% and %d%% above the fastest runs",
                worker.cpuMicrosecondsPerRecord, c.cpuMicrosecondsPerRecord, ratio,
                Self.percentAboveFastest(worker, of: results[.worker] ?? []),
                Self.percentAboveFastest(c, of: results[.librdkafkaC] ?? [])))
    }

    /// How far `median`'s CPU per input sits above the lowest of `runs`, in whole percent: a few percent on a
    /// quiet machine, more when other load disturbed the run.
    static func percentAboveFastest(_ median: Measurement, of runs: [Measurement]) -> Int {
        guard let fastest = runs.map(\.cpuMicrosecondsPerRecord).min(), fastest > 0 else { return 0 }
        return Int((100 * (median.cpuMicrosecondsPerRecord / fastest - 1)).rounded())
    }

    /// The properties of `client` (`producer` or `consumer`) among `properties`: prefixed ones without
    /// their prefix, unprefixed ones for both.
    static func scoped(_ properties: [String: String], to client: String) -> [String: String] {
        let other = client == "producer" ? "consumer." : "producer."
        var result: [String: String] = [:]
        for (key, value) in properties.sorted(by: { $0.key < $1.key }) where !key.hasPrefix(other) {
            if key.hasPrefix(client + ".") {
                result[String(key.dropFirst(client.count + 1))] = value
            } else if result[key] == nil {
                result[key] = value
            }
        }
        return result
    }

    /// The poll timeout of the observing consumers: their queries run between two polls.
    static let observerPollMs: Int32 = 2
}
