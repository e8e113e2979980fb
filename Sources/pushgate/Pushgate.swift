import ArgumentParser

/// The `pushgate` command: translate unified push payloads into APNs, Adobe carousel, Facebook card,
/// Android expandable and FCM payloads, offline or as a Kafka worker.
@main
struct Pushgate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pushgate",
        abstract: "Translate unified push payloads into platform payloads, offline or as a Kafka stream worker.",
        subcommands: [
            RunCommand.self, BrokerCommand.self, TranslateCommand.self, ReplayCommand.self, PlaygroundCommand.self,
            ConsoleCommand.self, FormatsCommand.self, DeliverCommand.self, DevicesCommand.self,
        ]
    )
}
