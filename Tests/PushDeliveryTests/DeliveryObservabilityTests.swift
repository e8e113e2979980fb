import Logging
import PushgateKafka
import PushgateMetrics
import Testing

@testable import PushDelivery

/// What `/metrics` and `/ready` say of `pushgate deliver` (SPEC 10.8).
struct DeliveryObservabilityTests {
    @Test func requestsOutcomesRetriesDurationsAndPausesAreExported() {
        let prometheus = DeliveryPrometheusMetrics()
        let metrics = prometheus.delivery
        metrics.recordRequest(platform: .apns, status: 410, duration: .milliseconds(20))
        metrics.recordRequest(platform: .apns, status: nil, duration: .seconds(30))
        metrics.recordOutcome(platform: .apns, outcome: .gone, reason: "Unregistered")
        metrics.recordOutcome(platform: .apns, outcome: .rejected, reason: "<html>garbage</html>")
        metrics.recordRetry(platform: .apns)
        metrics.recordPaused(platform: .apns, true)
        let text = String(decoding: prometheus.emit(), as: UTF8.self)
        for line in [
            #"pushgate_deliver_requests_total{platform="apns",status="410"} 1"#,
            #"pushgate_deliver_requests_total{platform="apns",status="none"} 1"#,
            #"pushgate_deliver_outcomes_total{platform="apns",outcome="gone",reason="Unregistered"} 1"#,
            #"pushgate_deliver_outcomes_total{platform="apns",outcome="rejected",reason="other"} 1"#,
            #"pushgate_deliver_retries_total{platform="apns"} 1"#,
            #"pushgate_deliver_platform_paused{platform="apns"} 1"#,
            #"pushgate_deliver_platform_paused{platform="fcm"} 0"#,
            #"pushgate_deliver_request_duration_seconds_count{platform="apns"} 2"#,
        ] {
            #expect(text.contains(line), "missing: \(line)")
        }
    }

    @Test func readyWaitsForTheDirectoryAndNamesAPausedPlatform() {
        let health = WorkerHealth()
        let worker = DeliveryWorker(
            configuration: DeliveryConfiguration(bootstrapServers: "127.0.0.1:1"),
            services: DeliveryServices(directory: InMemoryDirectory([]), directoryCaughtUp: {}, senders: []),
            logger: Logger(label: "test"), health: health)
        #expect(health.notReadyReason == "reading the device directory")
        worker.pauses.refused(PauseKey(platform: .apns), reason: "403 InvalidProviderToken")
        #expect(health.notReadyReason == "reading the device directory")
        worker.directoryRead.set()
        #expect(health.notReadyReason == "credentials refused, paused: apns (403 InvalidProviderToken)")
        worker.pauses.resume(PauseKey(platform: .apns))
        #expect(health.notReadyReason == "producer not connected yet")
        health.producerDidConnect()
        health.assigned([KafkaTopicPartition(topic: "push.apns", partition: 0)])
        #expect(health.notReadyReason == nil)
    }
}
