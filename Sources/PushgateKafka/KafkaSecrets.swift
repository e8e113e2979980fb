/// Which librdkafka properties hold secrets, so that their values are never logged or shown.
public enum KafkaSecrets {
    /// What is shown instead of a secret value.
    public static let redacted = "[redacted]"

    /// Whether the value of property `key` is a secret: its name contains `password`, `secret` or `key`
    /// (ASCII case-insensitive), e.g. `sasl.password`, `ssl.key.password`, `sasl.oauthbearer.client.secret`,
    /// `ssl.key.pem`. Some of them (`ssl.key.location`) are only paths; hiding those costs nothing.
    public static func isSecret(key: String) -> Bool {
        let name = key.lowercased()
        return name.contains("password") || name.contains("secret") || name.contains("key")
    }

    /// The secret values among `properties` (non-empty values of secret keys).
    public static func secretValues(of properties: [String: String]) -> [String] {
        properties.filter { isSecret(key: $0.key) && !$0.value.isEmpty }.map(\.value).sorted()
    }

    /// `properties` as `key=value` text for logs, with secret values replaced by ``redacted``.
    public static func describe(_ properties: [String: String]) -> String {
        properties.sorted { $0.key < $1.key }
            .map { "\($0.key)=\(isSecret(key: $0.key) ? redacted : $0.value)" }
            .joined(separator: ", ")
    }
}
