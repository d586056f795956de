import { describe, expect, it } from 'vitest';
import { collectMachines } from '../../scripts/export-machines';

describe('machines:export', () => {
  it('finds every machine of src/machines and serialises each with its states', async () => {
    const machines = await collectMachines();
    expect([...machines.keys()]).toEqual(
      expect.arrayContaining(['app', 'chat', 'conversations', 'googleSignIn', 'operationsGuard', 'passwordLogin', 'toasts']),
    );
    for (const machine of machines.values()) {
      const json = JSON.parse(JSON.stringify(machine.toJSON())) as {
        id: string;
        states: Record<string, unknown>;
        on: Record<string, unknown>;
      };
      expect(json.id).toBe(machine.id);
      // A flat machine (the toast queue) has only root transitions; every other one has states.
      expect(Object.keys(json.states).length + Object.keys(json.on).length).toBeGreaterThan(0);
    }
    const chat = JSON.parse(JSON.stringify(machines.get('chat')!.toJSON())) as { states: Record<string, unknown> };
    expect(Object.keys(chat.states)).toEqual(
      expect.arrayContaining(['idle', 'creatingConversation', 'streaming', 'done', 'incomplete', 'failed', 'cancelled']),
    );
  });
});
