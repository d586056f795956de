import type { ServerConfig } from '../config';
import type { Owner } from '../http/caller';
import { addressLimitKey } from '../http/client-address';
import type { Quota } from './quotas';

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

const who = (owner: Owner) => (owner.userId !== undefined ? `user:${owner.userId}` : `visitor:${owner.visitorId}`);
const whoReads = (owner: Owner) => (owner.userId !== undefined ? 'a signed-in user' : 'a visitor');
const quotasOf = (config: ServerConfig, owner: Owner) => (owner.userId !== undefined ? config.userQuotas : config.visitorQuotas);
const megabytes = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;

// Only visitors count against their address: a visitor id is made up by the client and can be
// changed at every request, an account cannot; and an office of signed-in colleagues shares one.
// An IPv6 address counts by its /64 network, which its host can change addresses within at will.

/** What one question costs: one against the asker's minute and day, and their address's if a visitor. */
export function questionQuotas(config: ServerConfig, owner: Owner, address: string): Quota[] {
  const mine = quotasOf(config, owner);
  const quotas: Quota[] = [
    { key: `questions:minute:${who(owner)}`, limit: mine.questionsPerMinute, windowMs: MINUTE, name: `${mine.questionsPerMinute} questions a minute for ${whoReads(owner)}` },
    { key: `questions:day:${who(owner)}`, limit: mine.questionsPerDay, windowMs: DAY, name: `${mine.questionsPerDay} questions a day for ${whoReads(owner)}` },
  ];
  if (owner.visitorId === undefined) return quotas;
  const here = config.addressQuotas;
  const from = addressLimitKey(address);
  return [
    ...quotas,
    { key: `questions:minute:address:${from}`, limit: here.questionsPerMinute, windowMs: MINUTE, name: `${here.questionsPerMinute} questions a minute from one address` },
    { key: `questions:day:address:${from}`, limit: here.questionsPerDay, windowMs: DAY, name: `${here.questionsPerDay} questions a day from one address` },
  ];
}

/** What starting a conversation costs: one against the starter's minute and day, and their address's if a visitor. */
export function conversationQuotas(config: ServerConfig, owner: Owner, address: string): Quota[] {
  const mine = quotasOf(config, owner);
  const quotas: Quota[] = [
    { key: `conversations:minute:${who(owner)}`, limit: mine.conversationsPerMinute, windowMs: MINUTE, name: `${mine.conversationsPerMinute} new conversations a minute for ${whoReads(owner)}` },
    { key: `conversations:day:${who(owner)}`, limit: mine.conversationsPerDay, windowMs: DAY, name: `${mine.conversationsPerDay} new conversations a day for ${whoReads(owner)}` },
  ];
  if (owner.visitorId === undefined) return quotas;
  const here = config.addressQuotas;
  const from = addressLimitKey(address);
  return [
    ...quotas,
    { key: `conversations:minute:address:${from}`, limit: here.conversationsPerMinute, windowMs: MINUTE, name: `${here.conversationsPerMinute} new conversations a minute from one address` },
    { key: `conversations:day:address:${from}`, limit: here.conversationsPerDay, windowMs: DAY, name: `${here.conversationsPerDay} new conversations a day from one address` },
  ];
}

/** What a share link costs: one against its owner's minute and day (only accounts share). */
export function shareQuotas(config: ServerConfig, owner: Owner): Quota[] {
  const mine = quotasOf(config, owner);
  return [
    { key: `shares:minute:${who(owner)}`, limit: mine.sharesPerMinute, windowMs: MINUTE, name: `${mine.sharesPerMinute} new share links a minute for ${whoReads(owner)}` },
    { key: `shares:day:${who(owner)}`, limit: mine.sharesPerDay, windowMs: DAY, name: `${mine.sharesPerDay} new share links a day for ${whoReads(owner)}` },
  ];
}

/** What an upload costs, in bytes: against the uploader's day, and their address's if a visitor. */
export function uploadQuotas(config: ServerConfig, owner: Owner, address: string): Quota[] {
  const perDay = quotasOf(config, owner).uploadBytesPerDay;
  const quotas: Quota[] = [
    { key: `upload-bytes:day:${who(owner)}`, limit: perDay, windowMs: DAY, name: `${megabytes(perDay)} of uploads a day for ${whoReads(owner)}` },
  ];
  if (owner.visitorId === undefined) return quotas;
  const here = config.addressQuotas.uploadBytesPerDay;
  return [...quotas, { key: `upload-bytes:day:address:${addressLimitKey(address)}`, limit: here, windowMs: DAY, name: `${megabytes(here)} of uploads a day from one address` }];
}

/** How much one identity may keep stored, with how a person reads it. */
export function storedBytesLimit(config: ServerConfig, owner: Owner): { limit: number; name: string } {
  const limit = quotasOf(config, owner).storedBytes;
  return { limit, name: `${megabytes(limit)} of stored files for ${whoReads(owner)}` };
}

/** The advisory lock that makes one identity's check-then-insert happen one at a time. */
export const identityLockKey = (purpose: string, owner: Owner) => `${purpose}:${who(owner)}`;
