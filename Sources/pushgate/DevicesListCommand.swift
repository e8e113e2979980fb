import ArgumentParser
import PushDelivery
import PushWorker
import PushgateKafka
import PushgateSettings
import Synchronization

/// `pushgate devices remove ID..`: tombstones (SPEC 10.8).
struct DevicesRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove devices from the directory: a tombstone (null value) for each id.",
        discussion: "Exits 0 once the cluster has acknowledged every tombstone."
    )

    @OptionGroup var options: DevicesOptions

    @Argument(help: "The ids of the devices to remove.")
    var ids: [String]

    func validate() throws {
        try options.validateSettings()
        if let bad = ids.first(where: { !(1...DirectoryRecordParser.maximumIDBytes).contains($0.utf8.count) }) {
            throw ValidationError("'\(bad.prefix(40))': a device id is 1..512 UTF-8 bytes")
        }
    }

    func run() async throws {
        let settings = try await options.resolve()
        let logger = settings.bootstrapLogging(label: "pushgate.devices")
        let topic = options.devicesTopic
        try await DirectoryWriting.write(
            ids.map { KafkaProducerMessage(topic: topic, key: Array($0.utf8), value: [], valueIsNull: true) },
            settings: settings, logger: logger)
        StandardStreams.writeError("removed \(ids.count) device(s) from \(topic)\n")
    }
}

/// `pushgate devices list [--audience A]`: the current directory (SPEC 10.8).
struct DevicesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print the directory's devices as JSON Lines, {\"id\":DEVICE_ID, ...value}, sorted by id.",
        discussion: """
            Reads the whole directory topic as pushgate deliver does (every partition from its beginning, up to \
            the ends it has when the command starts) and prints each device's last value when it is valid, \
            its members as they were written. Removed devices and invalid values are not printed.
            """
    )

    @OptionGroup var options: DevicesOptions

    @Option(help: "Only the devices of this audience.")
    var audience: String?

    @Option(help: ArgumentHelp("How long to wait for the whole directory, in seconds.", valueName: "SECONDS"))
    var timeout = 60

    func validate() throws {
        try options.validateSettings()
        guard timeout > 0 else { throw ValidationError("--timeout must be at least 1") }
    }

    func run() async throws {
        let settings = try await options.resolve()
        let logger = settings.bootstrapLogging(label: "pushgate.devices")
        let topic = options.devicesTopic
        // The last value of each key; `nil` for a tombstone.
        let latest = Mutex<[[UInt8]: [UInt8]?]>([:])
        let reader = DirectoryReader(
            topic: topic, bootstrapServers: settings.worker.bootstrapServers,
            properties: settings.properties(for: .consumer), logger: logger
        ) { record in
            guard let key = record.key else { return }
            latest.withLock { $0[key] = .some(record.value) }
        }
        let reading = Task { try await reader.run() }
        let caughtUp = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await reader.waitUntilCaughtUp()
                return true
            }
            group.addTask { [timeout] in
                try? await Task.sleep(for: .seconds(timeout))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        reading.cancel()
        _ = try? await reading.value
        guard caughtUp else {
            StandardStreams.writeError("error: could not read the whole of \(topic) within \(timeout) s\n")
            throw ExitCode(1)
        }
        let parser = options.parser
        var lines: [(id: String, line: [UInt8])] = []
        for (key, value) in latest.withLock({ $0 }) {
            guard let value, case .device(let device) = parser.entry(key: key, value: value),
                audience == nil || device.audience == audience,
                let line = DirectoryLines.line(id: device.id, value: value)
            else { continue }
            lines.append((device.id, line))
        }
        for (_, line) in lines.sorted(by: { $0.id < $1.id }) {
            StandardStreams.writeLine(String(decoding: line, as: UTF8.self))
        }
    }
}
