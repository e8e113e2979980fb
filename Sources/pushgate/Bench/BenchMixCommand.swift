import ArgumentParser
import Foundation

/// `pushgate bench mix`: the benchmarks' payload mix (``PayloadMix``) as lines of JSON, so that a harness
/// outside the binary (`scripts/pipeline_ab.py`) writes exactly the payloads `bench translate` and `bench
/// pipeline` use, instead of a copy of the mix in its own language.
struct BenchMixCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mix",
        abstract: "Print the benchmarks' payload mix, one JSON payload per line.",
        discussion: """
            The same deterministic mix as bench translate and bench pipeline: payload N of any count is \
            the same, kinds by share (55% alerts, 25% with actions, 8% carousels, 7% cards, 5% invalid).
            """
    )

    @Option(help: "How many payloads.")
    var count = 2000

    func validate() throws {
        guard count >= 0 else { throw ValidationError("--count must be 0 or more") }
    }

    func run() throws {
        var chunk = Data()
        chunk.reserveCapacity(1 << 20)
        for payload in PayloadMix.payloads(count: count) {
            chunk.append(contentsOf: payload.bytes)
            chunk.append(UInt8(ascii: "\n"))
            if chunk.count >= 1 << 20 {
                FileHandle.standardOutput.write(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        FileHandle.standardOutput.write(chunk)
    }
}
