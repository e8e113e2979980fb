import ArgumentParser

/// What the pipeline benchmark compares, each in a process of its own.
enum Contender: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// `pushgate run`: translation, at-least-once commits, in-flight bound, per-key order.
    case worker
    /// The C program straight on librdkafka writing the worker's records, translated before the run.
    case librdkafkaC = "librdkafka-c"
    /// `pushgate run` with tracing on: the `--traced-env` variables (an OTLP endpoint, a sampler).
    case tracedWorker = "worker-traced"
}

/// One contender's run.
struct Measurement {
    var records: Int
    /// Output records written (more than expected only after a redelivery).
    var outputs: Int
    /// From the first output on the broker to the whole input committed.
    var seconds: Double
    /// From the first output on the broker to the last.
    var writtenSeconds: Double
    /// CPU time of the contender process from its start (librdkafka-c: from the end of loading its
    /// records) to the whole input committed.
    var cpuSeconds: Double
    /// CPU time of the contender process in the `seconds` window.
    var windowCPUSeconds: Double
    /// The contender's peak resident set size, less what it held when it started measuring (for
    /// librdkafka-c, its records), in bytes.
    var peakResidentBytes: Int
    /// CPU time of the broker process from the first output to the last (serving this contender and
    /// the benchmark's progress queries). NaN when the broker is not the benchmark's subprocess.
    var brokerWindowCPUSeconds: Double = .nan
    /// How many of the machine's cores were busy, whoever kept them so, from the first output to the
    /// last (`/proc/stat`): near the core count, the machine, not a wait, sets the contender's pace.
    var machineCoresBusy: Double = .nan
    /// Record counts of the output topics before the run.
    var countsBefore: [String: Int64] = [:]
    /// The records written, with `--verify`.
    var digest: OutputDigest?

    var recordsPerSecond: Double { Double(records) / seconds }
    var writtenRecordsPerSecond: Double { Double(records) / writtenSeconds }
    var outputsPerSecond: Double { Double(outputs) / writtenSeconds }
    var cpuMicrosecondsPerRecord: Double { cpuSeconds / Double(records) * 1e6 }
    var coresBusy: Double { windowCPUSeconds / seconds }
    /// The broker's CPU per input record while the outputs were written.
    var brokerMicrosecondsPerRecord: Double { brokerWindowCPUSeconds / Double(records) * 1e6 }

    static let header =
        "run  contender      written s  committed s  in rec/s (written)  outputs/s  cpu us/input  cores  peak RSS MB"
        + "  broker us/input  machine cores"

    func row(_ run: String, _ contender: Contender) -> String {
        run.padding(toLength: 5, withPad: " ", startingAt: 0)
            + contender.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)
            + String(
                format: "%10.3f  %11.3f  %18.0f  %9.0f  %12.2f  %5.2f  %11.0f",
                writtenSeconds, seconds, writtenRecordsPerSecond, outputsPerSecond, cpuMicrosecondsPerRecord,
                coresBusy, Double(peakResidentBytes) / 1e6)
            + String(format: "  %15.2f  %13.2f", brokerMicrosecondsPerRecord, machineCoresBusy)
    }

    /// The median of each figure (the lower middle for an even count).
    static func median(_ measurements: [Measurement]) -> Measurement {
        // Figures that could not be taken (NaN, or infinite over an empty window) are left out.
        func middle(_ values: [Double]) -> Double {
            let sorted = values.filter(\.isFinite).sorted()
            return sorted.isEmpty ? .nan : sorted[(sorted.count - 1) / 2]
        }
        let seconds = middle(measurements.map(\.seconds))
        return Measurement(
            records: measurements.first?.records ?? 0,
            outputs: Int(middle(measurements.map { Double($0.outputs) })),
            seconds: seconds, writtenSeconds: middle(measurements.map(\.writtenSeconds)),
            cpuSeconds: middle(measurements.map(\.cpuSeconds)),
            windowCPUSeconds: middle(measurements.map(\.coresBusy)) * seconds,
            peakResidentBytes: Int(middle(measurements.map { Double($0.peakResidentBytes) })),
            brokerWindowCPUSeconds: middle(measurements.map(\.brokerWindowCPUSeconds)),
            machineCoresBusy: middle(measurements.map(\.machineCoresBusy)))
    }
}
