import Prometheus
import PushWorker
import PushgateHTTP
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

    @Test func unknownPathsAndMethodsAreRefused() {
        let routes = OperationsRoutes(registry: PrometheusCollectorRegistry(), health: WorkerHealth())
        #expect(routes.respond(method: .GET, uri: "/nope").status == .notFound)
        #expect(routes.respond(method: .POST, uri: "/metrics").status == .methodNotAllowed)
        #expect(routes.respond(method: .GET, uri: "/metrics?x=1").status == .ok)
    }
}
