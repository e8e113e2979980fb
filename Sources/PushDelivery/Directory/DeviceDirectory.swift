import CoreMetrics
import Synchronization

/// The device directory in memory (SPEC 10.1, 10.2 step 1): the last valid value of each device id, found
/// by id and by audience, with the `gone` marks of the worker. Safe to use from any thread.
///
/// Sized for millions of devices: each device is stored once, in a slot of one array; the id index and the
/// audience index hold slot numbers; an audience's text is stored once for all its devices, and an
/// audience of one device (the common case) needs no array of its own.
public final class DeviceDirectory: DeviceLookup, Sendable {
    /// The metric of devices by platform (a gauge, label `platform`).
    public static let devicesMetric = "pushgate_directory_devices"
    /// The metric of ignored directory records (a counter).
    public static let ignoredRecordsMetric = "pushgate_directory_ignored_records_total"

    private let state = Mutex(DirectoryStore())
    private let deviceGauges: [Gauge]
    private let ignoredCounter: Counter

    /// Creates an empty directory whose metrics go to `metricsFactory` (by default, nowhere).
    public init(metricsFactory: any MetricsFactory = NOOPMetricsHandler.instance) {
        deviceGauges = Platform.allCases.map {
            Gauge(label: Self.devicesMetric, dimensions: [("platform", $0.rawValue)], factory: metricsFactory)
        }
        ignoredCounter = Counter(label: Self.ignoredRecordsMetric, factory: metricsFactory)
        for gauge in deviceGauges { gauge.record(0) }
    }

    /// Applies one record of the directory topic, read in order: a device replaces the earlier value of its
    /// id; a tombstone removes it; an invalid value removes it too (the device receives nothing until a
    /// valid value comes) and is counted as ignored. Any of them clears the id's `gone` mark.
    public func apply(_ entry: DirectoryEntry) {
        let counts = state.withLock { store -> [Int]? in
            switch entry {
            case .device(let device):
                let before = store.put(device)
                return before == device.platform ? nil : store.devicesByPlatform
            case .tombstone(let id):
                return store.removeDevice(id: id) == nil ? nil : store.devicesByPlatform
            case .invalid(let id, _):
                store.ignoredRecords += 1
                return id.flatMap { store.removeDevice(id: $0) } == nil ? nil : store.devicesByPlatform
            }
        }
        if case .invalid = entry { ignoredCounter.increment() }
        if let counts {
            for (gauge, count) in zip(deviceGauges, counts) { gauge.record(count) }
        }
    }

    /// The devices of `audience` on `platform`, less those marked gone (in no particular order).
    public func devices(audience: String, platform: Platform) -> [Device] {
        state.withLock { $0.devices(audience: audience, platform: platform) }
    }

    /// Marks the device `deviceID` gone until its directory record is written again; an id the directory
    /// does not hold is ignored.
    public func markGone(deviceID: String) {
        state.withLock { $0.markGone(id: deviceID) }
    }

    /// Marks `device` gone only if the directory still holds this very value for its id: a `gone` answer to
    /// a request sent before the device's record was written again does not mark the new value.
    public func markGone(device: Device) {
        state.withLock { $0.markGone(device) }
    }

    /// The device with this id, gone or not (`nil` when the directory holds none).
    public func device(id: String) -> Device? {
        state.withLock { $0.device(id: id) }
    }

    /// Whether the device with this id is marked gone.
    public func isGone(id: String) -> Bool {
        state.withLock { $0.isGone(id: id) }
    }

    /// Every device, gone or not, sorted by id.
    public func allDevices() -> [Device] {
        state.withLock { $0.allDevices() }.sorted { $0.id < $1.id }
    }

    /// How many devices the directory holds (gone ones included).
    public var deviceCount: Int { state.withLock { $0.devicesByPlatform.reduce(0, +) } }

    /// How many devices of `platform` the directory holds (gone ones included).
    public func deviceCount(platform: Platform) -> Int {
        state.withLock { $0.devicesByPlatform[DirectoryStore.index(of: platform)] }
    }

    /// How many records were ignored because they broke a rule of SPEC 10.1.
    public var ignoredRecordCount: Int { state.withLock { $0.ignoredRecords } }
}
