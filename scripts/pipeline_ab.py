#!/usr/bin/env python3
"""A/B of `pushgate run` builds: CPU per input record of each, interleaved, on one embedded broker.

  scripts/pipeline_ab.py --variant base=/tmp/pushgate-before --variant new=.build/release/pushgate [--runs 6]

`pushgate bench pipeline` compares the worker with baselines; this compares two (or more) builds of the
worker itself, which on a shared 2-core VM only works in the same window: absolute figures drift by 20%
within an hour here. One `pushgate broker` (of the first variant) holds the bench payload mix (printed by
`pushgate bench mix` of the last variant, or of --mix-from: the payloads of `bench translate` and `bench
pipeline`; keys user-0..999, one header); each run starts each variant in
turn (the order rotates) with a fresh consumer group, and reads, from /proc, its CPU time between the
first offset commit and the commit of the whole input ("steady": the group join and the start are left
out), divided by the records committed in between, and its peak RSS. confluent-kafka is the observer.
"""
import argparse
import os
import signal
import statistics
import subprocess
import tempfile
import time

from confluent_kafka import Consumer, Producer, TopicPartition

def payload_mix(binary, count):
    """The bench payload mix, from the binary itself (`pushgate bench mix`): the same payloads as `bench
    translate` and `bench pipeline`, one per line."""
    out = subprocess.run([binary, "bench", "mix", "--count", str(count)], check=True, capture_output=True).stdout
    lines = out.split(b"\n")[:count]
    if len(lines) != count:
        raise SystemExit(f"{binary} bench mix gave {len(lines)} of {count} payloads")
    return lines


def proc_cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM"):
                return int(line.split()[1]) / 1024
    return 0.0


def measure(binary, bootstrap, group, partitions, total, max_in_flight):
    log = tempfile.TemporaryFile()
    worker = subprocess.Popen([binary, "run", "--bootstrap-servers", bootstrap, "--group-id", group,
                               "--max-in-flight", str(max_in_flight), "--log-level", "error"],
                              stdout=subprocess.DEVNULL, stderr=log)
    observer = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    first = None
    deadline = time.monotonic() + 300
    committed = 0
    try:
        while time.monotonic() < deadline:
            time.sleep(0.02)
            if worker.poll() is not None:
                log.seek(0)
                error = log.read().decode(errors="replace").strip()
                raise SystemExit(f"{binary}: the worker exited with {worker.returncode} before committing the input:"
                                 f" {error[-500:]}")
            committed = sum(max(tp.offset, 0) for tp in observer.committed(partitions, timeout=5))
            if committed > 0 and first is None:
                first = (proc_cpu_seconds(worker.pid), committed)
            if committed >= total:
                break
        cpu = proc_cpu_seconds(worker.pid)
        rss = proc_peak_rss_mb(worker.pid)
    finally:
        observer.close()
        worker.send_signal(signal.SIGTERM)
        worker.wait(60)
        log.close()
    if first is None or committed < total:
        raise SystemExit(f"{binary}: {committed} of {total} committed in 300 s")
    if committed - first[1] < total // 4:
        raise SystemExit(f"{binary}: the first commit already covered {first[1]} of {total} records, too few are"
                         " left to measure: raise --records")
    return (cpu - first[0]) / (committed - first[1]) * 1e6, rss


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", required=True, metavar="NAME=BINARY")
    parser.add_argument("--records", type=int, default=150_000)
    parser.add_argument("--partitions", type=int, default=32)
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--max-in-flight", type=int, default=4000)
    parser.add_argument("--mix-from", metavar="BINARY",
                        help="the pushgate binary that prints the payload mix (default: the last variant's)")
    args = parser.parse_args()
    variants = [entry.split("=", 1) for entry in args.variant]
    broker = subprocess.Popen([variants[0][1], "broker", "--partitions", str(args.partitions)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    bootstrap = broker.stdout.readline().strip()
    try:
        payloads = payload_mix(args.mix_from or variants[-1][1], args.records)
        producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 20})
        for i in range(args.records):
            while True:
                try:
                    producer.produce("push.unified", payloads[i],
                                     key=b"user-%d" % (i % 1000), headers=[("trace-id", b"t%d" % i)])
                    break
                except BufferError:
                    producer.poll(0.05)
            producer.poll(0)
        producer.flush(120)
        partitions = [TopicPartition("push.unified", p) for p in range(args.partitions)]
        probe = Consumer({"bootstrap.servers": bootstrap, "group.id": "pipeline-ab-probe"})
        total = sum(probe.get_watermark_offsets(tp, timeout=10)[1] for tp in partitions)
        probe.close()
        if total != args.records:
            raise SystemExit(f"the broker holds {total} of {args.records} records (raise --partitions)")
        print(f"pipeline_ab: {total} records on {args.partitions} partitions, broker {bootstrap}, "
              f"--max-in-flight {args.max_in_flight}; CPU us per input between the first and the last commit")
        results = {name: [] for name, _ in variants}
        for run in range(args.runs):
            shift = run % len(variants)
            for name, binary in variants[shift:] + variants[:shift]:
                cpu, rss = measure(binary, bootstrap, f"ab-{name}-{run}", partitions, total, args.max_in_flight)
                results[name].append((cpu, rss))
                print(f"run {run + 1}  {name:12s} {cpu:6.1f} us/input  peak RSS {rss:5.0f} MB", flush=True)
        base = statistics.median(r[0] for r in results[variants[0][0]])
        for name, _ in variants:
            cpu = statistics.median(r[0] for r in results[name])
            rss = statistics.median(r[1] for r in results[name])
            print(f"median {name:12s} {cpu:6.1f} us/input  peak RSS {rss:5.0f} MB  ({cpu / base:.2f} of {variants[0][0]})")
    finally:
        broker.terminate()
        broker.wait(10)


if __name__ == "__main__":
    main()
