import ArgumentParser
import Foundation
import Logging
import PushDelivery
import PushWorker
import PushgateKafka
import PushgateSettings
import Synchronization

/// `pushgate devices put [FILE]`: registers devices, all or none (SPEC 10.8).
struct DevicesPutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put",
        abstract: "Write devices to the directory: one {\"id\":DEVICE_ID, ...value} per line, all or none.",
        discussion: """
            Reads JSON Lines from FILE, or standard input without one (empty lines are skipped). Each line is \
            checked as pushgate deliver checks a directory value; when one breaks a rule, nothing is written \
            and the command exits 1 naming the line and the rule. Otherwise each line is written with its id \
            as key and the rest of the object, as given, as value, and the command exits 0 once the cluster \
            has acknowledged every record.
            """
    )

    @OptionGroup var options: DevicesOptions

    @Argument(help: "A JSON Lines file (default: standard input).")
    var file: String?

    func validate() throws { try options.validateSettings() }

    func run() async throws {
        let settings = try await options.resolve()
        let logger = settings.bootstrapLogging(label: "pushgate.devices")
        let file = self.file
        let text = try await DedicatedThread.run(name: "devices-input") { () throws -> [UInt8] in
            if let file {
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw ValidationError("cannot read \(file)")
                }
                return Array(data)
            }
            return Array(FileHandle.standardInput.readDataToEndOfFile())
        }
        let parser = options.parser
        var registrations: [DirectoryLines.Registration] = []
        for (index, line) in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            switch DirectoryLines.registration(Array(line), parser: parser) {
            case .success(let registration): registrations.append(registration)
            case .failure(let violation):
                StandardStreams.writeError("line \(index + 1): \(violation); nothing written\n")
                throw ExitCode(1)
            }
        }
        let topic = options.devicesTopic
        try await DirectoryWriting.write(
            registrations.map { KafkaProducerMessage(topic: topic, key: Array($0.id.utf8), value: $0.value) },
            settings: settings, logger: logger)
        StandardStreams.writeError("wrote \(registrations.count) device(s) to \(topic)\n")
    }
}

/// Writes directory records and waits for the cluster's acknowledgements.
enum DirectoryWriting {
    /// Writes `records` with an idempotent producer and returns once every one is acknowledged; exits 1
    /// naming the first failure.
    static func write(_ records: [KafkaProducerMessage], settings: RunSettings, logger: Logger) async throws {
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                bootstrapServers: settings.worker.bootstrapServers, properties: settings.properties(for: .producer)),
            logger: logger)
        let firstFailure = Mutex<KafkaError?>(nil)
        do {
            for record in records {
                try await producer.produceWhenQueued(record) { result in
                    if case .failure(let error) = result { firstFailure.withLock { $0 = $0 ?? error } }
                }
            }
            try await producer.flush(timeout: .seconds(60))
        } catch {
            firstFailure.withLock { $0 = $0 ?? (error as? KafkaError) ?? KafkaError(code: -1, message: "\(error)") }
        }
        await producer.shutdown(flushTimeout: .seconds(1))
        if let failure = firstFailure.withLock({ $0 }) {
            StandardStreams.writeError("error: cannot write to \(records.first?.topic ?? "the topic"): \(failure)\n")
            throw ExitCode(1)
        }
    }
}
