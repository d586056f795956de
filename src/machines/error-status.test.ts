import { expect, it } from 'vitest';
import { statusOf } from './error-status';

it.each<[string, unknown, number | undefined]>([
  ['an error with a status', Object.assign(new Error('x'), { status: 404 }), 404],
  ['an object with a status', { status: 500 }, 500],
  ['an error without one', new Error('x'), undefined],
  ['text', 'Not Found', undefined],
  ['a number', 404, undefined],
  ['null', null, undefined],
  ['nothing', undefined, undefined],
])('reads the status of %s', (_what, error, status) => {
  expect(statusOf(error)).toBe(status);
});
