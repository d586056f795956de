/**
 * Joins the text of an answer into fewer, larger delta events for one reader. Text waits at most
 * `waitMs` after it arrives; while a write is under way (the reader's socket is full) it waits
 * for that write instead, however long, and then goes out at once as one event. Nothing is
 * reordered or dropped: `flush` sends what waits before the caller sends anything else.
 */
export function deltaBatcher(send: (text: string) => Promise<unknown>, waitMs: number) {
  let pending = '';
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing = false;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!pending) return;
    const text = pending;
    pending = '';
    writing = true;
    void send(text).finally(() => {
      writing = false;
      // Text that came while the socket was busy has waited long enough.
      if (pending && !timer) flush();
    });
  };

  return {
    add(text: string) {
      if (!text) return;
      pending += text;
      if (!timer && !writing) timer = setTimeout(flush, waitMs);
    },
    flush,
  };
}
