import ArgumentParser
import Foundation
import Kafka
import Logging
import PushModel
import PushTranslation

/// What every measurement of one benchmark shares.
struct MeasureContext: Sendable {
    let servers: String
    let observer: KafkaConsumer
    let inputEnds: [Int32: Int64]
    let properties: [String: String]
    let logger: Logger
    /// The broker when the benchmark started it: its CPU time is read too.
    let broker: PipelineChildProcess?
}

extension PipelineBenchCommand {
    /// Starts `contender` in a process of its own, observes the broker until its outputs are all written
    /// and its input all committed, reads its CPU time and peak RSS, and stops it with SIGTERM.
    func measure(
        _ contender: Contender, run: Int, expectedOutputs: Int, context: MeasureContext
    ) async throws -> Measurement {
        let groupId = "bench-\(contender.rawValue)-\(run)"
        let flags = context.properties.sorted { $0.key < $1.key }.flatMap { ["-X", "\($0.key)=\($0.value)"] }
        let arguments: [String] =
            switch contender {
            case .worker:
                ["run", "--bootstrap-servers", context.servers, "--group-id", groupId, "--input-topic", Self.inputTopic,
                 "--max-in-flight", String(maxInFlight), "--log-level", "error"] + flags
            case .passthrough, .raw, .floor:
                ["bench", "contender", contender.rawValue, "--bootstrap-servers", context.servers, "--group-id", groupId,
                 "--input-topic", Self.inputTopic, "--output-topic", contender.outputTopics[0],
                 "--max-in-flight", String(maxInFlight)] + flags
            }
        // Reads the group's committed offsets without joining it.
        let progress = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                bootstrapServers: context.servers, groupId: groupId, topics: [], properties: context.properties,
                pollTimeoutMs: Self.observerPollMs),
            logger: context.logger)
        let child: PipelineChildProcess
        do {
            child = try PipelineChildProcess(arguments: arguments, captureOutput: false)
        } catch {
            await progress.close()
            throw error
        }
        do {
            var measurement = try await observe(
                child, progress: progress, context: context, outputTopics: contender.outputTopics,
                expectedOutputs: expectedOutputs)
            let status = await child.terminate()
            await progress.close()
            guard status == 0 else {
                throw ValidationError("\(contender.rawValue) exited with \(status.map(String.init) ?? "SIGKILL") after SIGTERM")
            }
            measurement.outputs = try await outputCount(context.observer, topics: contender.outputTopics, since: measurement.countsBefore)
            return measurement
        } catch {
            child.forceStop()
            await progress.close()
            throw error
        }
    }

    /// Polls the broker until `child`'s outputs are all written and its input all committed.
    private func observe(
        _ child: PipelineChildProcess, progress: KafkaConsumer, context: MeasureContext, outputTopics: [String],
        expectedOutputs: Int
    ) async throws -> Measurement {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        let before = try await Self.recordCounts(context.observer, topics: outputTopics)
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
                throw ValidationError("not done after \(timeout) s: \(written) of \(expectedOutputs) outputs written")
            }
            guard child.isRunning else { throw ValidationError("the contender exited before finishing (see its log)") }
            try await Task.sleep(for: .milliseconds(pollMs))
            if writtenAt == nil {
                written = try await outputCount(context.observer, topics: outputTopics, since: before)
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
                        windowCPUSeconds: cpu - cpuAtStart, peakResidentBytes: child.peakResidentBytes() ?? 0,
                        brokerWindowCPUSeconds: brokerWindowCPU, machineCoresBusy: machineCores, countsBefore: before)
                }
                lastPoll = now
            } else {
                lastPoll = clock.now
            }
        }
    }

    /// Records written to `topics` since `before`.
    private func outputCount(_ observer: KafkaConsumer, topics: [String], since before: [String: Int64]) async throws -> Int {
        let counts = try await Self.recordCounts(observer, topics: topics)
        return topics.reduce(0) { $0 + Int((counts[$1] ?? 0) - (before[$1] ?? 0)) }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// What a run compares.
enum Contender: String, CaseIterable, ExpressibleByArgument {
    case worker, passthrough, raw, floor

    /// The topics the baselines write to, created by the benchmark's broker.
    static let passthroughTopics = ["bench.passthrough", "bench.raw"]

    /// Where the contender writes.
    var outputTopics: [String] {
        switch self {
        case .worker, .floor:
            let translator = TranslatorConfiguration()
            return OutputFormat.allCases.map { translator.topic(for: $0) } + [translator.deadLetterTopic]
        case .passthrough: return ["bench.passthrough"]
        case .raw: return ["bench.raw"]
        }
    }
}
