import PushgateSettings
import Testing

/// Durations (`--shutdown-timeout`): a whole number with a unit, a bare number being seconds; a value
/// that is not one, or is out of range, is refused naming the setting as its source spells it.
@Suite("Duration settings: units, bad values and bounds")
struct DurationSettingTests {
    @Test(arguments: [
        ("500ms", Duration.milliseconds(500)), ("100ms", .milliseconds(100)), ("30s", .seconds(30)),
        ("2m", .seconds(120)), ("1h", .seconds(3600)), ("45", .seconds(45)), ("0045s", .seconds(45)),
        ("1500ms", .milliseconds(1500)), ("60m", .seconds(3600)),
    ])
    func aWholeNumberWithAUnitIsRead(text: String, duration: Duration) throws {
        #expect(try Settings.shutdownTimeout.parser.read(text, name: "--shutdown-timeout") == duration)
    }

    @Test(arguments: [
        "s", "ms", "1.5s", "-5s", "+5s", "5 s", "30sec", "30S", "5d", "1m30s", "0x10s", "\u{FF15}s", "5s5",
        "9999999999999999999s", "9223372036854775807h",
    ])
    func anythingElseIsRefusedNamingTheSetting(text: String) {
        #expect(
            settingFailure { try resolve(flags: ["--shutdown-timeout=\(text)"]) }
                == "--shutdown-timeout must be a duration (a whole number with ms, s, m or h; seconds without), "
                + "not '\(text)'")
    }

    @Test(arguments: [("99ms", "99ms"), ("0", "0s"), ("3601s", "3601s"), ("61m", "61m"), ("7200000ms", "2h")])
    func aDurationOutOfRangeIsRefusedWrittenInItsLargestUnit(text: String, written: String) {
        #expect(
            settingFailure { try resolve(flags: ["--shutdown-timeout=\(text)"]) }
                == "--shutdown-timeout must be at least 100ms and at most 1h, not \(written)")
    }

    @Test func eachSourceIsNamedAsItIsSpelled() {
        #expect(
            settingFailure { try resolve(environment: ["PUSHGATE_SHUTDOWN_TIMEOUT": "soon"]) }
                == "PUSHGATE_SHUTDOWN_TIMEOUT must be a duration (a whole number with ms, s, m or h; seconds without), "
                + "not 'soon'")
        #expect(
            settingFailure { try resolve(file: "shutdown-timeout: 2h\n") }
                == "shutdown-timeout in pushgate.yaml must be at least 100ms and at most 1h, not 2h")
    }

    @Test func flagsWinOverTheVariableWhichWinsOverTheFileWhichWinsOverTheDefault() throws {
        #expect(try resolve().worker.shutdownTimeout == .seconds(30))
        #expect(try resolve(file: "shutdown-timeout: 45\n").worker.shutdownTimeout == .seconds(45))
        let fromVariable = try resolve(
            environment: ["PUSHGATE_SHUTDOWN_TIMEOUT": " 20s "], file: "shutdown-timeout: 45s\n")
        #expect(fromVariable.worker.shutdownTimeout == .seconds(20))
        let fromFlag = try resolve(
            flags: ["--shutdown-timeout", "750ms"], environment: ["PUSHGATE_SHUTDOWN_TIMEOUT": "20s"],
            file: "shutdown-timeout: 45s\n")
        #expect(fromFlag.worker.shutdownTimeout == .milliseconds(750))
    }

    @Test func theDefaultIsDocumentedInItsLargestUnit() {
        #expect(Settings.shutdownTimeout.parser.describe(.seconds(30)) == "`30s`")
        #expect(Settings.shutdownTimeout.parser.describe(.milliseconds(1500)) == "`1500ms`")
        #expect(Settings.shutdownTimeout.parser.describe(.seconds(120)) == "`2m`")
    }
}
