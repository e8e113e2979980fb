import Foundation
import Operations
import PushModel
import PushWorker
import Testing

@Suite("One definition per setting: names, default, parser, doc")
struct SettingsDefinitionTests {
    func resolve(flags: [SettingKey: String?] = [:], environment: [String: String] = [:], file: String? = nil) throws -> RunSettings {
        var sources = [try SettingSource.flags(flags), try SettingSource.environment(EnvironmentSettings(environment))]
        if let file { sources.append(try ConfigFile.parse(file, path: "pushgate.yaml")) }
        return try RunSettings.resolve(sources)
    }

    /// docs/configuration.md's settings table is ``Settings/markdownTable``, the one made from the definitions.
    @Test func theConfigurationPageTableIsTheDefinitionsTable() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/configuration.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "| option | environment | file key | default |"))
        let table = lines[start...].prefix { $0.hasPrefix("|") }.joined(separator: "\n")
        #expect(
            table == Settings.markdownTable,
            "docs/configuration.md's settings table differs from Settings; paste Settings.markdownTable:\n\(Settings.markdownTable)")
    }

    @Test func everySettingKeyHasExactlyOneDefinition() {
        let defined = Settings.all.map(\.key)
        #expect(defined.count == Set(defined).count)
        #expect(Set(defined) == Set(SettingKey.allCases))
        for setting in Settings.all {
            #expect(!setting.summary.isEmpty && !setting.defaultDescription.isEmpty, "\(setting.key)")
        }
    }

    @Test func helpTextsSayTheDefault() {
        #expect(Settings.groupId.help == "The consumer group (default: pushgate).")
        #expect(Settings.maxInFlight.help.hasSuffix("(default: 4000)."))
    }

    @Test func androidFormatsDefaultToAndroidExpandable() throws {
        #expect(try resolve().worker.translator.androidFormats == OutputFormatSet([.androidExpandable]))
    }

    @Test func androidFormatsAreReadFromEverySourceWithRepeatsAllowed() throws {
        let both = OutputFormatSet([.fcm, .androidExpandable])
        #expect(try resolve(flags: [.androidFormats: "fcm,android-expandable,fcm"]).worker.translator.androidFormats == both)
        #expect(try resolve(environment: ["PUSHGATE_ANDROID_FORMATS": "fcm"]).worker.translator.androidFormats == OutputFormatSet([.fcm]))
        #expect(try resolve(file: "android-formats: fcm,android-expandable\n").worker.translator.androidFormats == both)
        #expect(try resolve(flags: [.androidFormats: "android-expandable"], environment: ["PUSHGATE_ANDROID_FORMATS": "fcm"])
            .worker.translator.androidFormats == OutputFormatSet([.androidExpandable]))
    }

    /// SPEC 4: exact lower-case names, no spaces; any other name, or an empty list, names the accepted values.
    @Test func anythingButExactAndroidFormatNamesIsRefused() {
        #expect(failure { try resolve(flags: [.androidFormats: "fcm,apns"]) }
            == "--android-formats: 'fcm,apns' is not a comma-separated list of android-expandable, fcm (exact lower-case names, no spaces)")
        for value in ["FCM", "fcm, android-expandable", "fcm,", " , ", ",fcm"] {
            #expect(failure { try resolve(environment: ["PUSHGATE_ANDROID_FORMATS": value]) }
                .hasPrefix("PUSHGATE_ANDROID_FORMATS: '"), "\(value)")
        }
    }

    @Test func configIsNotAFileKey() {
        #expect(failure { try resolve(file: "config: other.yaml\n") }.contains("unknown key 'config'"))
    }

    @Test func commandLineMapEntriesAreSplitAtTheFirstEquals() throws {
        let flags = try SettingSource.flags([:], maps: [.kafkaProperties: ["sasl.password=a=b"], .topics: ["apns=x"]])
        let settings = try RunSettings.resolve([flags])
        #expect(settings.worker.kafkaProperties == ["sasl.password": "a=b"])
        #expect(settings.worker.translator.topic(for: .apns) == "x")
        #expect(throws: SettingError.self) { try SettingSource.flags([:], maps: [.topics: ["apns"]]) }
    }

    private func failure(_ body: () throws -> RunSettings) -> String {
        do {
            _ = try body()
            return "no error"
        } catch let error as SettingError {
            return error.description
        } catch {
            return "\(error)"
        }
    }
}
