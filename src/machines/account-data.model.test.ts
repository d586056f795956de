import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import type { AccountExport } from '../contract/accounts';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { accountDataMachine } from './account-data.machine';

/**
 * The account's data, on paths generated from the machine that ships: the person downloads all of
 * it (the server answers, fails or cannot be reached) and, beside it, opens the deletion dialog,
 * types the account name wrong or right (with spaces around it), cancels or confirms; the server
 * deletes the account, refuses the last admin, finds the name wrong or fails. Each path is played
 * on the production machine as an actor whose calls wait until the path says how they end, and
 * checked after every step against rules written here: nothing is deleted unless the account name
 * is typed again, a refusal keeps the dialog open with what was typed and says why, the download
 * works with the dialog open, and a deleted account signs the person out once.
 */
type Snapshot = SnapshotFrom<typeof accountDataMachine>;
const USERNAME = 'ada@example.com';
const DOCUMENT: AccountExport = { exportedAt: '2026-03-01T10:00:00.000Z', user: {}, conversations: [], uploads: [], shares: [] };
const answers = actorAnswers(accountDataMachine);
const refusal = (status?: number) => Object.assign(new Error(status ? `status ${status}` : 'offline'), status ? { status } : {});

/** What the typed name must be to delete: the account name, spaces around it aside. */
const TYPED = ['Ada', ` ${USERNAME} `];
const EXPORT_FAILURES: [number | undefined, string][] = [
  [500, 'errors.refusal.server'],
  [undefined, 'errors.refusal.unreachable'],
];
/** Why a deletion was refused, by the server's status: the last admin cannot leave; the name did not match. */
const DELETE_FAILURES: [number | undefined, string][] = [
  [409, 'account.data.lastAdmin'],
  [400, 'account.data.mismatch'],
  [500, 'errors.refusal.server'],
];

const failures = (src: string, list: [number | undefined, string][]) =>
  list.map(([status]): ModelEvent => ({ type: answers.error(src, 0).type, error: refusal(status) }));
const EVENTS: ModelEvent[] = [
  { type: 'export' },
  answers.done('exportAccount', DOCUMENT),
  ...failures('exportAccount', EXPORT_FAILURES),
  { type: 'delete.open' },
  { type: 'delete.cancel' },
  ...TYPED.map((value): ModelEvent => ({ type: 'confirm.change', value })),
  { type: 'delete.confirm' },
  answers.done('deleteAccount'),
  ...failures('deleteAccount', DELETE_FAILURES),
];
const serializeState = (state: Snapshot) => JSON.stringify([state.value, state.context]);
const { paths, transitionCount, reachedStates } = productionPaths(accountDataMachine, { events: EVENTS, input: { username: USERNAME }, serializeState });

const describePath = (events: ModelEvent[]) =>
  events
    .map((event) => {
      if (event.type === 'confirm.change') return `typed ${JSON.stringify(event.value)}`;
      const src = answers.srcOf(event);
      if (!src) return event.type;
      return event.type.startsWith('xstate.done.') ? `${src} ok` : `${src} ${(event.error as { status?: number }).status ?? 'unreachable'}`;
    })
    .join(', ');

/** What the panel must show and have done: written from the product's rules, not read from the machine. */
type Expected = {
  download: 'idle' | 'exporting';
  deletion: 'closed' | 'confirming' | 'deleting' | 'deleted';
  confirmText: string;
  exportFailure: string | null;
  deleteFailure: string | null;
  exports: number;
  /** The files handed to the browser. */
  saved: number;
  deletions: { confirm: string }[];
  signedOut: number;
};
const START: Expected = { download: 'idle', deletion: 'closed', confirmText: '', exportFailure: null, deleteFailure: null, exports: 0, saved: 0, deletions: [], signedOut: 0 };

const statusOf = (event: ModelEvent) => (event.error as { status?: number }).status;

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  const src = answers.srcOf(event);
  const done = event.type.startsWith('xstate.done.');
  // The download, whatever the dialog does.
  if (src === 'exportAccount') {
    if (before.download !== 'exporting') return before;
    if (done) return { ...before, download: 'idle', saved: before.saved + 1 };
    return { ...before, download: 'idle', exportFailure: EXPORT_FAILURES.find(([status]) => status === statusOf(event))![1] };
  }
  if (event.type === 'export') return before.download === 'idle' ? { ...before, download: 'exporting', exportFailure: null, exports: before.exports + 1 } : before;
  // The deletion.
  if (src === 'deleteAccount') {
    if (before.deletion !== 'deleting') return before;
    if (done) return { ...before, deletion: 'deleted', signedOut: before.signedOut + 1 };
    return { ...before, deletion: 'confirming', deleteFailure: DELETE_FAILURES.find(([status]) => status === statusOf(event))![1] };
  }
  // A dialog opened or cancelled starts from nothing typed; it cannot be cancelled while the deletion runs.
  if (event.type === 'delete.open') return before.deletion === 'closed' ? { ...before, deletion: 'confirming', confirmText: '', deleteFailure: null } : before;
  if (before.deletion !== 'confirming') return before;
  if (event.type === 'delete.cancel') return { ...before, deletion: 'closed', confirmText: '', deleteFailure: null };
  if (event.type === 'confirm.change') return { ...before, confirmText: event.value as string, deleteFailure: null };
  if (before.confirmText.trim() !== USERNAME) return { ...before, deleteFailure: 'account.data.mismatch' };
  return { ...before, deletion: 'deleting', deletions: [...before.deletions, { confirm: USERNAME }] };
};

const play = async (events: ModelEvent[]) => {
  const held = heldCalls();
  const saved: unknown[] = [];
  let signedOut = 0;
  const actor = createActor(
    accountDataMachine.provide({
      actors: { exportAccount: held.stub('exportAccount'), deleteAccount: held.stub('deleteAccount') },
      actions: { saveExport: (_, params) => void saved.push(params), accountDeleted: () => void (signedOut += 1) },
    }),
    { input: { username: USERNAME } },
  ).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.matches({ download: expected.download, deletion: expected.deletion }), `${after}: ${JSON.stringify(state.value)}`).toBe(true);
    expect(state.context, after).toEqual({
      username: USERNAME,
      confirmText: expected.confirmText,
      exportFailure: expected.exportFailure,
      deleteFailure: expected.deleteFailure,
    });
    expect(held.calls.filter((call) => call.src === 'exportAccount'), `${after}: downloads asked for`).toHaveLength(expected.exports);
    // the whole document, named for the account
    expect(saved, `${after}: files saved`).toEqual(Array.from({ length: expected.saved }, () => ({ data: DOCUMENT, username: USERNAME })));
    expect(held.calls.filter((call) => call.src === 'deleteAccount').map((call) => call.input), `${after}: deletions asked for`).toEqual(expected.deletions);
    expect(signedOut, `${after}: signed out`).toBe(expected.signedOut);
  };
  await playAgainstRules(events, { actor, held, answers, start: START, rules: EXPECTED_AFTER, check, describe: (event) => describePath([event]) });
};

describe('the account’s data, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    const regions = accountDataMachine.root.states;
    const declared = Object.keys(regions.download!.states).flatMap((download) =>
      Object.keys(regions.deletion!.states).map((deletion) => JSON.stringify({ download, deletion })),
    );
    expect([...reachedStates].sort()).toEqual(declared.sort());
    // Every place the panel can be in (both regions, what is typed, what each says failed) by the events it takes there.
    expect(transitionCount).toBe(298);
  });

  it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_name, path) => {
    // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(path.events);
  });
});
