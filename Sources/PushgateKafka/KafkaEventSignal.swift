import CRdKafka
import Foundation
import Synchronization

/// Wakes one thread that serves several librdkafka queues (a consumer's and a producer's) when any of
/// them receives something: librdkafka writes a byte to a pipe, and the thread sleeps on the pipe rather
/// than in one of the queues.
public final class KafkaEventSignal: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    /// Creates the pipe.
    /// - Throws: ``KafkaError`` when the system has no descriptor left for it.
    public init() throws(KafkaError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw KafkaError.client("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        self.readEnd = ends[0]
        self.writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Has librdkafka signal when `queue` receives an event. Undo it with ``unwatch(_:)`` before the
    /// queue's client is destroyed.
    func watch(_ queue: OpaquePointer) {
        rd_kafka_queue_io_event_enable(queue, writeEnd, "e", 1)
    }

    /// Stops signalling `queue`'s events.
    func unwatch(_ queue: OpaquePointer) {
        rd_kafka_queue_io_event_enable(queue, -1, nil, 0)
    }

    /// Wakes the thread sleeping in ``wait(timeoutMs:)`` (or makes its next wait return at once).
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Sleeps until a watched queue receives an event (or has since the last wait) or `timeoutMs` passes.
    func wait(timeoutMs: Int32) {
        var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, timeoutMs)
        var drain = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &drain) { buffer in
            while read(readEnd, buffer.baseAddress, buffer.count) > 0 {}
        }
    }
}
