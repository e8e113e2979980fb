/// How `pushgate run` writes its log lines to standard error.
public enum LogFormat: String, Sendable, CaseIterable {
    /// One readable line per event: `2026-11-20T10:00:00.123Z warning pushgate: dead letter code=... id=...`.
    case text
    /// One JSON object per line: `{"timestamp":..,"level":..,"label":..,"message":..,"metadata":{..}}`.
    case json
}
