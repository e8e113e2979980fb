/// The storage of ``DeviceDirectory``, not thread-safe (the directory holds it under its lock).
///
/// Devices live in the slots of one array; a removed device's slot is reused by the next insertion. The
/// id index maps an id to its slot; the audience index maps an audience to the slots of its devices, all
/// platforms together (an audience has few devices). Audience and app texts are stored once, and an
/// APNs token of 32 bytes is kept as those bytes (``StoredDevice``).
struct DirectoryStore {
    private struct Slot {
        var device: StoredDevice
        var gone: Bool
    }

    /// The slots of an audience's devices: one or two inline (a user's phone and tablet), or an array for more.
    private enum Slots {
        case one(Int32)
        case two(Int32, Int32)
        case many([Int32])

        var all: [Int32] {
            switch self {
            case .one(let slot): [slot]
            case .two(let first, let second): [first, second]
            case .many(let slots): slots
            }
        }

        /// These slots and `slot`.
        func adding(_ slot: Int32) -> Slots {
            switch self {
            case .one(let first): .two(first, slot)
            case .two(let first, let second): .many([first, second, slot])
            case .many(let all): .many(all + [slot])
            }
        }

        /// These slots without `slot`; `nil` when none is left.
        func removing(_ slot: Int32) -> Slots? {
            switch self {
            case .one(let first): return first == slot ? nil : self
            case .two(let first, let second): return first == slot ? .one(second) : second == slot ? .one(first) : self
            case .many(var all):
                all.removeAll { $0 == slot }
                return all.count == 2 ? .two(all[0], all[1]) : .many(all)
            }
        }
    }

    private var slots: [Slot?] = []
    private var freeSlots: [Int32] = []
    private var slotsByID: [String: Int32] = [:]
    private var slotsByAudience: [String: Slots] = [:]
    /// Every `app` named, kept once: a directory names few apps, each by millions of devices.
    private var apps: Set<String> = []
    /// The `app` of the last device stored: devices of one app usually come in a row.
    private var lastApp: String?
    /// Devices held, by ``index(of:)`` of their platform.
    private(set) var devicesByPlatform = [Int](repeating: 0, count: Platform.allCases.count)
    /// Records ignored so far.
    var ignoredRecords = 0

    /// The position of `platform` in ``devicesByPlatform``.
    static func index(of platform: Platform) -> Int {
        switch platform {
        case .apns: 0
        case .fcm: 1
        case .webpush: 2
        }
    }

    /// Stores `device`, not gone, in place of the device with its id if there is one.
    /// - Returns: the platform of the device replaced, or `nil` when the store held no device with this id.
    mutating func put(_ device: Device) -> Platform? {
        var device = StoredDevice(device)
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = Int32(slots.count)
            slots.append(nil)
        }
        // One look-up of the id, whether it is new or replaced.
        let replaced = slotsByID.updateValue(slot, forKey: device.id).flatMap { release($0) }
        if let app = device.app {
            if app == lastApp {
                device.app = lastApp
            } else {
                if let index = apps.firstIndex(of: app) { device.app = apps[index] } else { apps.insert(app) }
                lastApp = device.app
            }
        }
        if let index = slotsByAudience.index(forKey: device.audience) {
            // The audience's text is kept once: the device shares the index's copy.
            device.audience = slotsByAudience.keys[index]
            if case .many(var all) = slotsByAudience.values[index] {
                slotsByAudience.values[index] = .one(slot)  // releases the array, appended to in place
                all.append(slot)
                slotsByAudience.values[index] = .many(all)
            } else {
                slotsByAudience.values[index] = slotsByAudience.values[index].adding(slot)
            }
        } else {
            slotsByAudience[device.audience] = .one(slot)
        }
        slots[Int(slot)] = Slot(device: device, gone: false)
        devicesByPlatform[Self.index(of: device.platform)] += 1
        return replaced
    }

    /// Removes the device with this id.
    /// - Returns: its platform, or `nil` when the store held no device with this id.
    @discardableResult
    mutating func removeDevice(id: String) -> Platform? {
        slotsByID.removeValue(forKey: id).flatMap { release($0) }
    }

    /// Empties `slot`, whose id is no longer indexed; returns the platform of the device it held.
    private mutating func release(_ slot: Int32) -> Platform? {
        guard let stored = slots[Int(slot)] else { return nil }
        slots[Int(slot)] = nil
        freeSlots.append(slot)
        let audience = stored.device.audience
        if let index = slotsByAudience.index(forKey: audience) {
            if let left = slotsByAudience.values[index].removing(slot) {
                slotsByAudience.values[index] = left
            } else {
                slotsByAudience.remove(at: index)
            }
        }
        devicesByPlatform[Self.index(of: stored.device.platform)] -= 1
        return stored.device.platform
    }

    func devices(audience: String, platform: Platform) -> [Device] {
        guard let found = slotsByAudience[audience] else { return [] }
        return found.all.compactMap { slot in
            guard let stored = slots[Int(slot)], !stored.gone, stored.device.platform == platform else { return nil }
            return stored.device.device
        }
    }

    mutating func markGone(id: String) {
        guard let slot = slotsByID[id] else { return }
        slots[Int(slot)]?.gone = true
    }

    mutating func markGone(_ device: Device) {
        guard let slot = slotsByID[device.id], slots[Int(slot)]?.device == StoredDevice(device) else { return }
        slots[Int(slot)]?.gone = true
    }

    func device(id: String) -> Device? {
        slotsByID[id].flatMap { slots[Int($0)]?.device.device }
    }

    func isGone(id: String) -> Bool {
        slotsByID[id].flatMap { slots[Int($0)]?.gone } ?? false
    }

    func allDevices() -> [Device] {
        slots.compactMap { $0?.device.device }
    }
}
