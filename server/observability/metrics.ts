import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What this server process counts, for `GET /metrics` (server/observability/metrics-route.ts).
 * One registry per process, which is one instance: a scraper reads each instance and adds them
 * up itself. Labels are a few fixed words or a model service's host, never an id or a path.
 * Every call site is one line: `metrics.<what>(...)`.
 */
export const registry = new Registry();

/** An answer's ending as counted: `stopped` when a person, a retry or a shutdown stopped it. */
export type AnswerEnding = 'complete' | 'incomplete' | 'failed' | 'stopped';

const streamsOpen = new Gauge({ name: 'kraken_streams_open', help: 'Answer and resume streams open on this instance.', registers: [registry] });
const answers = new Counter({
  name: 'kraken_answers_total',
  help: 'Answers written by this instance, by how they ended.',
  labelNames: ['outcome'],
  registers: [registry],
});
const takenOver = new Counter({
  name: 'kraken_answers_taken_over_total',
  help: 'Answers of an instance that was gone, stored incomplete by this one.',
  registers: [registry],
});
const firstEvent = new Histogram({
  name: 'kraken_answer_first_event_seconds',
  help: "Time from a question's arrival to its stream's first event.",
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});
const answerDuration = new Histogram({
  name: 'kraken_answer_duration_seconds',
  help: 'Time from the start of an answer to its being stored.',
  buckets: [0.5, 1, 2.5, 5, 10, 20, 40, 80, 160, 320],
  registers: [registry],
});
const modelErrors = new Counter({
  name: 'kraken_model_errors_total',
  help: 'Answers the model service failed (unreachable, an HTTP error, a broken or malformed stream), by its host.',
  labelNames: ['provider'],
  registers: [registry],
});
const modelLatency = new Histogram({
  name: 'kraken_model_response_seconds',
  help: "Time from a question sent to the model service to its response's head, by its host.",
  labelNames: ['provider'],
  buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
  registers: [registry],
});
const poolWait = new Histogram({
  name: 'kraken_db_pool_acquire_seconds',
  help: 'Time to get a PostgreSQL connection from the pool (waiting for a free one, or opening one).',
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});
const notificationReconnects = new Counter({
  name: 'kraken_answer_notification_reconnects_total',
  help: "Times the live answers' PostgreSQL notification connection was lost and opened again.",
  registers: [registry],
});
const bucketErrors = new Counter({
  name: 'kraken_bucket_errors_total',
  help: 'Object storage (S3) calls that failed, a missing object aside.',
  registers: [registry],
});
const uploadBytes = new Counter({ name: 'kraken_upload_bytes_total', help: 'Bytes of uploads stored.', registers: [registry] });

/** A PostgreSQL pool as far as the metrics read it (pg.Pool). */
export type WatchedPool = { readonly waitingCount: number; connect: (...args: never[]) => unknown };
const pools = new Set<WatchedPool>();
new Gauge({
  name: 'kraken_db_pool_waiting',
  help: 'Queries waiting for a free PostgreSQL connection, in every pool of this instance.',
  registers: [registry],
  collect() {
    this.set([...pools].reduce((sum, pool) => sum + pool.waitingCount, 0));
  },
});

collectDefaultMetrics({ register: registry, prefix: 'kraken_' });

const seconds = (startedMs: number) => (performance.now() - startedMs) / 1000;

/** A model service as named in the metrics: the host of its base URL. */
export const providerOf = (baseUrl: string): string => {
  try {
    return new URL(baseUrl).host || 'unknown';
  } catch {
    return 'unknown';
  }
};

type PoolCallback = (error: Error | undefined, ...rest: unknown[]) => void;

export const metrics = {
  streamOpened: () => streamsOpen.inc(),
  streamClosed: () => streamsOpen.dec(),
  answerEnded: (ending: AnswerEnding, startedMs: number) => {
    answers.inc({ outcome: ending });
    answerDuration.observe(seconds(startedMs));
  },
  answersTakenOver: (count: number) => takenOver.inc(count),
  firstEventSent: (startedMs: number) => firstEvent.observe(seconds(startedMs)),
  modelFailed: (provider: string) => modelErrors.inc({ provider }),
  modelAnswered: (provider: string, startedMs: number) => modelLatency.observe({ provider }, seconds(startedMs)),
  notificationReconnected: () => notificationReconnects.inc(),
  bucketFailed: () => bucketErrors.inc(),
  uploadStored: (bytes: number) => uploadBytes.inc(bytes),
  /**
   * Counts a pool's waiting queries until it is closed, and times each connection it hands out:
   * every query of a pg.Pool asks for one through `connect`, with a callback or for a promise.
   */
  watchPool(pool: WatchedPool): () => void {
    pools.add(pool);
    const connect = pool.connect.bind(pool) as (callback?: PoolCallback) => unknown;
    const timed = (callback?: PoolCallback) => {
      const started = performance.now();
      if (callback) {
        return connect((error, ...rest) => {
          if (!error) poolWait.observe(seconds(started));
          callback(error, ...rest);
        });
      }
      return (connect() as Promise<unknown>).then((client) => {
        poolWait.observe(seconds(started));
        return client;
      });
    };
    pool.connect = timed as WatchedPool['connect'];
    return () => void pools.delete(pool);
  },
};
