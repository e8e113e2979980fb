import Foundation

/// The built `pushgate` executable, for tests that run it as users do.
public enum PushgateBinary {
    /// The `pushgate` beside the test bundle (what `swift build` made for these tests), else
    /// `.build/debug/pushgate`; `nil` when neither is there.
    public static var path: String? {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("pushgate")
        return [beside.path, ".build/debug/pushgate"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
