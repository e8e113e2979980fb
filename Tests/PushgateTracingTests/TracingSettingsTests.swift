import Testing

@testable import PushgateTracing

@Suite struct TracingSettingsTests {
    private func resolve(_ environment: [String: String]) throws(TracingSettingError) -> TracingSettings {
        try TracingSettings.resolve(environment, defaultServiceName: "pushgate-run")
    }

    @Test func offWithoutAnEndpoint() throws {
        let settings = try resolve(["OTEL_SERVICE_NAME": "x", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"])
        #expect(!settings.isEnabled)
        #expect(settings.summary == "off")
    }

    @Test func onWithEitherEndpointTheTracesOneFirst() throws {
        #expect(try resolve(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]).endpoint == "http://c:4318")
        let both = try resolve([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://t:4318/v1/traces",
        ])
        #expect(both.endpoint == "http://t:4318/v1/traces")
        #expect(try resolve(["OTEL_EXPORTER_OTLP_ENDPOINT": "  "]).endpoint == nil)
    }

    @Test func defaultsAreParentBasedAlwaysOnOverHTTPProtobuf() throws {
        let settings = try resolve(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"])
        #expect(settings.sampler == "parentbased_always_on")
        #expect(settings.exportProtocol == "http/protobuf")
        #expect(settings.serviceName == "pushgate-run")
        #expect(settings.samplerArgument == nil)
    }

    @Test func serviceNameSamplerAndRatioAreRead() throws {
        let settings = try resolve([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SERVICE_NAME": "push-eu",
            "OTEL_TRACES_SAMPLER": "ParentBased_TraceIdRatio", "OTEL_TRACES_SAMPLER_ARG": "0.01",
        ])
        #expect(settings.serviceName == "push-eu")
        #expect(settings.sampler == "parentbased_traceidratio")
        #expect(settings.samplerArgument == 0.01)
        #expect(settings.summary.contains("parentbased_traceidratio(0.01)"))
    }

    @Test func disabledOrExporterNoneTurnsTracingOff() throws {
        let endpoint = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]
        #expect(!(try resolve(endpoint.merging(["OTEL_SDK_DISABLED": "true"]) { $1 })).isEnabled)
        #expect(!(try resolve(endpoint.merging(["OTEL_TRACES_EXPORTER": "none"]) { $1 })).isEnabled)
    }

    @Test func unusableValuesAreErrorsNamingTheVariable() {
        let endpoint = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]
        #expect(throws: TracingSettingError.self) {
            try resolve(endpoint.merging(["OTEL_TRACES_SAMPLER": "sometimes"]) { $1 })
        }
        #expect(throws: TracingSettingError.self) {
            try resolve(
                endpoint.merging(["OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "2"]) { $1 })
        }
        #expect(throws: TracingSettingError.self) {
            try resolve(endpoint.merging(["OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"]) { $1 })
        }
        #expect(throws: TracingSettingError.self) {
            try resolve(endpoint.merging(["OTEL_TRACES_EXPORTER": "zipkin"]) { $1 })
        }
        do {
            _ = try resolve(endpoint.merging(["OTEL_TRACES_SAMPLER": "sometimes"]) { $1 })
        } catch {
            #expect(error.message.hasPrefix("OTEL_TRACES_SAMPLER=sometimes"))
        }
    }
}
