/**
 * How many of one kind of work a key (an identity) may have running at once in this instance, and
 * how many more may wait for a turn; past both, `enter` answers null and the caller refuses.
 */
export type AtOnce = {
  /** Resolves with the function that ends the turn once one is free; null at once when the line is full. */
  enter(key: string): Promise<(() => void) | null>;
  /** Running and waiting, for one key; for tests and the operator. */
  load(key: string): { running: number; waiting: number };
};

export function createAtOnce(limits: { running: number; waiting: number }): AtOnce {
  const lines = new Map<string, { running: number; waiting: (() => void)[] }>();
  const leave = (key: string) => {
    const line = lines.get(key)!;
    const next = line.waiting.shift();
    if (next) next();
    else if (--line.running === 0) lines.delete(key);
  };
  const turn = (key: string) => {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      leave(key);
    };
  };
  return {
    async enter(key) {
      const line = lines.get(key) ?? { running: 0, waiting: [] };
      lines.set(key, line);
      if (line.running < limits.running) {
        line.running += 1;
        return turn(key);
      }
      if (line.waiting.length >= limits.waiting) return null;
      await new Promise<void>((resolve) => line.waiting.push(resolve));
      return turn(key);
    },
    load(key) {
      const line = lines.get(key);
      return { running: line?.running ?? 0, waiting: line?.waiting.length ?? 0 };
    },
  };
}
