import { randomInt } from 'node:crypto';

// No 0/O or 1/I: a person reads the reference out to support.
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** A short reference such as `7F3K-92QA`, shown to the person and written beside the details in the log. */
export function newReference(): string {
  const pick = () => ALPHABET[randomInt(ALPHABET.length)];
  return Array.from({ length: 9 }, (_, i) => (i === 4 ? '-' : pick())).join('');
}
