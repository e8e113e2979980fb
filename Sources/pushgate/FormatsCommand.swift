import ArgumentParser
import PushModel

/// `pushgate formats`: the output formats this binary writes, for the scripts, harnesses and pages that
/// need the list (docs/architecture.md, "Adding an output format").
struct FormatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formats",
        abstract: "Print the output formats as JSON: name, default topic, platform and own headers of each.",
        discussion: """
            One object per format, in the order one input yields its records: \
            {"name":"apns","topic":"push.apns","platform":"ios","headers":["apns-push-type",..]}. \
            The dead-letter topic is not a format.
            """
    )

    func run() {
        print(OutputFormat.catalogueJSON)
    }
}
