import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { InvitationPreview, SignupPolicy } from '../contract/accounts';
import type { LoginOptions } from '../contract/auth';
import { loginPageMachine } from './login-page.machine';

type Invitation = 'none' | 'valid' | 'used' | 'unknown';
const PREVIEW: InvitationPreview = { companyName: 'Acme Bakery', role: 'operator', expiresAt: '2030-01-01T00:00:00.000Z' };
const refusal = (status: number) => Object.assign(new Error(`status ${status}`), { status });

const openPage = async (policy: SignupPolicy | 'no options call', invitation: Invitation, resetByMail = false) => {
  const actor = createActor(
    loginPageMachine.provide({
      actors: {
        loadOptions: fromPromise<LoginOptions>(async () => {
          if (policy === 'no options call') throw refusal(404);
          return { google: false, signup: policy, resetByMail };
        }),
        previewInvitation: fromPromise(async () => {
          if (invitation === 'used') throw refusal(410);
          if (invitation === 'unknown') throw refusal(404);
          return PREVIEW;
        }),
      },
    }),
    { input: { invitation: invitation === 'none' ? null : 'invite-token-0123456789abcdef' } },
  ).start();
  return waitFor(actor, (state) => state.matches('ready'));
};

/**
 * Who may make an account (the product's rule, as the server applies it): anyone when sign-up is
 * open; with a valid invitation when it is by invitation; nobody when it is closed. Someone who
 * holds a valid invitation and may make an account is shown the sign-up form first.
 */
const RULES: [SignupPolicy | 'no options call', Invitation, { first: 'login' | 'signup'; signupOffered: boolean; failure: string | null }][] = [
  ['open', 'none', { first: 'login', signupOffered: true, failure: null }],
  ['open', 'valid', { first: 'signup', signupOffered: true, failure: null }],
  ['open', 'used', { first: 'login', signupOffered: true, failure: 'login.links.gone' }],
  ['invite', 'none', { first: 'login', signupOffered: false, failure: null }],
  ['invite', 'valid', { first: 'signup', signupOffered: true, failure: null }],
  ['invite', 'used', { first: 'login', signupOffered: false, failure: 'login.links.gone' }],
  ['invite', 'unknown', { first: 'login', signupOffered: false, failure: 'login.links.unknown' }],
  ['closed', 'none', { first: 'login', signupOffered: false, failure: null }],
  ['closed', 'valid', { first: 'login', signupOffered: false, failure: null }],
  ['no options call', 'none', { first: 'login', signupOffered: false, failure: null }],
];

describe('the login page decides what it offers', () => {
  it.each(RULES)('sign-up %s, invitation %s', async (policy, invitation, expected) => {
    const state = await openPage(policy, invitation);
    expect(state.context.mode).toBe(expected.first);
    expect(state.can({ type: 'mode.signup' })).toBe(expected.signupOffered);
    expect(state.context.invitationFailure).toBe(expected.failure);
    // only a valid invitation can be accepted
    expect(state.can({ type: 'accept' })).toBe(invitation === 'valid');
  });

  it('offers the reset link by mail only when the server sends mail', async () => {
    expect((await openPage('closed', 'none', true)).can({ type: 'mode.forgot' })).toBe(true);
    expect((await openPage('closed', 'none', false)).can({ type: 'mode.forgot' })).toBe(false);
  });
});
