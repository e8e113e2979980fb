import ArgumentParser
import Operations

/// `body`'s value, a ``SettingError`` becoming swift-argument-parser's `ValidationError`: the message,
/// the usage after it, exit status 64.
func validating<Value>(_ body: () throws(SettingError) -> Value) throws(ValidationError) -> Value {
    do {
        return try body()
    } catch {
        throw ValidationError(error.description)
    }
}
