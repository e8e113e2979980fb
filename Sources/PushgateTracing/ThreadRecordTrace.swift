#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The record trace current on a thread that handles records one at a time without suspending (the pipeline's
/// poll thread), kept in a cell of the thread's own: binding a task-local value there (``RecordTrace/current``)
/// allocated, and copied the trace through its generic value witnesses, for every record. The cell keeps what the
/// log lines read: the trace's `traceparent` text, a plain value.
public struct ThreadRecordTrace {
    /// What a cell holds: whether a trace is current, and its `traceparent`.
    private struct Current {
        var isSet = false
        var traceparent = TraceHeaders.Text(0, 0, 0, 0, 0, 0, 0)
    }

    /// A thread's cell: made on the thread's first record, released when the thread ends. Only its own thread
    /// reads or writes it. What it holds is in memory of its own, so that setting it is a few plain stores (a
    /// class's stored property would add the runtime's exclusivity checks).
    private final class Cell {
        let current = UnsafeMutablePointer<Current>.allocate(capacity: 1)

        init() { current.initialize(to: Current()) }

        deinit { current.deinitialize(count: 1).deallocate() }
    }

    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        let made = pthread_key_create(&key) { cell in
            guard let cell else { return }
            Unmanaged<Cell>.fromOpaque(cell).release()
        }
        return made == 0 ? key : nil
    }()

    /// The calling thread's cell, made when `create` and it has none.
    private static func cell(create: Bool) -> UnsafeMutablePointer<Current>? {
        guard let key else { return nil }
        if let cell = pthread_getspecific(key) {
            return Unmanaged<Cell>.fromOpaque(cell)._withUnsafeGuaranteedRef { $0.current }
        }
        guard create else { return nil }
        let cell = Unmanaged.passRetained(Cell())
        guard pthread_setspecific(key, cell.toOpaque()) == 0 else {
            cell.release()
            return nil
        }
        return cell._withUnsafeGuaranteedRef { $0.current }
    }

    /// The `traceparent` of the record trace current on the calling thread; `nil` when none is.
    static var currentTraceparent: TraceHeaders.Text? {
        guard let current = cell(create: false)?.pointee, current.isSet else { return nil }
        return current.traceparent
    }

    /// The calling thread's cell. Valid on this thread only, while it runs.
    private let current: UnsafeMutablePointer<Current>

    /// The calling thread's; `nil` when the process can make no more thread-specific keys (log lines then have no
    /// trace ids).
    public static var here: ThreadRecordTrace? { cell(create: true).map(ThreadRecordTrace.init(current:)) }

    /// Makes `trace` current on this thread, in place of the one that was.
    public func set(_ trace: borrowing RecordTrace) {
        current.pointee = Current(isSet: true, traceparent: trace.headers.text)
    }

    /// Makes no trace current on this thread.
    public func clear() { current.pointee.isSet = false }
}
