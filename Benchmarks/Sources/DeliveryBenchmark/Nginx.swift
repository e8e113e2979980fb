import BenchProcess
import Foundation

/// Debian's nginx as the push services of the benchmark: HTTP/2 over TLS on 127.0.0.1, run unprivileged from a
/// configuration written into the run's directory (its own pid file, logs and temporary paths), answering at once:
/// 200 to APNs, 201 to web push, a static JSON to FCM's send and its token endpoint.
struct Nginx {
    /// The master process (`daemon off`); its one worker process does the answering.
    let master: ChildProcess
    let port: Int
    let directory: String

    /// The access log of the requests that carry a latency tag (`apns-collapse-id` or web push's `Topic`): the
    /// time nginx logged each (`$msec`) and the tag.
    var latencyLog: String { directory + "/latency.log" }

    /// Writes the configuration and starts nginx; returns once it accepts connections.
    static func start(executable: String, directory: String, port: Int) async throws -> Nginx {
        for temporary in ["body", "proxy", "fastcgi", "uwsgi", "scgi"] {
            try FileManager.default.createDirectory(
                atPath: "\(directory)/\(temporary)", withIntermediateDirectories: true)
        }
        let configuration = "\(directory)/nginx.conf"
        try configurationText(directory: directory, port: port).write(
            toFile: configuration, atomically: true, encoding: .utf8)
        let master = try ChildProcess(
            executable, arguments: ["-p", directory, "-c", configuration, "-e", "\(directory)/error.log"],
            captureOutput: false)
        let nginx = Nginx(master: master, port: port, directory: directory)
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if !master.isRunning {
                let errors = (try? String(contentsOfFile: "\(directory)/error.log", encoding: .utf8)) ?? ""
                throw BenchmarkError("nginx exited at start: \(errors)")
            }
            if !nginx.workers().isEmpty, LocalPort.accepts(port) { return nginx }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BenchmarkError("nginx did not listen on 127.0.0.1:\(port) within 20 s (\(directory)/error.log)")
    }

    /// The configuration: one worker, HTTP/2 with up to 1,000 concurrent streams (APNs allows as many), TLS 1.2
    /// and 1.3, no access log but for latency-tagged requests, keep-alive limits far above any run, and each
    /// answer once the request's body is read.
    static func configurationText(directory: String, port: Int) -> String {
        """
        worker_processes 1;
        daemon off;
        master_process on;
        pid \(directory)/nginx.pid;
        error_log \(directory)/error.log warn;
        events { worker_connections 1024; }
        http {
            client_body_temp_path \(directory)/body;
            proxy_temp_path \(directory)/proxy;
            fastcgi_temp_path \(directory)/fastcgi;
            uwsgi_temp_path \(directory)/uwsgi;
            scgi_temp_path \(directory)/scgi;
            access_log off;
            log_format latency '$msec $http_apns_collapse_id $http_topic';
            map "$http_apns_collapse_id$http_topic" $latency_tagged { "" 0; default 1; }
            keepalive_requests 1000000000;
            keepalive_timeout 600s;
            http2_max_concurrent_streams 1000;
            client_max_body_size 1m;
            server {
                listen 127.0.0.1:\(port) ssl http2;
                ssl_certificate \(directory)/server.pem;
                ssl_certificate_key \(directory)/server.key;
                ssl_protocols TLSv1.2 TLSv1.3;
                access_log \(directory)/latency.log latency if=$latency_tagged;
                default_type application/json;
                # Each answer comes once the whole request is read, as the push services answer (they check
                # the body): the mirror module reads the body, the static module finds no file, and the
                # not-found goes to the answer. (A bare `return` answers at the request's headers, before its
                # body, and resets the stream.)
                root /nonexistent/delivery-benchmark;
                log_not_found off;
                mirror_request_body on;
                client_body_buffer_size 16k;
                location = /read-body { internal; return 204; }
                location /3/device/ { mirror /read-body; error_page 404 405 = @apns; }
                location @apns { return 200; }
                location /push/ { mirror /read-body; error_page 404 405 = @webpush; }
                location @webpush { return 201; }
                location = /token { mirror /read-body; error_page 404 405 = @token; }
                location @token {
                    return 200 '{"access_token":"bench-access-token","expires_in":3599,"token_type":"Bearer"}';
                }
                location /v1/projects/ { mirror /read-body; error_page 404 405 = @fcm; }
                location @fcm { return 200 '{"name":"projects/bench-project/messages/0:1"}'; }
                location / { return 404; }
            }
        }

        """
    }

    /// The worker processes (the master's children).
    func workers() -> [Int32] {
        ProcessStat.children(of: master.pid)
    }

    /// User plus system CPU seconds of the workers so far.
    func workerCPUSeconds() -> Double {
        workers().compactMap { ProcessStat.cpuSeconds(pid: $0) }.reduce(0, +)
    }

    /// Stops nginx (SIGTERM to the master, which stops its workers).
    func stop() async {
        _ = await master.terminate(timeout: .seconds(10))
    }

    /// Stops nginx at once (cleanup after a failure): its workers too, which a killed master would leave running.
    func forceStop() {
        for worker in workers() { kill(worker, SIGKILL) }
        master.forceStop()
    }
}

/// CPU time and parentage from `/proc/PID/stat`.
enum ProcessStat {
    /// The fields after `pid (comm)`: field 3 (state) onwards.
    private static func fields(_ pid: Int32) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// User plus system CPU seconds of `pid`, every thread; `nil` when it is gone.
    static func cpuSeconds(pid: Int32) -> Double? {
        guard let fields = fields(pid), fields.count > 12, let user = Double(fields[11]),
            let system = Double(fields[12])
        else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The processes whose parent is `pid`.
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { child in
            guard let fields = fields(child), fields.count > 1 else { return false }
            return Int32(fields[1]) == pid
        }
    }
}
