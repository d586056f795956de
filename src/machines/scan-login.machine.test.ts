import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { ScanStatus, ScanTicket } from '../contract/wechat';
import { SCAN_DEADLINE_SLACK_MS, SCAN_POLL_INTERVAL_MS, scanLoginMachine, type ScanLoginInput } from './scan-login.machine';

const userInfo = { id: 'u1', username: 'ada@example.com', nickname: 'Ada', avatar: '' };
const LIFETIME = 3 * 60_000;

const start = (options: { answers?: (ScanStatus | Error)[]; open?: () => Promise<ScanTicket>; input?: Partial<ScanLoginInput> } = {}) => {
  const answers = [...(options.answers ?? [])];
  let tickets = 0;
  const calls = {
    openTicket: vi.fn(options.open ?? (async (): Promise<ScanTicket> => ({ id: `scan-${++tickets}`, expiresAt: new Date(Date.now() + LIFETIME).toISOString() }))),
    checkTicket: vi.fn(async (id: string, fingerPrint: string): Promise<ScanStatus> => {
      void id;
      void fingerPrint;
      const next = answers.shift() ?? { status: 'waiting' };
      if (next instanceof Error) throw next;
      return next;
    }),
    signedIn: vi.fn(),
    leave: vi.fn(),
  };
  const actor = createActor(
    scanLoginMachine.provide({
      actors: {
        openTicket: fromPromise(() => calls.openTicket()),
        checkTicket: fromPromise(({ input }) => calls.checkTicket(input.id, input.fingerPrint)),
      },
      actions: {
        signedIn: (_, result) => calls.signedIn(result),
        leave: (_, { to }) => calls.leave(to),
      },
    }),
    {
      input: {
        fingerPrint: 'fp-secret-0000000001',
        origin: 'https://chat.example.com',
        environment: 'prod',
        miniProgram: null,
        returnTo: '/chat',
        ...options.input,
      },
    },
  ).start();
  return { actor, calls };
};

/** Lets timers and the promises they start run. */
const elapse = async (ms: number) => {
  await vi.advanceTimersByTimeAsync(ms);
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('scan login', () => {
  it('opens a ticket with this browser’s fingerprint and shows the entry page link with the scan id', async () => {
    const { actor, calls } = start();
    await elapse(0);
    expect(actor.getSnapshot().matches({ showing: 'waiting' })).toBe(true);
    expect(calls.openTicket).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.link).toBe('https://chat.example.com/?scanid=scan-1');
  });

  it('links to the mini program’s build for the environment when there is a mini program', async () => {
    const miniProgram = { appId: 'wxmini', path: 'pages/scan/index' };
    for (const [environment, build] of [['prod', 'release'], ['qas', 'trial'], ['dev', 'develop'], ['local', 'develop']] as const) {
      const { actor } = start({ input: { miniProgram, environment } });
      await elapse(0);
      const link = actor.getSnapshot().context.link!;
      expect(link).toBe(`weixin://dl/business/?appid=wxmini&path=pages%2Fscan%2Findex&query=scanid%3Dscan-1&env_version=${build}`);
      actor.stop();
    }
  });

  it('polls every 1.5 s with the fingerprint until confirmed, then signs in and leaves', async () => {
    const { actor, calls } = start({ answers: [{ status: 'waiting' }, { status: 'waiting' }, { status: 'confirmed', token: 't-9', userInfo }] });
    await elapse(0);
    await elapse(SCAN_POLL_INTERVAL_MS - 1);
    expect(calls.checkTicket).not.toHaveBeenCalled();
    await elapse(1);
    expect(calls.checkTicket).toHaveBeenCalledWith('scan-1', 'fp-secret-0000000001');
    await elapse(SCAN_POLL_INTERVAL_MS * 2);
    expect(calls.checkTicket).toHaveBeenCalledTimes(3);
    expect(actor.getSnapshot().status).toBe('done');
    expect(calls.signedIn).toHaveBeenCalledWith({ token: 't-9', userInfo });
    expect(calls.leave).toHaveBeenCalledWith('/chat');
  });

  it('expires when the server says so, and a refresh brings a fresh code', async () => {
    const { actor, calls } = start({ answers: [{ status: 'expired' }] });
    await elapse(0);
    await elapse(SCAN_POLL_INTERVAL_MS);
    expect(actor.getSnapshot().matches('expired')).toBe(true);
    await elapse(SCAN_POLL_INTERVAL_MS * 4);
    expect(calls.checkTicket).toHaveBeenCalledTimes(1);
    actor.send({ type: 'refresh' });
    await elapse(0);
    expect(actor.getSnapshot().matches('showing')).toBe(true);
    expect(actor.getSnapshot().context.link).toBe('https://chat.example.com/?scanid=scan-2');
  });

  it('gives up on its own shortly after the ticket’s lifetime if the server never says expired', async () => {
    const { actor, calls } = start({ answers: Array.from({ length: 500 }, () => new Error('offline')) });
    await elapse(0);
    await elapse(LIFETIME + SCAN_DEADLINE_SLACK_MS - SCAN_POLL_INTERVAL_MS);
    expect(actor.getSnapshot().matches('showing')).toBe(true);
    await elapse(SCAN_POLL_INTERVAL_MS);
    expect(actor.getSnapshot().matches('expired')).toBe(true);
    expect(calls.signedIn).not.toHaveBeenCalled();
  });

  it('treats a ticket the server no longer knows as expired', async () => {
    const { actor } = start({ answers: [Object.assign(new Error('Scan id not found'), { status: 404 })] });
    await elapse(SCAN_POLL_INTERVAL_MS);
    expect(actor.getSnapshot().matches('expired')).toBe(true);
  });

  it('says why when no ticket can be had (too many requests) and retries on refresh', async () => {
    let refuse = true;
    const { actor } = start({
      open: async () => {
        if (refuse) throw Object.assign(new Error('Too many scan codes requested. Please wait 60 seconds and try again.'), { status: 429 });
        return { id: 'scan-ok', expiresAt: new Date(Date.now() + LIFETIME).toISOString() };
      },
    });
    await elapse(0);
    expect(actor.getSnapshot().matches('failed')).toBe(true);
    expect(actor.getSnapshot().context.failure).toBe('Too many scan codes requested. Please wait 60 seconds and try again.');
    refuse = false;
    actor.send({ type: 'refresh' });
    await elapse(0);
    expect(actor.getSnapshot().context.link).toBe('https://chat.example.com/?scanid=scan-ok');
  });

  it('stops polling when stopped (the dialog or tab closes)', async () => {
    const { actor, calls } = start();
    await elapse(SCAN_POLL_INTERVAL_MS);
    expect(calls.checkTicket).toHaveBeenCalledTimes(1);
    actor.stop();
    await elapse(SCAN_POLL_INTERVAL_MS * 10);
    expect(calls.checkTicket).toHaveBeenCalledTimes(1);
  });

  it('does not sign in on a "confirmed" without a token', async () => {
    const { actor, calls } = start({ answers: [{ status: 'confirmed' }] });
    await elapse(SCAN_POLL_INTERVAL_MS);
    expect(calls.signedIn).not.toHaveBeenCalled();
    expect(actor.getSnapshot().matches({ showing: 'waiting' })).toBe(true);
  });
});
