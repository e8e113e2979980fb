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

    @Test func propagatorsWithTracecontextAreAcceptedAndIgnoredWhenOff() throws {
        let endpoint = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]
        for propagators in ["tracecontext", " TraceContext , baggage ", "baggage,tracecontext"] {
            #expect(try resolve(endpoint.merging(["OTEL_PROPAGATORS": propagators]) { $1 }).isEnabled)
        }
        // Without an endpoint nothing is propagated but the forwarded headers: the list is not read.
        #expect(!(try resolve(["OTEL_PROPAGATORS": "b3"])).isEnabled)
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
        for propagators in ["b3", "tracecontext,b3multi", "baggage", "none", "xray , tracecontext"] {
            #expect(throws: TracingSettingError.self, "\(propagators)") {
                try resolve(endpoint.merging(["OTEL_PROPAGATORS": propagators]) { $1 })
            }
        }
        do {
            _ = try resolve(endpoint.merging(["OTEL_TRACES_SAMPLER": "sometimes"]) { $1 })
        } catch {
            #expect(error.message.hasPrefix("OTEL_TRACES_SAMPLER=sometimes"))
        }
    }
}

/// The exporter's `OTEL_EXPORTER_OTLP_*` and `OTEL_BSP_*` settings.
@Suite struct OTLPExportSettingsTests {
    private func export(_ environment: [String: String]) throws(TracingSettingError) -> OTLPExportSettings? {
        try TracingSettings.resolve(environment, defaultServiceName: "pushgate-run").export
    }

    @Test func theBaseEndpointGetsV1TracesTheTracesEndpointIsUsedAsItIs() throws {
        #expect(try export(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"])?.url == "http://c:4318/v1/traces")
        #expect(try export(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318/"])?.url == "http://c:4318/v1/traces")
        #expect(
            try export(["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://t/custom"])?.url == "https://t/custom")
        #expect(throws: TracingSettingError.self) { try export(["OTEL_EXPORTER_OTLP_ENDPOINT": "c:4318"]) }
    }

    @Test func defaultsAreTheSpecifications() throws {
        let settings = try #require(try export(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]))
        #expect(settings.timeout == .seconds(10) && settings.exportTimeout == .seconds(30))
        #expect(settings.scheduleDelay == .seconds(5))
        #expect(settings.maxQueueSize == 2048 && settings.maxExportBatchSize == 512)
        #expect(!settings.gzip && settings.headers.isEmpty && settings.certificate == nil)
    }

    @Test func theExportersClientMakesNoSpanOfItsOwnAndKeepsTheConnectTimeout() throws {
        var settings = try #require(try export(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]))
        settings.timeout = .seconds(3)
        let client = OTLPHTTPExporter.clientConfiguration(settings: settings, tls: nil)
        #expect(client.tracing.tracer == nil, "AsyncHTTPClient's own span per export is off")
        #expect(client.timeout.connect == .seconds(4) && client.tlsConfiguration == nil)
    }

    @Test func headersResourceCompressionAndBatchesAreRead() throws {
        let settings = try #require(
            try export([
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
                "OTEL_EXPORTER_OTLP_HEADERS": "general=1",
                "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "api-key=a%20b%3Dc, x-tenant=eu",
                "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip", "OTEL_EXPORTER_OTLP_TIMEOUT": "2500",
                "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=prod,service.namespace=push",
                "OTEL_BSP_SCHEDULE_DELAY": "100", "OTEL_BSP_MAX_QUEUE_SIZE": "10000",
                "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "1000", "OTEL_BSP_EXPORT_TIMEOUT": "5000",
            ]))
        #expect(settings.headers == ["api-key": "a b=c", "x-tenant": "eu"], "the traces variable wins")
        #expect(settings.gzip && settings.timeout == .milliseconds(2500))
        #expect(settings.resourceAttributes == ["deployment.environment": "prod", "service.namespace": "push"])
        #expect(settings.scheduleDelay == .milliseconds(100) && settings.exportTimeout == .seconds(5))
        #expect(settings.maxQueueSize == 10000 && settings.maxExportBatchSize == 1000)
    }

    @Test func unusableValuesAreErrorsNamingTheVariableNotTheSecret() {
        let cases: [(String, String)] = [
            ("OTEL_EXPORTER_OTLP_COMPRESSION", "zstd"), ("OTEL_EXPORTER_OTLP_TIMEOUT", "10s"),
            ("OTEL_BSP_MAX_QUEUE_SIZE", "0"), ("OTEL_EXPORTER_OTLP_HEADERS", "api-key"),
            ("OTEL_RESOURCE_ATTRIBUTES", "=x"), ("OTEL_EXPORTER_OTLP_CLIENT_KEY", "/k.pem"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"),
        ]
        for (name, value) in cases {
            do {
                _ = try export(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", name: value])
                Issue.record("\(name)=\(value) was accepted")
            } catch {
                #expect(error.message.contains(name))
            }
        }
        do {
            _ = try export(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_HEADERS": "a=1,secret"])
        } catch {
            #expect(!error.message.contains("=1"), "a header's value is never in the message")
        }
    }
}
