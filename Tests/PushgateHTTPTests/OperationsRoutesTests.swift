import Prometheus
import PushWorker
import PushgateHTTP
import PushgateKafka
import Synchronization
import Testing

@Suite("Health endpoints")
struct OperationsRoutesTests {
    @Test func readyIsUnavailableUntilJoinedAndWhileDraining() {
        let health = WorkerHealth()
        let routes = OperationsRoutes(registry: PrometheusCollectorRegistry(), health: health)
        #expect(routes.respond(method: .GET, uri: "/health").status == .ok)
        #expect(routes.respond(method: .GET, uri: "/ready").status == .serviceUnavailable)
        health.startDraining()
        #expect(routes.respond(method: .GET, uri: "/ready").status == .serviceUnavailable)
        #expect(routes.respond(method: .GET, uri: "/health").status == .ok)
        health.fail("boom")
        #expect(routes.respond(method: .GET, uri: "/health").status == .serviceUnavailable)
    }

    @Test func aReadinessCheckThatFailsMakesReadyUnavailableWithItsReason() {
        let health = WorkerHealth()
        health.producerDidConnect()
        health.assigned([KafkaTopicPartition(topic: "push.apns", partition: 0)])
        let paused = PausedName()
        health.addReadinessCheck { paused.name.withLock { $0.map { "paused: \($0)" } } }
        let routes = OperationsRoutes(registry: PrometheusCollectorRegistry(), health: health)
        #expect(routes.respond(method: .GET, uri: "/ready").status == .ok)
        paused.name.withLock { $0 = "apns" }
        let answer = routes.respond(method: .GET, uri: "/ready")
        #expect(answer.status == .serviceUnavailable)
        #expect(String(decoding: answer.body, as: UTF8.self) == "not ready: paused: apns\n")
    }

    @Test func unknownPathsAndMethodsAreRefused() {
        let routes = OperationsRoutes(registry: PrometheusCollectorRegistry(), health: WorkerHealth())
        #expect(routes.respond(method: .GET, uri: "/nope").status == .notFound)
        #expect(routes.respond(method: .POST, uri: "/metrics").status == .methodNotAllowed)
        #expect(routes.respond(method: .GET, uri: "/metrics?x=1").status == .ok)
    }
}

/// What a readiness check reads, set by the test.
private final class PausedName: Sendable {
    let name = Mutex<String?>(nil)
}
