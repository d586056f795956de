/**
 * How long a refusal (429) asks to wait, from its Retry-After header: a number of seconds or an
 * HTTP date. Undefined when the header is absent or unreadable (a proxy's refusal, say).
 */
export const retryAfterSeconds = (header: string | null | undefined, now: number = Date.now()): number | undefined => {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
};
