const VISITOR_KEY = 'ai-chat-ops:visitor-id';

/**
 * A visitor who is not logged in still owns their conversations: a random id kept in this
 * browser and sent as `X-Visitor-Id`. Logging in hands those conversations to the account.
 */
export const getVisitorId = (): string => {
  try {
    const saved = localStorage.getItem(VISITOR_KEY);
    if (saved && /^[0-9a-f-]{36}$/.test(saved)) return saved;
    const fresh = crypto.randomUUID();
    localStorage.setItem(VISITOR_KEY, fresh);
    return fresh;
  } catch {
    return crypto.randomUUID();
  }
};

/** After logout the old visitor's conversations belong to the account: start a new visitor. */
export const resetVisitorId = (): void => {
  try {
    localStorage.removeItem(VISITOR_KEY);
  } catch {
    // nothing stored, nothing to forget
  }
};
