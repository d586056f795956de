// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { VISITOR_COOKIE } from '../contract/cookie';
import { getVisitorId, resetVisitorId } from './visitor';

/** The cookies a request for one of the visitor's files carries. */
const fileCookies = () => {
  const cookies = new Map<string, string>();
  // document.cookie only lists the cookies of the page's own path: ask as the file route would.
  window.history.replaceState(null, '', '/api/media/file/some-file');
  for (const part of document.cookie.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name) cookies.set(name, value ?? '');
  }
  window.history.replaceState(null, '', '/');
  return cookies;
};

describe('the visitor id', () => {
  it('is kept in a cookie for the file route, so images and links fetch the visitor’s own files, and goes with a reset', () => {
    const id = getVisitorId();
    expect(fileCookies().get(VISITOR_COOKIE)).toBe(id);
    // no other request carries it
    expect(document.cookie).not.toContain(VISITOR_COOKIE);
    resetVisitorId();
    expect(fileCookies().has(VISITOR_COOKIE)).toBe(false);
    const next = getVisitorId();
    expect(next).not.toBe(id);
    expect(fileCookies().get(VISITOR_COOKIE)).toBe(next);
  });
});
