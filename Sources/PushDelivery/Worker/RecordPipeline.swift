import PushModel
import PushgateKafka
import PushgateTracing

/// Where a read record goes: delivered in a task of its own; its ticket acknowledged (so that its
/// partition's offset may advance past it, ``OffsetTracker``) only once ``RecordDelivery`` says every
/// device has a final outcome and every selected receipt is acknowledged; its in-flight slot released
/// in every case. A receipt that cannot be written fails the limiter, which stops the worker.
struct RecordPipeline: Sendable {
    let delivery: RecordDelivery
    let tracker: OffsetTracker
    let limiter: InFlightLimiter
    let tasks: RecordTasks

    /// Delivers `record`, read under `ticket` (whose in-flight slot is taken), in a task of its own.
    func start(_ record: DeliveredRecord, ticket: OffsetTracker.Ticket) {
        let (delivery, tracker, limiter) = (self.delivery, self.tracker, self.limiter)
        tasks.start(ticket.partition) {
            defer { limiter.release() }
            do {
                if try await Self.deliver(record, with: delivery) { tracker.acknowledge(ticket) }
            } catch is CancellationError {
                // Abandoned at shutdown: read again by the partition's next owner.
            } catch {
                limiter.fail(ReceiptFailure(record: record.coordinates, error: error))
            }
        }
    }

    /// Delivers `record`, inside its trace when tracing is on (SPEC section 11): the trace is current for the
    /// requests' spans, the receipts' `traceparent` and the log lines.
    private static func deliver(_ record: DeliveredRecord, with delivery: RecordDelivery) async throws -> Bool {
        guard let tracer = delivery.tracer else { return try await delivery.deliver(record) }
        let headers = record.headers.map { RecordHeader(name: $0.name, value: $0.value) }
        let trace = tracer.startRecord(
            topic: record.topic, partition: record.partition, offset: record.offset, group: delivery.group, key: nil,
            headers: headers)
        defer { trace.end() }
        return try await RecordTrace.$current.withValue(trace) { try await delivery.deliver(record) }
    }
}
