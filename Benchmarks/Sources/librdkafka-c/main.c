/*
 * librdkafka-c: the pipeline benchmark's measure of what pushgate's job costs the transport alone.
 *
 * A consumer group member straight on librdkafka that reads the input topic and, for each input,
 * produces exactly the records pushgate's worker writes for it (same topics, keys, headers and values),
 * translated once before the run by the benchmark and read here from a file (--records). Nothing is
 * translated, parsed or copied on the way but what librdkafka does itself (including parsing each
 * input's headers, which the worker forwards), so its CPU per input is the price of consuming,
 * producing and acknowledging pushgate's records.
 *
 * It keeps the worker's discipline: the producer is configured by the benchmark with the worker's
 * settings (-P, applied in order: idempotence, acks=all, its partitioner and record size limit, one
 * produce request in flight on librdkafka's mock cluster); every record has a delivery report; an
 * input's offset is stored (rd_kafka_offsets_store) only once all its records and all earlier inputs of
 * its partition are acknowledged, and librdkafka commits stored offsets every
 * auto.commit.interval.ms (-C, 500 ms as the worker's commit interval) and at close; at most
 * --max-in-flight inputs wait for acknowledgements (the worker's --max-in-flight). A failed delivery
 * stops it with exit status 1, its input left uncommitted.
 *
 * One thread consumes, produces and serves delivery reports; it sleeps in poll(2) on a pipe that
 * librdkafka writes to when the consumer's or the producer's queue receives something. Like pushgate's
 * consumer (Sources/PushgateKafka/FetcherWakeUp.swift), it wakes librdkafka 2.0.2's fetcher when it stopped on
 * a full queue: once the queue has been near its limit, the next poll that finds it empty seeks the
 * lagging partitions to their positions (otherwise the fetcher waits up to a second).
 *
 * Usage: librdkafka-c --records FILE --input-topic TOPIC [--max-in-flight N]
 *                     [-P key=value]... [-C key=value]...
 * Prints "ready" on standard output once the records are loaded and the clients created; SIGTERM or
 * SIGINT: stop reading, wait for what is in flight, store, commit, leave the group, exit 0.
 *
 * The records file (little-endian, written by pipeline-benchmark):
 *   "PGRECS1\n"
 *   u32 topic count, then each topic: u32 length, bytes
 *   u32 partition count, then per partition: i64 first offset, u32 input count
 *   then per partition, per input in offset order: u32 record count, then each record:
 *     u32 topic index, i32 key length (-1: none), key, u32 value length, value,
 *     u32 header count, then each header: u32 name length, name, i32 value length (-1: none), value
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <librdkafka/rdkafka.h>

#define NOT_READ UINT32_MAX

static volatile sig_atomic_t stopping = 0;
static int wake_pipe[2] = {-1, -1};

/* One input partition: where each input's records are in the file, and its inputs in flight. */
typedef struct {
    int64_t first_offset;
    uint32_t count;
    const uint8_t **inputs;     /* per input: its record count, then its records */
    uint32_t *remaining;        /* per input: records not yet acknowledged; NOT_READ before it is read */
    uint32_t next;              /* the first input not yet finished (all before it are) */
    int dirty;                  /* next moved since the last offsets store */
} partition_t;

static partition_t *partitions;
static uint32_t partition_count;
static rd_kafka_topic_t **topics;
static uint32_t topic_count;
static long inputs_in_flight;
static long failures;
static rd_kafka_t *consumer;
static const char *input_topic;

/* The fetcher wake-up (FetcherWakeUp.swift): the queue's limits, from the consumer's settings. */
static long near_full_count, near_full_bytes;
static double average_record_bytes = 512;
static int was_near_full;

static long setting(rd_kafka_t *client, const char *name, long fallback) {
    char value[32];
    size_t size = sizeof value;
    if (rd_kafka_conf_get(rd_kafka_conf(client), name, value, &size) != RD_KAFKA_CONF_OK) return fallback;
    return atol(value);
}

static void die(const char *what, const char *detail) {
    fprintf(stderr, "librdkafka-c: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

static void on_signal(int signal) {
    (void)signal;
    stopping = 1;
    char byte = 's';
    if (write(wake_pipe[1], &byte, 1) < 0) { /* the pipe is full: poll wakes anyway */ }
}

static uint32_t read_u32(const uint8_t **cursor) {
    uint32_t value;
    memcpy(&value, *cursor, 4);
    *cursor += 4;
    return value;
}

static int32_t read_i32(const uint8_t **cursor) { return (int32_t)read_u32(cursor); }

static int64_t read_i64(const uint8_t **cursor) {
    int64_t value;
    memcpy(&value, *cursor, 8);
    *cursor += 8;
    return value;
}

/* Moves past one record of the file without reading its bytes. */
static void skip_record(const uint8_t **cursor) {
    *cursor += 4;
    int32_t key_length = read_i32(cursor);
    if (key_length > 0) *cursor += key_length;
    *cursor += read_u32(cursor);
    uint32_t headers = read_u32(cursor);
    for (uint32_t index = 0; index < headers; index++) {
        *cursor += read_u32(cursor);
        int32_t value_length = read_i32(cursor);
        if (value_length > 0) *cursor += value_length;
    }
}

/* Reads the whole file and indexes its inputs; the bytes stay in memory for the whole run. */
static void load_records(const char *path, rd_kafka_t *producer) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) die("cannot open the records file", strerror(errno));
    struct stat status;
    if (fstat(fd, &status) != 0) die("cannot stat the records file", strerror(errno));
    uint8_t *bytes = malloc((size_t)status.st_size);
    if (!bytes) die("out of memory", NULL);
    size_t done = 0;
    while (done < (size_t)status.st_size) {
        ssize_t got = read(fd, bytes + done, (size_t)status.st_size - done);
        if (got <= 0) die("cannot read the records file", strerror(errno));
        done += (size_t)got;
    }
    close(fd);
    if (status.st_size < 8 || memcmp(bytes, "PGRECS1\n", 8) != 0) die("not a records file", path);
    const uint8_t *cursor = bytes + 8;

    topic_count = read_u32(&cursor);
    topics = calloc(topic_count, sizeof *topics);
    for (uint32_t index = 0; index < topic_count; index++) {
        uint32_t length = read_u32(&cursor);
        char name[512];
        if (length >= sizeof name) die("topic name too long", NULL);
        memcpy(name, cursor, length);
        name[length] = 0;
        cursor += length;
        topics[index] = rd_kafka_topic_new(producer, name, NULL);
        if (!topics[index]) die("cannot create a topic object", rd_kafka_err2str(rd_kafka_last_error()));
    }

    partition_count = read_u32(&cursor);
    partitions = calloc(partition_count, sizeof *partitions);
    for (uint32_t index = 0; index < partition_count; index++) {
        partitions[index].first_offset = read_i64(&cursor);
        partitions[index].count = read_u32(&cursor);
    }
    for (uint32_t index = 0; index < partition_count; index++) {
        partition_t *partition = &partitions[index];
        partition->inputs = malloc(sizeof *partition->inputs * (partition->count + 1));
        partition->remaining = malloc(sizeof *partition->remaining * (partition->count + 1));
        for (uint32_t input = 0; input < partition->count; input++) {
            partition->inputs[input] = cursor;
            partition->remaining[input] = NOT_READ;
            uint32_t records = read_u32(&cursor);
            for (uint32_t record = 0; record < records; record++) skip_record(&cursor);
        }
    }
    if (cursor != bytes + status.st_size) die("the records file has trailing or missing bytes", path);
}

/* Stores the offset of every partition whose first unfinished input moved. */
static void store_offsets(void) {
    rd_kafka_topic_partition_list_t *list = NULL;
    for (uint32_t index = 0; index < partition_count; index++) {
        partition_t *partition = &partitions[index];
        if (!partition->dirty) continue;
        partition->dirty = 0;
        if (!list) list = rd_kafka_topic_partition_list_new(8);
        rd_kafka_topic_partition_list_add(list, input_topic, (int32_t)index)->offset =
            partition->first_offset + partition->next;
    }
    if (!list) return;
    rd_kafka_resp_err_t error = rd_kafka_offsets_store(consumer, list);
    if (error) fprintf(stderr, "librdkafka-c: offsets store: %s\n", rd_kafka_err2str(error));
    rd_kafka_topic_partition_list_destroy(list);
}

/* An input is finished: the partition's first unfinished input moves past every finished one. */
static void finish_input(partition_t *partition) {
    inputs_in_flight--;
    uint32_t next = partition->next;
    while (next < partition->count && partition->remaining[next] == 0) next++;
    if (next != partition->next) {
        partition->next = next;
        partition->dirty = 1;
    }
}

/* The delivery report of one record: its opaque is the input's partition and index. */
static void on_delivery(rd_kafka_t *producer, const rd_kafka_message_t *message, void *opaque) {
    (void)producer;
    (void)opaque;
    uintptr_t tag = (uintptr_t)message->_private;
    partition_t *partition = &partitions[tag >> 32];
    uint32_t input = (uint32_t)(tag & 0xffffffffu);
    if (message->err) {
        if (failures++ == 0)
            fprintf(stderr, "librdkafka-c: delivery to %s failed: %s\n", rd_kafka_topic_name(message->rkt),
                    rd_kafka_err2str(message->err));
        stopping = 1;
        return;
    }
    if (--partition->remaining[input] == 0) finish_input(partition);
}

static void on_error(rd_kafka_t *client, int error, const char *reason, void *opaque) {
    (void)opaque;
    fprintf(stderr, "librdkafka-c: %s: %s\n", rd_kafka_err2name((rd_kafka_resp_err_t)error), reason);
    if (rd_kafka_fatal_error(client, NULL, 0)) {
        failures++;
        stopping = 1;
    }
}

/* Before polling: whether the consumer's queue is near the limit where the fetcher stops. */
static void measure_queue(rd_kafka_queue_t *queue) {
    long length = (long)rd_kafka_queue_length(queue);
    if (length >= near_full_count || (double)length * average_record_bytes >= (double)near_full_bytes) was_near_full = 1;
}

/* A poll found nothing although there was room: after a near-full queue, seek every assigned partition
 * with records left on the broker to its position, which wakes the fetcher (the queue is empty, so
 * nothing is dropped). */
static void wake_fetcher(rd_kafka_queue_t *queue) {
    if (!was_near_full || rd_kafka_queue_length(queue) != 0) return;
    was_near_full = 0;
    rd_kafka_topic_partition_list_t *assigned = NULL;
    if (rd_kafka_assignment(consumer, &assigned) || !assigned) return;
    if (assigned->cnt > 0 && !rd_kafka_position(consumer, assigned)) {
        rd_kafka_topic_partition_list_t *lagging = rd_kafka_topic_partition_list_new(assigned->cnt);
        for (int index = 0; index < assigned->cnt; index++) {
            rd_kafka_topic_partition_t *entry = &assigned->elems[index];
            int64_t low, high;
            if (entry->offset >= 0 &&
                !rd_kafka_get_watermark_offsets(consumer, entry->topic, entry->partition, &low, &high) && high > entry->offset)
                rd_kafka_topic_partition_list_add(lagging, entry->topic, entry->partition)->offset = entry->offset;
        }
        if (lagging->cnt > 0) {
            rd_kafka_error_t *error = rd_kafka_seek_partitions(consumer, lagging, 1000);
            if (error) rd_kafka_error_destroy(error);
        }
        rd_kafka_topic_partition_list_destroy(lagging);
    }
    rd_kafka_topic_partition_list_destroy(assigned);
}

/* Produces one input's records, waiting for room in librdkafka's queue when it is full. */
/* Sizes of the input headers read, so that reading them is not optimized away. */
static size_t input_header_bytes = 0;

/* The input's headers, parsed by librdkafka, as the worker has them parsed: it forwards them with every
 * record it writes for the input (here they are in the records file already). */
static void read_input_headers(const rd_kafka_message_t *message) {
    rd_kafka_headers_t *headers;
    if (rd_kafka_message_headers(message, &headers) != RD_KAFKA_RESP_ERR_NO_ERROR) return;
    const char *name;
    const void *value;
    size_t size;
    for (size_t index = 0; rd_kafka_header_get_all(headers, index, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; index++)
        input_header_bytes += size + strlen(name);
}

static void produce_input(rd_kafka_t *producer, const rd_kafka_message_t *message) {
    int32_t partition_index = message->partition;
    if (partition_index < 0 || (uint32_t)partition_index >= partition_count) die("input from an unknown partition", NULL);
    partition_t *partition = &partitions[partition_index];
    int64_t index64 = message->offset - partition->first_offset;
    if (index64 < 0 || index64 >= partition->count) die("input at an offset the records file does not have", NULL);
    uint32_t input = (uint32_t)index64;
    const uint8_t *cursor = partition->inputs[input];
    uint32_t records = read_u32(&cursor);
    /* An input read again after a rebalance has its records written again (at least once). */
    uint32_t previous = partition->remaining[input];
    if (previous == NOT_READ || previous == 0) {
        inputs_in_flight++;
        partition->remaining[input] = records;
        if (records == 0) {
            finish_input(partition);
            return;
        }
    } else {
        partition->remaining[input] = previous + records;
    }
    void *tag = (void *)(((uintptr_t)partition_index << 32) | input);
    for (uint32_t record = 0; record < records; record++) {
        uint32_t topic = read_u32(&cursor);
        int32_t key_length = read_i32(&cursor);
        const uint8_t *key = key_length >= 0 ? cursor : NULL;
        if (key_length > 0) cursor += key_length;
        uint32_t value_length = read_u32(&cursor);
        const uint8_t *value = cursor;
        cursor += value_length;
        uint32_t header_count = read_u32(&cursor);
        rd_kafka_headers_t *headers = rd_kafka_headers_new(header_count);
        for (uint32_t header = 0; header < header_count; header++) {
            uint32_t name_length = read_u32(&cursor);
            const char *name = (const char *)cursor;
            cursor += name_length;
            int32_t header_length = read_i32(&cursor);
            rd_kafka_header_add(headers, name, (ssize_t)name_length, header_length >= 0 ? cursor : NULL,
                                header_length >= 0 ? header_length : 0);
            if (header_length > 0) cursor += header_length;
        }
        for (;;) {
            rd_kafka_resp_err_t error = rd_kafka_producev(
                producer, RD_KAFKA_V_RKT(topics[topic]), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                RD_KAFKA_V_KEY(key, key ? (size_t)key_length : 0), RD_KAFKA_V_VALUE((void *)value, value_length),
                RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_OPAQUE(tag), RD_KAFKA_V_END);
            if (!error) break;  /* librdkafka owns the headers now */
            if (error != RD_KAFKA_RESP_ERR__QUEUE_FULL) die("produce failed", rd_kafka_err2str(error));
            rd_kafka_poll(producer, 10);  /* delivery reports make room */
            store_offsets();
        }
    }
}

static void set_property(rd_kafka_conf_t *configuration, const char *entry) {
    const char *equals = strchr(entry, '=');
    if (!equals) die("a property is not key=value", entry);
    char key[256];
    size_t length = (size_t)(equals - entry);
    if (length >= sizeof key) die("property name too long", entry);
    memcpy(key, entry, length);
    key[length] = 0;
    char error[512];
    if (rd_kafka_conf_set(configuration, key, equals + 1, error, sizeof error) != RD_KAFKA_CONF_OK) die("invalid property", error);
}

int main(int argc, char **argv) {
    const char *records_path = NULL;
    long max_in_flight = 4000;
    rd_kafka_conf_t *producer_configuration = rd_kafka_conf_new();
    rd_kafka_conf_t *consumer_configuration = rd_kafka_conf_new();
    for (int index = 1; index < argc; index++) {
        const char *option = argv[index];
        if (index + 1 >= argc) die("missing value of", option);
        const char *value = argv[++index];
        if (strcmp(option, "--records") == 0) records_path = value;
        else if (strcmp(option, "--input-topic") == 0) input_topic = value;
        else if (strcmp(option, "--max-in-flight") == 0) max_in_flight = atol(value);
        else if (strcmp(option, "-P") == 0) set_property(producer_configuration, value);
        else if (strcmp(option, "-C") == 0) set_property(consumer_configuration, value);
        else die("unknown option", option);
    }
    if (!records_path || !input_topic || max_in_flight < 1) die("usage: librdkafka-c --records FILE --input-topic TOPIC [--max-in-flight N] [-P k=v]... [-C k=v]...", NULL);

    /* The signals may come blocked from the parent (a Swift program spawns this one); librdkafka's
     * threads, created below, block them, so they reach this thread. */
    struct sigaction action = {.sa_handler = on_signal};
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_UNBLOCK, &signals, NULL);
    if (pipe2(wake_pipe, O_NONBLOCK | O_CLOEXEC) != 0) die("pipe", strerror(errno));

    char error[512];
    rd_kafka_conf_set_dr_msg_cb(producer_configuration, on_delivery);
    rd_kafka_conf_set_error_cb(producer_configuration, on_error);
    rd_kafka_t *producer = rd_kafka_new(RD_KAFKA_PRODUCER, producer_configuration, error, sizeof error);
    if (!producer) die("cannot create the producer", error);
    rd_kafka_conf_set_error_cb(consumer_configuration, on_error);
    consumer = rd_kafka_new(RD_KAFKA_CONSUMER, consumer_configuration, error, sizeof error);
    if (!consumer) die("cannot create the consumer", error);
    rd_kafka_poll_set_consumer(consumer);
    /* librdkafka checks its limits before each fetch: a queue at three quarters of either may be over
     * it by the time the next response is in. */
    near_full_bytes = setting(consumer, "queued.max.messages.kbytes", 65536) * 1024 * 3 / 4;
    near_full_count = setting(consumer, "queued.min.messages", 100000) * 3 / 4;
    load_records(records_path, producer);

    rd_kafka_queue_t *consumer_queue = rd_kafka_queue_get_consumer(consumer);
    rd_kafka_queue_t *producer_queue = rd_kafka_queue_get_main(producer);
    rd_kafka_queue_io_event_enable(consumer_queue, wake_pipe[1], "c", 1);
    rd_kafka_queue_io_event_enable(producer_queue, wake_pipe[1], "p", 1);

    rd_kafka_topic_partition_list_t *subscription = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(subscription, input_topic, RD_KAFKA_PARTITION_UA);
    rd_kafka_resp_err_t subscribed = rd_kafka_subscribe(consumer, subscription);
    rd_kafka_topic_partition_list_destroy(subscription);
    if (subscribed) die("cannot subscribe", rd_kafka_err2str(subscribed));
    printf("ready\n");
    fflush(stdout);

    while (!stopping) {
        int progressed = rd_kafka_poll(producer, 0) > 0;
        while (!stopping && inputs_in_flight < max_in_flight) {
            measure_queue(consumer_queue);
            rd_kafka_message_t *message = rd_kafka_consumer_poll(consumer, 0);
            if (!message) {
                wake_fetcher(consumer_queue);
                break;
            }
            progressed = 1;
            average_record_bytes = average_record_bytes * 0.99 + (double)message->len * 0.01;
            if (message->err) {
                if (message->err != RD_KAFKA_RESP_ERR__PARTITION_EOF)
                    fprintf(stderr, "librdkafka-c: consume: %s\n", rd_kafka_message_errstr(message));
            } else {
                read_input_headers(message);
                produce_input(producer, message);
            }
            rd_kafka_message_destroy(message);
        }
        store_offsets();
        if (!progressed) {
            struct pollfd wait = {.fd = wake_pipe[0], .events = POLLIN};
            poll(&wait, 1, 100);
            char drain[64];
            while (read(wake_pipe[0], drain, sizeof drain) > 0) {}
        }
    }

    /* Stop: every record in flight acknowledged (or 30 s), the last offsets stored, then close, which
     * commits them and leaves the group. */
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (rd_kafka_outq_len(producer) > 0) {
        rd_kafka_poll(producer, 50);
        store_offsets();
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec > 30) {
            fprintf(stderr, "librdkafka-c: %d records still in flight after 30 s; they stay uncommitted\n", rd_kafka_outq_len(producer));
            break;
        }
    }
    store_offsets();
    rd_kafka_queue_destroy(consumer_queue);
    rd_kafka_queue_destroy(producer_queue);
    rd_kafka_resp_err_t closed = rd_kafka_consumer_close(consumer);
    if (closed) fprintf(stderr, "librdkafka-c: consumer close: %s\n", rd_kafka_err2str(closed));
    rd_kafka_destroy(consumer);
    for (uint32_t index = 0; index < topic_count; index++) rd_kafka_topic_destroy(topics[index]);
    rd_kafka_destroy(producer);
    return failures ? 1 : 0;
}
