import { randomUUID } from 'node:crypto';
import { and, eq, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { failureReference } from '../../src/contract/agent-failure';
import type { Db } from '../db/client';
import { conversations, messages } from '../db/schema';
import { metrics } from '../observability/metrics';
import { leaseLapsed, renewAnswerLeases, takeOverAnswers } from './answer-leases';
import { takenOverAnswers, type AnswerOutcome, type AnswerReader, type AnswerUpdate, type Following, type LiveAnswer, type LiveAnswers, type LocalAnswer } from './live-answers';

/**
 * What instances tell each other, as PostgreSQL notifications. On an answer's channel: `d` a
 * piece of text and the offset it starts at, `s` how the answer ended, `y` the writer's reply to
 * a reader's `sync` (the text up to `n` is saved in the row; `n: -1`: not written there). On an
 * instance's channel, `c`: a command to the instance writing the answer.
 */
type Note =
  | { k: 'd'; m: string; o: number; t: string }
  | { k: 's'; m: string; x: AnswerOutcome }
  | { k: 'y'; m: string; f: string; n: number }
  | { k: 'c'; m: string; c: 'stop' | 'sync' | 'unwatch'; f: string };

/** PostgreSQL refuses a notification payload of 8000 bytes or more. */
const PAYLOAD_MAX_BYTES = 7900;
/** Notifications sent in one statement. */
const BATCH_MAX = 200;

const answerChannel = (messageId: string) => `kraken_answer_${messageId}`;
const instanceChannel = (instanceId: string) => `kraken_instance_${instanceId}`;

export type PgLiveAnswersOptions = {
  databaseUrl: string;
  db: Db;
  instanceId: string;
  leaseMs: number;
  /** How often the leases of the answers written here are renewed (all in one statement). */
  leaseRenewMs: number;
  /** Pieces of one answer written within this time go out as one notification. */
  coalesceMs?: number;
  log: (line: string) => void;
};

type Row = {
  id: string;
  questionId: string | null;
  conversationId: string;
  status: string;
  leaseOwner: string | null;
  lapsed: boolean;
  ownerUserId: string | null;
  ownerVisitorId: string | null;
};

/** A delta split so that each notification stays under the payload limit (never inside a surrogate pair). */
function deltaNotes(m: string, o: number, t: string): Note[] {
  const note: Note = { k: 'd', m, o, t };
  if (t.length < 2 || Buffer.byteLength(JSON.stringify(note)) <= PAYLOAD_MAX_BYTES) return [note];
  let half = Math.floor(t.length / 2);
  const code = t.charCodeAt(half - 1);
  if (code >= 0xd800 && code <= 0xdbff) half += 1;
  return [...deltaNotes(m, o, t.slice(0, half)), ...deltaNotes(m, o + half, t.slice(half))];
}

const outcomeOfRow = (row: { status: string; error: string | null }): AnswerOutcome =>
  row.status === 'complete'
    ? { status: 'complete' }
    : row.status === 'failed'
      ? { status: 'failed', msg: row.error ?? '', ref: failureReference(row.error) ?? '' }
      : { status: 'incomplete' };

/**
 * The answers of every instance on one PostgreSQL. The instance writing an answer sends its
 * pieces, with their offsets, as notifications on the answer's channel; a reader elsewhere listens
 * there (one connection per instance, shared by all its readers), asks the writer to save the text
 * so far, starts from the saved row and goes on with the pieces after it, so nothing is lost or
 * doubled. Stop goes to the writer as a command; a writer gone (its lease lapsed) is replaced by
 * storing the answer incomplete with its saved text.
 */
export async function pgLiveAnswers(options: PgLiveAnswersOptions): Promise<LiveAnswers> {
  const { db, instanceId, leaseMs, log } = options;
  const coalesceMs = options.coalesceMs ?? 25;
  let client: pg.Client;

  const local = new Map<string, LocalAnswer>();
  /** Readers elsewhere that follow an answer written here: they keep it from counting as unwatched. */
  const watchers = new Map<string, { messageId: string; unfollow: () => void }>();
  const listeners = new Map<string, Set<(note: Note) => void>>();
  /** One per reader here of an answer written elsewhere: reads its row (see `followRemote`). */
  const checks = new Set<() => Promise<void>>();
  let closed = false;

  // Every notification of this instance goes out on this one connection, in order: a reader
  // receives an answer's pieces in the order they were written.
  let outbox: [string, string][] = [];
  let sending: Promise<void> = Promise.resolve();
  const post = (channel: string, note: Note) => void outbox.push([channel, JSON.stringify(note)]);
  const send = (): Promise<void> => {
    const batch = outbox;
    outbox = [];
    for (let i = 0; i < batch.length; i += BATCH_MAX) {
      const part = batch.slice(i, i + BATCH_MAX);
      const calls = part.map((_, n) => `pg_notify($${2 * n + 1}, $${2 * n + 2})`).join(', ');
      sending = sending
        .then(() => client.query(`select ${calls}`, part.flat()))
        .then(() => undefined)
        .catch((error: unknown) => log(`answers: a notification failed: ${(error as Error).message}`));
    }
    return sending;
  };

  /** Pieces not yet sent, one run of text per answer. */
  const pending = new Map<string, { o: number; t: string }>();
  let coalescing: ReturnType<typeof setTimeout> | null = null;
  const flush = (messageId?: string) => {
    for (const [m, run] of pending) {
      if (messageId && m !== messageId) continue;
      for (const note of deltaNotes(m, run.o, run.t)) post(answerChannel(m), note);
      pending.delete(m);
    }
  };

  const command = (owner: string, note: Note) => {
    post(instanceChannel(owner), note);
    return send();
  };

  const obey = async (note: Extract<Note, { k: 'c' }>) => {
    const answer = local.get(note.m);
    if (note.c === 'unwatch') {
      watchers.get(note.f)?.unfollow();
      watchers.delete(note.f);
      return;
    }
    if (!answer) {
      post(answerChannel(note.m), { k: 'y', m: note.m, f: note.f, n: -1 });
      await send();
      return;
    }
    if (note.c === 'stop') {
      await answer.stop();
      return;
    }
    // A reader elsewhere starts from the stored row, which holds all text shown so far (an
    // answer's text is stored before it is shown), then goes on with the pieces after it.
    const { text } = answer.read();
    const { unfollow } = answer.followNow(text.length, () => {});
    watchers.set(note.f, { messageId: note.m, unfollow });
    flush(note.m);
    post(answerChannel(note.m), { k: 'y', m: note.m, f: note.f, n: text.length });
    await send();
  };

  const hear = (message: pg.Notification) => {
    let note: Note;
    try {
      note = JSON.parse(message.payload ?? '') as Note;
    } catch {
      return;
    }
    if (note.k === 'c') {
      void obey(note).catch((error: unknown) => log(`answers: a command failed: ${(error as Error).message}`));
      return;
    }
    for (const listener of [...(listeners.get(note.m) ?? [])]) listener(note);
  };

  /**
   * The connection every notification of this instance goes through. Lost (a database restart),
   * it is opened again and listens where it listened; readers of other instances' answers may miss
   * pieces meanwhile, and are given the stored text after what they have when the answer ends.
   */
  const connect = async (): Promise<void> => {
    // Named so an operator sees in pg_stat_activity which instance it belongs to.
    const next = new pg.Client({ connectionString: options.databaseUrl, application_name: `kraken answers ${instanceId}`.slice(0, 63) });
    let lost = false;
    const reconnect = (error?: Error) => {
      if (lost || closed || client !== next) return;
      lost = true;
      metrics.notificationReconnected();
      log(`answers: the notification connection was lost${error ? ` (${error.message})` : ''}; connecting again`);
      const retry = () =>
        void connect().catch((failure: unknown) => {
          log(`answers: connecting again failed: ${(failure as Error).message}`);
          if (!closed) setTimeout(retry, 1000).unref?.();
        });
      setTimeout(retry, 200).unref?.();
    };
    next.on('error', reconnect);
    next.on('end', () => reconnect());
    next.on('notification', hear);
    await next.connect();
    const channels = [instanceChannel(instanceId), ...[...listeners.keys()].map(answerChannel)];
    for (const channel of channels) await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
    const again = client !== undefined;
    client = next;
    // Notifications sent while the connection was down are lost: every reader reads its row.
    if (again) for (const check of [...checks]) void check();
  };
  await connect();

  // The leases of the answers written here are renewed on this connection, not through the pool:
  // an instance busy enough that its pool has a queue is alive all the same, and an answer
  // taken over only because its renewal waited in that queue would be cut for its readers.
  const renewing = setInterval(() => {
    if (local.size === 0) return;
    const { sql: text, params } = renewAnswerLeases(db, instanceId, leaseMs).toSQL();
    const writing = [...local.values()];
    void client
      .query<{ id: string }>(text, params)
      .then((result) => {
        // An answer written here whose row is no longer this instance's was taken over: fenced off.
        const held = new Set(result.rows.map((row) => row.id));
        for (const answer of writing) if (!held.has(answer.messageId)) answer.fenced();
      })
      .catch((error: unknown) => log(`answers: renewing the leases failed: ${(error as Error).message}`));
  }, options.leaseRenewMs);
  renewing.unref?.();

  const subscribe = async (messageId: string, listener: (note: Note) => void) => {
    let set = listeners.get(messageId);
    if (!set) {
      set = new Set();
      listeners.set(messageId, set);
      set.add(listener);
      await client.query(`LISTEN ${client.escapeIdentifier(answerChannel(messageId))}`);
      return;
    }
    set.add(listener);
    // LISTEN of the first listener may still be on its way: queries on one connection run in order.
    await client.query('select 1');
  };
  const unsubscribe = (messageId: string, listener: (note: Note) => void) => {
    const set = listeners.get(messageId);
    if (!set?.delete(listener) || set.size > 0) return;
    listeners.delete(messageId);
    if (!closed) void client.query(`UNLISTEN ${client.escapeIdentifier(answerChannel(messageId))}`).catch(() => {});
  };

  const readStored = async (messageId: string) => {
    const [row] = await db
      .select({ content: messages.content, status: messages.status, error: messages.error })
      .from(messages)
      .where(eq(messages.id, messageId));
    return row ?? { content: '', status: 'incomplete', error: null };
  };

  const taken = takenOverAnswers();
  /**
   * Stores incomplete the answers whose writer is gone; unless they were stopped by a person
   * (`continuing: false`), each may be written on here, and its readers elsewhere then follow the
   * continuation; the others' readers are told it ended. Answers how many, and those written on.
   */
  const takeOver = async (messageId?: string, everyOther = false, continuing = true): Promise<{ count: number; continued: Map<string, LocalAnswer> }> => {
    const ids = await takeOverAnswers(db, instanceId, { everyOther, ...(messageId ? { messageId } : {}) });
    if (ids.length > 0) log(`answers: ${ids.length} answer(s) whose writer was gone stored incomplete: ${ids.join(', ')}`);
    const continued = continuing ? await taken.hand(ids) : new Map<string, LocalAnswer>();
    for (const m of ids) if (!continued.has(m)) post(answerChannel(m), { k: 's', m, x: { status: 'incomplete' } });
    if (ids.length > continued.size) await send();
    return { count: ids.length, continued };
  };

  /** Follows an answer another instance writes: from its saved row, then its pieces as they come. */
  const followRemote = async (row: Row, offset: number, reader: AnswerReader): Promise<Following> => {
    const f = randomUUID();
    const held: Note[] = [];
    let live = false;
    let over = false;
    let length = 0;
    let ready: () => void = () => {};
    const synced = new Promise<void>((resolve) => (ready = resolve));

    const settle = async (outcome: AnswerOutcome | null) => {
      if (over) return;
      over = true;
      clearInterval(checking);
      checks.delete(check);
      unsubscribe(row.id, listener);
      const stored = await readStored(row.id);
      if (stored.content.length > length) reader({ type: 'delta', text: stored.content.slice(length) });
      length = Math.max(length, stored.content.length);
      reader({ type: 'settled', outcome: outcome ?? outcomeOfRow(stored) });
    };
    /**
     * Reads the row: text stored past what the reader has is given (stored text is all text any
     * reader was shown, so it is safe to show), and an answer no longer streaming is settled. Run
     * when pieces were missed, after the notification connection was lost, and every lease
     * while following: a writer whose last notification never went out (its own connection was
     * down) cannot leave this reader waiting for ever.
     */
    const check = async () => {
      if (over || !live) return;
      const stored = await readStored(row.id).catch(() => null);
      if (!stored || over) return;
      if (stored.content.length > length) {
        reader({ type: 'delta', text: stored.content.slice(length) });
        length = stored.content.length;
      }
      if (stored.status !== 'streaming') void settle(outcomeOfRow(stored));
    };
    const checking = setInterval(() => void check(), leaseMs);
    checking.unref?.();
    const apply = (note: Note) => {
      if (over) return;
      if (note.k === 'd') {
        const end = note.o + note.t.length;
        if (end <= length) return;
        if (note.o > length) {
          // Pieces were missed (the connection was lost): the stored text holds them.
          log(`answers: a reader of ${row.id} missed text after ${length} characters; reading it from the database`);
          void check();
          return;
        }
        reader({ type: 'delta', text: note.t.slice(length - note.o) });
        length = end;
        return;
      }
      if (note.k === 's') void settle(note.x);
      else if (note.k === 'y' && note.f === f && note.n < 0) {
        // The writer no longer has it: stored meanwhile, or about to be taken over by a sweep.
        void readStored(row.id).then((stored) => {
          if (stored.status !== 'streaming' && !over) void settle(outcomeOfRow(stored));
        });
      }
    };
    const listener = (note: Note) => {
      if (live) return apply(note);
      held.push(note);
      if ((note.k === 'y' && note.f === f) || note.k === 's') ready();
    };

    let stored: Awaited<ReturnType<typeof readStored>>;
    try {
      await subscribe(row.id, listener);
      await command(row.leaseOwner ?? '', { k: 'c', m: row.id, c: 'sync', f });
      // A writer silent for a lease is gone or cut off: start from what it saved; the sweep ends it.
      const silent = setTimeout(ready, leaseMs);
      await synced;
      clearTimeout(silent);
      stored = await readStored(row.id);
    } catch (error) {
      over = true;
      clearInterval(checking);
      unsubscribe(row.id, listener);
      throw error;
    }
    const from = Math.min(Math.max(0, offset), stored.content.length);
    if (stored.content.length > from) reader({ type: 'delta', text: stored.content.slice(from) });
    length = stored.content.length;
    live = true;
    checks.add(check);
    for (const note of held.splice(0)) apply(note);
    return {
      offset: from,
      unfollow: () => {
        if (over) return;
        over = true;
        clearInterval(checking);
        checks.delete(check);
        unsubscribe(row.id, listener);
        if (row.leaseOwner) void command(row.leaseOwner, { k: 'c', m: row.id, c: 'unwatch', f });
      },
    };
  };

  /** Asks the writer to stop; a writer that does not answer within a lease is gone. */
  const stopRemote = async (row: Row): Promise<void> => {
    const f = randomUUID();
    let done: () => void = () => {};
    const answered = new Promise<void>((resolve) => (done = resolve));
    const listener = (note: Note) => {
      if (note.k === 's' || (note.k === 'y' && note.f === f)) done();
    };
    await subscribe(row.id, listener);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await command(row.leaseOwner ?? '', { k: 'c', m: row.id, c: 'stop', f });
      await Promise.race([answered, new Promise<void>((resolve) => (timer = setTimeout(resolve, leaseMs)))]);
    } finally {
      clearTimeout(timer);
      unsubscribe(row.id, listener);
    }
    await takeOver(row.id, false, false);
  };

  const remote = (row: Row): LiveAnswer => ({
    messageId: row.id,
    questionId: row.questionId ?? '',
    conversationId: row.conversationId,
    owner: row.ownerUserId ? `user:${row.ownerUserId}` : `visitor:${row.ownerVisitorId}`,
    follow: (offset, reader) => followRemote(row, offset, reader),
    stop: () => stopRemote(row),
  });

  /** A streaming answer another instance writes; one whose writer is gone is stored incomplete instead. */
  const findRemote = async (where: SQL): Promise<LiveAnswer | undefined> => {
    const [row] = await db
      .select({
        id: messages.id,
        questionId: messages.parentId,
        conversationId: messages.conversationId,
        status: messages.status,
        leaseOwner: messages.leaseOwner,
        lapsed: leaseLapsed(messages.leaseExpiresAt).mapWith(Boolean),
        ownerUserId: conversations.ownerUserId,
        ownerVisitorId: conversations.ownerVisitorId,
      })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(where)
      .limit(1);
    if (!row || row.status !== 'streaming' || row.leaseOwner === instanceId) return undefined;
    if (row.lapsed) return (await takeOver(row.id)).continued.get(row.id);
    return remote(row as Row);
  };

  return {
    async find(messageId) {
      return local.get(messageId) ?? (await findRemote(eq(messages.id, messageId)));
    },
    async findByQuestion(questionId) {
      const here = [...local.values()].find((answer) => answer.questionId === questionId);
      if (here) return here;
      return findRemote(and(eq(messages.parentId, questionId), eq(messages.role, 'assistant'), eq(messages.status, 'streaming'))!);
    },
    add: (answer) => void local.set(answer.messageId, answer),
    remove: (answer) => {
      if (local.get(answer.messageId) !== answer) return;
      local.delete(answer.messageId);
      for (const [f, watcher] of watchers) if (watcher.messageId === answer.messageId) watchers.delete(f);
    },
    tell(answer: LocalAnswer, update: AnswerUpdate, offset: number) {
      const m = answer.messageId;
      if (update.type === 'settled') {
        flush(m);
        post(answerChannel(m), { k: 's', m, x: update.outcome });
        void send();
        return;
      }
      const run = pending.get(m);
      if (run && run.o + run.t.length === offset) run.t += update.text;
      else {
        flush(m);
        pending.set(m, { o: offset, t: update.text });
      }
      coalescing ??= setTimeout(() => {
        coalescing = null;
        flush();
        void send();
      }, coalesceMs);
    },
    sweep: async (sweepOptions = {}) => (await takeOver(undefined, sweepOptions.everyOther ?? false)).count,
    continueWith: (continuer) => taken.set(continuer),
    async close() {
      closed = true;
      clearInterval(renewing);
      if (coalescing) clearTimeout(coalescing);
      flush();
      await send();
      await client.end().catch(() => {});
    },
  };
}
