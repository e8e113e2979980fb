import Foundation
import Yams

/// A YAML configuration file of `pushgate run`: a mapping whose keys are the settings' file keys
/// (``Settings/all``). Scalars are kept as text (read later like variables); `topics` maps formats to
/// topic names and `kafka-properties` maps librdkafka properties to values. An unknown key is an error.
public struct ConfigFile: Sendable {
    /// The file's path, as messages name it.
    public let path: String
    /// Scalar settings by file key, as written; a key set to nothing or `null` is absent.
    public var scalars: [String: String] = [:]
    /// Map settings by file key, entries in the order written.
    public var maps: [String: [(String, String)]] = [:]

    /// An empty file at `path`.
    public init(path: String) { self.path = path }

    /// How messages name the setting of `key`: `max-in-flight in FILE`.
    public func name(of key: String) -> String { "\(key) in \(path)" }

    /// The settings of the file at `path`.
    /// - Throws: ``SettingError`` for an unreadable file, invalid YAML, a document that is not a
    ///   mapping, an unknown key or a value of the wrong shape.
    public static func load(path: String) throws(SettingError) -> ConfigFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SettingError("cannot read the configuration file \(path)")
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }

    /// The settings of YAML `text`; `path` names it in messages.
    public static func parse(_ text: String, path: String) throws(SettingError) -> ConfigFile {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw SettingError("configuration file \(path) is not valid YAML: \(error)")
        }
        var file = ConfigFile(path: path)
        guard let root else { return file }  // an empty file sets nothing
        guard let mapping = root.mapping else {
            throw SettingError("configuration file \(path) must be a mapping of settings (key: value)")
        }
        let settings = Settings.all.map(\.documentation).filter { $0.fileKey != nil }
        for (keyNode, value) in mapping {
            let name = keyNode.string ?? "\(keyNode)"
            guard let setting = settings.first(where: { $0.fileKey == name }) else {
                let known = settings.compactMap(\.fileKey).joined(separator: ", ")
                throw SettingError("configuration file \(path): unknown key '\(name)'; known keys: \(known)")
            }
            if setting.isMap {
                guard let entries = value.mapping else {
                    throw SettingError("configuration file \(path): \(name) must be a mapping (NAME: VALUE)")
                }
                var pairs: [(String, String)] = []
                for (entryName, entryValue) in entries {
                    guard let entryKey = entryName.scalar?.string, let text = entryValue.scalar?.string else {
                        throw SettingError(
                            "configuration file \(path): every entry of \(name) must be NAME: VALUE text")
                    }
                    pairs.append((entryKey, text))
                }
                file.maps[name] = pairs
            } else if let scalar = value.scalar {
                let isNull = scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
                if !isNull { file.scalars[name] = scalar.string }
            } else {
                throw SettingError("configuration file \(path): \(name) must be a single value")
            }
        }
        return file
    }
}
