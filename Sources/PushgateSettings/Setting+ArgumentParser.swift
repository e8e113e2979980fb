import ArgumentParser
import Logging
import PushgateLogging

extension SettingDefinition {
    /// The option's name for swift-argument-parser: `--NAME` or `-X`.
    public var optionName: NameSpecification {
        let flag = documentation.flag
        if flag.hasPrefix("--") { return .customLong(String(flag.dropFirst(2))) }
        return flag.dropFirst().first.map { .customShort($0) } ?? .long
    }

    /// The option's help: ``SettingDocumentation/help`` and the placeholder of its value.
    public var argumentHelp: ArgumentHelp { ArgumentHelp(documentation.help, valueName: documentation.valueName) }
}

extension Option {
    /// The typed option of `setting`, named and documented by it; `nil` when not given.
    public init<Wrapped: ExpressibleByArgument>(_ setting: Setting<Wrapped>) where Value == Wrapped? {
        self.init(name: setting.optionName, help: setting.argumentHelp)
    }

    /// The typed option of a setting without a default, named and documented by it; `nil` when not given.
    public init<Wrapped: ExpressibleByArgument>(_ setting: Setting<Wrapped?>) where Value == Wrapped? {
        self.init(name: setting.optionName, help: setting.argumentHelp)
    }

    /// The option of `setting` as text, read by the setting itself (``SettingReader/value(_:flagText:)``).
    public init<Parsed>(text setting: Setting<Parsed>) where Value == String? {
        self.init(name: setting.optionName, help: setting.argumentHelp)
    }

    /// The repeatable option of a list setting (`--fcm-credentials FILE`), named and documented by it; empty when
    /// not given.
    public init(wrappedValue: [String], list setting: Setting<[String]>) where Value == [String] {
        self.init(wrappedValue: wrappedValue, name: setting.optionName, help: setting.argumentHelp)
    }

    /// The repeatable `NAME=VALUE` option of a map setting, named and documented by it.
    public init<Parsed>(wrappedValue: [String], _ setting: MapSetting<Parsed>) where Value == [String] {
        self.init(wrappedValue: wrappedValue, name: setting.optionName, help: setting.argumentHelp)
    }
}

// A choice read from a flag as from a variable: any case (`--log-level WARNING`). No list of values is
// added to the help: each setting's summary names them already.

// swift-format-ignore: AvoidRetroactiveConformances
// Retroactive (swift-log's type, swift-argument-parser's protocol), and safe as long as neither package
// declares it: `PushgateSettings` is pushgate's own library, linked only by the `pushgate` command.
extension Logger.Level: @retroactive ExpressibleByArgument {
    /// The level named by `argument`, in any case.
    public init?(argument: String) { self.init(settingText: argument) }
    /// None: the help of `--log-level` names them.
    public static var allValueStrings: [String] { [] }
}

extension LogFormat: ExpressibleByArgument {
    /// The format named by `argument`, in any case.
    public init?(argument: String) { self.init(settingText: argument) }
    /// None: the help of `--log-format` names them.
    public static var allValueStrings: [String] { [] }
}
