import PushgateSettings

/// What resolving settings fails with: the ``SettingError``'s description, another error as it prints,
/// or "no error".
func settingFailure(_ body: () throws -> RunSettings) -> String {
    do {
        _ = try body()
        return "no error"
    } catch let error as SettingError {
        return error.description
    } catch {
        return "\(error)"
    }
}
