import Foundation
import Yams

/// Reads a YAML configuration file of `pushgate run`: a mapping whose keys are ``SettingKey/fileKey``s.
/// Scalars are read as text (parsed later like flags); `topics` maps formats to topic names and
/// `kafka-properties` maps librdkafka properties to values. An unknown key is an error.
public enum ConfigFile {
    /// The settings of the file at `path`.
    /// - Throws: ``SettingError`` for an unreadable file, invalid YAML, a document that is not a
    ///   mapping, an unknown key or a value of the wrong shape.
    public static func load(path: String) throws(SettingError) -> SettingSource {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SettingError("cannot read the configuration file \(path)")
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }

    /// The settings of YAML `text`; `path` names it in messages.
    public static func parse(_ text: String, path: String) throws(SettingError) -> SettingSource {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw SettingError("configuration file \(path) is not valid YAML: \(error)")
        }
        var source = SettingSource(kind: .file(path))
        guard let root else { return source }  // an empty file sets nothing
        guard let mapping = root.mapping else {
            throw SettingError("configuration file \(path) must be a mapping of settings (key: value)")
        }
        let known = SettingKey.allCases.compactMap(\.fileKey)
        for (keyNode, value) in mapping {
            let name = keyNode.string ?? "\(keyNode)"
            guard let key = SettingKey(rawValue: name), key.fileKey != nil else {
                throw SettingError("configuration file \(path): unknown key '\(name)'; known keys: \(known.joined(separator: ", "))")
            }
            if key.isMap {
                guard let entries = value.mapping else {
                    throw SettingError("configuration file \(path): \(name) must be a mapping (NAME: VALUE)")
                }
                var pairs: [(String, String)] = []
                for (entryName, entryValue) in entries {
                    guard let entryKey = entryName.scalar?.string, let text = entryValue.scalar?.string else {
                        throw SettingError("configuration file \(path): every entry of \(name) must be NAME: VALUE text")
                    }
                    pairs.append((entryKey, text))
                }
                source.maps[key] = pairs
            } else if let scalar = value.scalar {
                let isNull = scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
                if !isNull { source.scalars[key] = scalar.string }
            } else {
                throw SettingError("configuration file \(path): \(name) must be a single value")
            }
        }
        return source
    }
}
