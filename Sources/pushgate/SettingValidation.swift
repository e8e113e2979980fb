import ArgumentParser
import PushgateSettings

/// `body`'s value, a ``SettingError`` becoming swift-argument-parser's `ValidationError`: the message,
/// the usage after it, exit status 64.
func validating<Value>(_ body: () throws(SettingError) -> Value) throws(ValidationError) -> Value {
    do {
        return try body()
    } catch {
        throw ValidationError(error.description)
    }
}

extension Optional {
    /// `transform` of the wrapped value, awaited; `nil` stays `nil`.
    func asyncMap<Mapped>(_ transform: (Wrapped) async throws -> Mapped) async rethrows -> Mapped? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
