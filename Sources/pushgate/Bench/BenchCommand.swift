import ArgumentParser

/// `pushgate bench`: throughput measurements, reported against a baseline measured in the same run.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure throughput against a baseline measured in the same run (not a test).",
        subcommands: [TranslateBenchCommand.self, PipelineBenchCommand.self, PipelineContenderCommand.self, BenchMixCommand.self]
    )
}
