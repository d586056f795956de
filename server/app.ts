import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { endpoints } from '../src/contract/endpoints';
import type { AppDeps, Services } from './deps';
import { fail } from './http/envelope';
import { healthRoutes } from './http/health';
import { createCounters } from './limits/counters';
import { ApiError } from './http/errors';
import { newReference } from './http/incident';
import { describeError, safeLog } from './http/log-line';
import { nulGuard } from './http/nul-guard';
import { createDiskStorage } from './media/storage';
import { createTextReader } from './media/text-reader';
import { requestId } from './http/request-id';
import { requestLog } from './http/request-log';
import type { AppEnv } from './http/route';
import { securityHeaders } from './http/security-headers';
import { serveSpa } from './http/spa';
import { compressAnswers } from './http/compression';
import { metricsRoute } from './observability/metrics-route';
import { backupRoute } from './ops/backup-route';
import { exportOnlyPublishing } from './publishing/publishing';
import { accountRoutes } from './routes/accounts';
import { adminRoutes } from './routes/admin';
import { agentRoutes } from './routes/agents';
import { appRoutes, downloadsDirOf } from './routes/app';
import { withAttachmentsRead } from './services/attachment-reading';
import { authRoutes } from './routes/auth';
import { chatRoutes } from './routes/chat';
import { conversationRoutes } from './routes/conversations';
import { mediaRoutes } from './routes/media';
import { taskRoutes } from './routes/tasks';
import { shareRoutes } from './routes/shares';
import { userRoutes } from './routes/users';
import { localLiveAnswers } from './services/live-answers';
import { createModelRegistry } from './models/registry';
import { createRegistryRuntime } from './models/runtime';
import { modelRoutes } from './routes/models';
import { studioRoutes } from './routes/studio';
import { createOpenStreams } from './services/open-streams';
import { continueTakenOver } from './services/takeover-continuation';
import { wechatRoutes } from './wechat/routes';

export type { AppDeps } from './deps';

const textReaderFor = (config: AppDeps['config']) =>
  createTextReader({
    concurrency: config.attachments.readersAtOnce,
    queueMax: config.attachments.readQueueMax,
    timeoutMs: config.attachments.readTimeoutMs,
    heapMb: config.attachments.readHeapMb,
    stopAfterChars: config.attachments.readStopAfterChars,
  });

/** The whole HTTP surface: the API of src/contract/endpoints.ts and, with `spaDir`, the SPA. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const instanceId = deps.instanceId ?? randomUUID();
  const log = safeLog(deps.log ?? ((line) => console.log(line)), { format: deps.config.logFormat, level: deps.config.logLevel, instance: instanceId });
  const models = createModelRegistry({ db: deps.db, clock: deps.clock, config: deps.config });
  const runtime = deps.runtime ?? createRegistryRuntime({ registry: models, sealer: deps.sealer ?? null, config: deps.config });
  const services: Services = {
    db: deps.db,
    config: deps.config,
    clock: deps.clock,
    runtime: withAttachmentsRead(runtime, {
      db: deps.db,
      storage: deps.storage,
      clock: deps.clock,
      limits: deps.config.attachments,
      log: (line) => log(line),
      reader: deps.textReader ?? textReaderFor(deps.config),
    }),
    storage: deps.storage,
    downloads: deps.downloads ?? createDiskStorage(downloadsDirOf(process.env)),
    publishing: deps.publishing ?? exportOnlyPublishing,
    log,
    sleep: deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    counters: createCounters(deps.db, deps.clock),
    streams: createOpenStreams(deps.db, deps.clock, { perIdentity: deps.config.openStreamsPerIdentity, checkMs: deps.config.sessionCheckMs }),
    instanceId,
    sealer: deps.sealer ?? null,
    mailer: deps.mailer ?? null,
    env: deps.env ?? process.env,
    answers: deps.answers ?? localLiveAnswers(),
    storageRoom: deps.storageRoom ?? (async () => null),
    models,
  };
  // An answer taken over from an instance that was gone is written on here (CONTINUE_TAKEN_OVER).
  if (services.config.continueTakenOverMax > 0) services.answers.continueWith((messageId) => continueTakenOver(services, services.answers, messageId));
  const app = new Hono<AppEnv>();

  app.use('*', requestId());
  // Probes and scrapes come every few seconds: before the request log, so they are not in it.
  healthRoutes(app, { db: deps.db, draining: deps.draining ?? (() => false), checks: deps.readiness ?? [] });
  metricsRoute(app, { token: deps.config.metricsToken, trustProxy: deps.config.trustProxy });
  if (deps.backup) backupRoute(app, deps.backup);
  app.use('*', requestLog(services.log, deps.config.logLevel));
  app.use('*', securityHeaders({ hsts: deps.config.hsts }));
  app.use('*', compressAnswers());
  app.use('/api/*', nulGuard);

  const jsonLimit = bodyLimit({
    maxSize: deps.config.jsonBodyLimitBytes,
    onError: (c) => fail(c, 413, `The request body is too large: the limit is ${deps.config.jsonBodyLimitBytes} bytes.`),
  });
  app.use('/api/*', (c, next) => (c.req.path === endpoints.upload.path ? next() : jsonLimit(c, next)));

  agentRoutes(app, services);
  studioRoutes(app, services);
  modelRoutes(app, services);
  conversationRoutes(app, services);
  chatRoutes(app, services, services.answers);
  userRoutes(app, services);
  shareRoutes(app, services);
  mediaRoutes(app, services);
  authRoutes(app, services, wechatRoutes(app, services));
  taskRoutes(app, services);
  accountRoutes(app, services);
  adminRoutes(app, services);
  appRoutes(app, services);

  app.all('/api/*', (c) => fail(c, 404, `No API endpoint ${c.req.method} ${c.req.path}.`));
  if (deps.spaDir) serveSpa(app, deps.spaDir, { sourceMaps: deps.config.serveSourceMaps });

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
      return fail(c, error.status, error.message, error.reason);
    }
    const ref = newReference();
    services.log(`error: ref ${ref}: ${c.req.method} ${c.req.path}: ${describeError(error, deps.config.logLevel)}`, { level: 'error' });
    return fail(c, 500, `Something went wrong on the server. Please try again. (ref ${ref})`);
  });
  return app;
}
