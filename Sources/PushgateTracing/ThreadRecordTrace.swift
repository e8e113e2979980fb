#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The record trace current on a thread that handles records one at a time without suspending (the pipeline's
/// poll thread), kept in a slot of the thread's own: binding a task-local value there (``RecordTrace/current``)
/// allocated, and copied the trace through its generic value witnesses, for every record.
enum ThreadRecordTrace {
    /// A thread's slot: made on the thread's first record, released when the thread ends. Only its own thread
    /// reads or writes it. It points at the trace ``withValue(_:_:)`` was given, which lives while the body runs.
    private final class Slot {
        var trace: UnsafePointer<RecordTrace>?
    }

    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        let made = pthread_key_create(&key) { slot in
            guard let slot else { return }
            Unmanaged<Slot>.fromOpaque(slot).release()
        }
        return made == 0 ? key : nil
    }()

    /// The calling thread's slot, made when `create` and it has none.
    private static func slot(create: Bool) -> Unmanaged<Slot>? {
        guard let key else { return nil }
        if let slot = pthread_getspecific(key) { return Unmanaged<Slot>.fromOpaque(slot) }
        guard create else { return nil }
        let slot = Unmanaged.passRetained(Slot())
        guard pthread_setspecific(key, slot.toOpaque()) == 0 else {
            slot.release()
            return nil
        }
        return slot
    }

    /// The record trace current on the calling thread; `nil` outside ``withValue(_:_:)``.
    static var current: RecordTrace? {
        slot(create: false)?._withUnsafeGuaranteedRef { $0.trace?.pointee }
    }

    /// Runs `body` with `trace` current on the calling thread; `body` must not suspend or leave the thread.
    /// Where no slot can be made, `body` runs with `trace` as the task-local ``RecordTrace/current`` instead.
    static func withValue(_ trace: RecordTrace, _ body: () -> Void) {
        guard let slot = slot(create: true) else { return RecordTrace.$current.withValue(trace, operation: body) }
        withUnsafePointer(to: trace) { trace in
            let previous = slot._withUnsafeGuaranteedRef { slot in
                let previous = slot.trace
                slot.trace = trace
                return previous
            }
            body()
            slot._withUnsafeGuaranteedRef { $0.trace = previous }
        }
    }
}
