import Foundation

/// The whole machine's CPU time from `/proc/stat`: how busy every core was between two readings,
/// whoever kept it busy (contender, broker, the benchmark itself, the kernel).
struct MachineCPU {
    /// Ticks spent busy (neither idle nor waiting for I/O), summed over the cores.
    let busy: Double
    /// All ticks, summed over the cores.
    let total: Double

    /// The current reading; `nil` when `/proc/stat` cannot be read.
    static func now() -> MachineCPU? {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = stat.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return nil }
        let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        // user nice system idle iowait irq softirq steal ...
        guard ticks.count >= 5 else { return nil }
        let total = ticks.reduce(0, +)
        return MachineCPU(busy: total - ticks[3] - ticks[4], total: total)
    }

    /// Cores busy on average from `earlier` to this reading (NaN when no time passed or either is missing).
    static func coresBusy(from earlier: MachineCPU?, to later: MachineCPU?) -> Double {
        guard let earlier, let later, later.total > earlier.total else { return .nan }
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        return (later.busy - earlier.busy) / (later.total - earlier.total) * cores
    }
}
