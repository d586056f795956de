import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { renderWithRuntime } from '../../tests/spa/harness';
import LoginScreen from '../screens/login/login-screen';

describe('screen actors and the inspector', () => {
  it('reports the actors a screen starts, and their events, to the app’s inspector', async () => {
    const seen: InspectionEvent[] = [];
    const view = await renderWithRuntime(<LoginScreen />, { url: '/login', inspect: (event) => seen.push(event) });
    await view.user.type(await screen.findByLabelText('Phone number or e-mail'), 'a');
    const machineIds = new Set(
      seen.filter((event) => event.type === '@xstate.actor').map((event) => (event.actorRef as { logic?: { id?: string } }).logic?.id),
    );
    // the app's long-lived actors and the login screen's own
    expect([...machineIds]).toEqual(expect.arrayContaining(['app', 'passwordLogin', 'googleSignIn']));
    const typed = seen.find((event) => event.type === '@xstate.event' && event.event.type === 'field.change');
    expect(typed).toBeDefined();
  });
});
