/**
 * Runs `next` in a task of its own, after the page has had the thread back (a message, which
 * timers faked in tests leave alone).
 */
export const nextTask = (next: () => void): void => {
  if (typeof MessageChannel !== 'function') return void setTimeout(next, 0);
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    next();
  };
  channel.port2.postMessage(null);
};
