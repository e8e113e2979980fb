/// The directory as the delivery worker sees it (SPEC 10.1, 10.2 step 1).
public protocol DeviceLookup: Sendable {
    /// The devices whose `audience` is `audience` and whose platform is `platform`, less those marked
    /// gone whose directory record has not been written again since.
    func devices(audience: String, platform: Platform) -> [Device]
    /// Marks a device gone (its last outcome was `gone`): it receives nothing until its directory record
    /// is written again. Only `device` as it was sent to is marked: a record written since the request
    /// was made (a new token) is not.
    func markGone(device: Device)
}
