/// A reference that does not keep its object alive, for a ``KafkaDeliveryReceiver`` made per record
/// (or per input) to reach an object all receivers share: a strong reference would retain the shared
/// object when each receiver is made and release it when the receiver is freed after its last report,
/// two atomic operations per receiver on the thread that produces and serves the reports.
///
/// Unsafe: the owner keeps the object alive, with a strong reference of its own, for as long as any
/// receiver holding this reference may use it: until the producer the receivers were handed to has
/// served its last report (``KafkaProducer/shutdown(flushTimeout:)`` has returned), and until any task a
/// receiver started has finished with it (a task takes ``object``, a strong reference, before it starts).
/// Using it after the object is freed is undefined behaviour, which nothing here can detect.
///
/// `Sendable` because it holds nothing but the reference, and the object is `Sendable`: lifetime is
/// the only thing left to the owner.
public struct UnsafeUnretainedReference<Object: AnyObject & Sendable>: Sendable {
    @usableFromInline
    let unmanaged: Unmanaged<Object>

    /// A reference to `object` that does not retain it: the caller keeps `object` alive (see the type).
    @inlinable
    public init(_ object: Object) {
        unmanaged = Unmanaged.passUnretained(object)
    }

    /// The object as a strong reference (one retain, and one release when the caller drops it): for
    /// rare paths, and for a task that must keep the object alive by itself.
    @inlinable
    public var object: Object { unmanaged.takeUnretainedValue() }

    /// Calls `body` with the object, neither retained nor released around the call: for the per-record
    /// path. `body` must not keep the object beyond the call.
    @inlinable
    public func withObject<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try unmanaged._withUnsafeGuaranteedRef(body)
    }
}
