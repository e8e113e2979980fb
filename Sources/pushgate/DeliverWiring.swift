import Logging
import PushDelivery
import ServiceLifecycle

/// The seam of `pushgate deliver` where the device directory and the platforms' senders are built from
/// the configuration: the one place to connect them (``DeliveryServices``).
enum DeliverWiring {
    /// What the worker runs with: its services, and the services to run beside it in the service group
    /// (the directory's reader), started before it and stopped after it.
    struct Wiring {
        var services: DeliveryServices
        var background: [any Service]
    }

    /// Builds the directory (a `DeviceLookup` with its reader and its "read up to the end" wait) and one
    /// `PushSender` per platform of `configuration`, reading the credential files.
    /// - Throws: ``DeliverWiringError`` while this binary has no directory reader or sender to build.
    static func make(
        _ configuration: DeliveryConfiguration, metrics: DeliveryMetrics, logger: Logger
    ) async throws -> Wiring {
        throw DeliverWiringError(
            description: "this build of pushgate has no device directory reader and no APNs sender connected to "
                + "`deliver` (Sources/pushgate/DeliverWiring.swift)")
    }
}

/// `pushgate deliver` cannot build what it delivers with.
struct DeliverWiringError: Error, CustomStringConvertible {
    let description: String
}
