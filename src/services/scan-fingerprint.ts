const FINGERPRINT_KEY = 'ai-chat-ops:scan-fingerprint';

/**
 * This browser's secret for scan login: the ticket id is on screen in the QR code, so collecting
 * the login also takes this random id, which never leaves the browser except to the server.
 */
export const getScanFingerPrint = (): string => {
  try {
    const saved = localStorage.getItem(FINGERPRINT_KEY);
    if (saved && /^[0-9a-f-]{36}$/.test(saved)) return saved;
    const fresh = crypto.randomUUID();
    localStorage.setItem(FINGERPRINT_KEY, fresh);
    return fresh;
  } catch {
    return crypto.randomUUID();
  }
};
