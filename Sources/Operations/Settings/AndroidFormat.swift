/// An Android output format that `--android-formats` can select (SPEC section 4, version 2).
///
/// Defined here, with the setting, until the translator takes the selection: `RunSettings` exposes the
/// parsed list; nothing routes on it yet.
public enum AndroidFormat: String, Sendable, CaseIterable, Equatable {
    /// Acoustic's Android expandable notification, `push.android.expandable`.
    case androidExpandable = "android-expandable"
    /// Firebase Cloud Messaging HTTP v1, `push.fcm`.
    case fcm
}
