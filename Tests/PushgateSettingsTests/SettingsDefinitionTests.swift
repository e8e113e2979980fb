import Foundation
import PushModel
import PushWorker
import PushgateSettings
import Testing

@Suite("One definition per setting: names, default, parser, doc")
struct SettingsDefinitionTests {
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
            "docs/configuration.md's settings table differs from Settings; paste Settings.markdownTable:\n\(Settings.markdownTable)"
        )
    }

    @Test func everySettingIsDocumented() {
        for setting in Settings.all.map(\.documentation) {
            #expect(!setting.summary.isEmpty && !setting.defaultDescription.isEmpty, "\(setting.name)")
        }
    }

    /// `pushgate run`'s options are the settings, in the order of ``Settings/all``: no option without a
    /// definition, no definition without its option.
    @Test func theRunOptionsAreTheSettingsInOrder() {
        let help = RunOptions.helpMessage(columns: 1000)
        let options = help.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard let first = words.first, first.hasPrefix("-"), first != "-h," else { return nil }
            return String(first.split(separator: "/").first ?? first)
        }
        #expect(options == Settings.all.map(\.flag))
    }

    /// Each default is written as the definition's value is (the settings table and the help say it).
    @Test func defaultsAreDescribedFromTheirValues() {
        #expect(Settings.groupId.documentation.defaultDescription == "`\(Settings.groupId.defaultValue)`")
        #expect(Settings.maxInFlight.documentation.defaultDescription == "\(Settings.maxInFlight.defaultValue)")
        #expect(Settings.lenient.documentation.defaultDescription == "off")
        #expect(Settings.logLevel.documentation.defaultDescription == "`info`")
        #expect(Settings.androidFormats.documentation.defaultDescription == "`android-expandable`")
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
        #expect(
            try resolve(flags: ["--android-formats", "fcm,android-expandable,fcm"]).worker.translator.androidFormats
                == both)
        #expect(
            try resolve(environment: ["PUSHGATE_ANDROID_FORMATS": "fcm"]).worker.translator.androidFormats
                == OutputFormatSet([.fcm]))
        #expect(try resolve(file: "android-formats: fcm,android-expandable\n").worker.translator.androidFormats == both)
        #expect(
            try resolve(
                flags: ["--android-formats", "android-expandable"], environment: ["PUSHGATE_ANDROID_FORMATS": "fcm"]
            )
            .worker.translator.androidFormats == OutputFormatSet([.androidExpandable]))
    }

    /// SPEC 4: exact lower-case names, no spaces; any other name, or an empty list, names the accepted values.
    @Test func anythingButExactAndroidFormatNamesIsRefused() {
        #expect(
            settingFailure { try resolve(flags: ["--android-formats", "fcm,apns"]) }
                == "--android-formats: 'fcm,apns' is not a comma-separated list of android-expandable, fcm (exact lower-case names, no spaces)"
        )
        for value in ["FCM", "fcm, android-expandable", "fcm,", " , ", ",fcm"] {
            #expect(
                settingFailure { try resolve(environment: ["PUSHGATE_ANDROID_FORMATS": value]) }
                    .hasPrefix("PUSHGATE_ANDROID_FORMATS: '"), "\(value)")
        }
    }

    @Test func configIsNotAFileKey() {
        #expect(settingFailure { try resolve(file: "config: other.yaml\n") }.contains("unknown key 'config'"))
    }

    @Test func commandLineMapEntriesAreSplitAtTheFirstEquals() throws {
        let settings = try resolve(flags: ["-X", "sasl.password=a=b", "--topic", "apns=x"])
        #expect(settings.worker.kafkaProperties == ["sasl.password": "a=b"])
        #expect(settings.worker.translator.topic(for: .apns) == "x")
        #expect(
            settingFailure { try resolve(flags: ["--topic", "apns"]) }
                == "--topic expects NAME=VALUE entries, got 'apns'")
        #expect(
            settingFailure { try resolve(environment: ["PUSHGATE_X": "a=1;b"]) }
                == "PUSHGATE_X expects NAME=VALUE entries, got 'b'")
    }
}
