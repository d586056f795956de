/** What a refused or failed call carries: its HTTP status (none when nothing answered) and the envelope's code. */
export type Refusal = { status?: number | undefined; code?: number | undefined };

export type RefusalKey =
  | 'unreachable'
  | 'badRequest'
  | 'unauthorized'
  | 'forbidden'
  | 'notFound'
  | 'conflict'
  | 'gone'
  | 'tooLarge'
  | 'tooMany'
  | 'storageFull'
  | 'server';

const BY_STATUS: Record<number, RefusalKey> = {
  400: 'badRequest',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'notFound',
  409: 'conflict',
  410: 'gone',
  413: 'tooLarge',
  429: 'tooMany',
  507: 'storageFull',
};

/**
 * The sentence a person reads for a refusal, chosen by its status, never by the server's English
 * words (which stay for the logs and other clients). No status: nothing answered.
 */
export const refusalKey = ({ status }: Refusal): `errors.refusal.${RefusalKey}` => {
  if (status === undefined || status === 0) return 'errors.refusal.unreachable';
  return `errors.refusal.${BY_STATUS[status] ?? 'server'}`;
};
