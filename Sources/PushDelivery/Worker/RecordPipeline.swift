import PushgateKafka

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
                if try await delivery.deliver(record) { tracker.acknowledge(ticket) }
            } catch is CancellationError {
                // Abandoned at shutdown: read again by the partition's next owner.
            } catch {
                limiter.fail(ReceiptFailure(record: record.coordinates, error: error))
            }
        }
    }
}
