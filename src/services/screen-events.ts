/**
 * The screen event store: one screen signals (for example `updateChatList` after an answer
 * ends) and another, mounted elsewhere, consumes it.
 */
export type ScreenEventName = 'updateChatList' | 'toggleHistory' | 'showHistory';

type Listener = () => void;

export const createScreenEvents = () => {
  const listeners = new Map<ScreenEventName, Set<Listener>>();
  return {
    emit(name: ScreenEventName): void {
      for (const listener of listeners.get(name) ?? []) listener();
    },
    on(name: ScreenEventName, listener: Listener): () => void {
      const set = listeners.get(name) ?? new Set<Listener>();
      set.add(listener);
      listeners.set(name, set);
      return () => set.delete(listener);
    },
  };
};

export type ScreenEvents = ReturnType<typeof createScreenEvents>;
