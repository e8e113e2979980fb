import Foundation

/// The busiest thread of a process, from `/proc/PID/task/*/schedstat`: its CPU time and how long it waited
/// for a CPU while runnable (the kernel's run-queue delay). What is left of a period is time the thread slept.
struct ThreadTimes {
    /// The thread's name (`comm`).
    var name: String
    /// Seconds on a CPU.
    var cpu: Double
    /// Seconds runnable but waiting for a CPU.
    var waiting: Double

    /// The thread of `pid` with the most CPU time; `nil` when `/proc` cannot tell.
    static func busiest(of pid: Int32) -> ThreadTimes? {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
        return threads.compactMap { thread -> ThreadTimes? in
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8) else {
                return nil
            }
            let fields = stat.split(separator: " ").compactMap {
                Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            guard fields.count >= 2 else { return nil }
            let name = (try? String(contentsOfFile: "\(tasks)/\(thread)/comm", encoding: .utf8)) ?? thread
            return ThreadTimes(
                name: name.trimmingCharacters(in: .whitespacesAndNewlines), cpu: fields[0] / 1e9,
                waiting: fields[1] / 1e9)
        }.max { $0.cpu < $1.cpu }
    }
}
