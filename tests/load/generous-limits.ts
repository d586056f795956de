import type { ServerConfig } from '../../server/config';

const PLENTY = 1_000_000;
const PLENTY_BYTES = 1024 ** 4;

/**
 * Quotas for servers that tests and measurements drive hard: hundreds of streams from 127.0.0.1,
 * as many made-up visitors, in seconds. Far past the public defaults on purpose; the defaults
 * themselves are proven by server/test/quotas.test.ts and server/test/abuse.test.ts.
 */
const PLENTY_CREATED = { conversationsPerMinute: PLENTY, conversationsPerDay: PLENTY };

export const generousLimits = {
  visitorQuotas: { questionsPerMinute: PLENTY, questionsPerDay: PLENTY, uploadBytesPerDay: PLENTY_BYTES, storedBytes: PLENTY_BYTES, ...PLENTY_CREATED, sharesPerMinute: PLENTY, sharesPerDay: PLENTY },
  userQuotas: { questionsPerMinute: PLENTY, questionsPerDay: PLENTY, uploadBytesPerDay: PLENTY_BYTES, storedBytes: PLENTY_BYTES, ...PLENTY_CREATED, sharesPerMinute: PLENTY, sharesPerDay: PLENTY },
  addressQuotas: { questionsPerMinute: PLENTY, questionsPerDay: PLENTY, uploadBytesPerDay: PLENTY_BYTES, ...PLENTY_CREATED },
  streamingAnswersPerIdentity: PLENTY,
} satisfies Partial<ServerConfig>;
