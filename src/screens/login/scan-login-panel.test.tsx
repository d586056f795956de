import { screen } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../contract/endpoints';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { fail } from '../../../tests/msw/handlers';
import { server } from '../../../tests/msw/server';
import LoginScreen from './login-screen';

const desktop = { device: { mobile: false, wechat: false }, environment: 'prod' as const, scanPollIntervalMs: 40, miniProgram: null };

describe('the login page’s tabs', () => {
  it('are a keyboard-operable tablist: arrows, Home and End move and select, one tab stop', async () => {
    const view = await renderWithRuntime(<LoginScreen />, { url: '/login', wechat: desktop });
    const list = screen.getByRole('tablist', { name: 'Ways to log in' });
    const [password, scan] = screen.getAllByRole('tab');
    expect(list).toContainElement(password!);
    expect(password).toHaveAttribute('tabindex', '0');
    expect(scan).toHaveAttribute('tabindex', '-1');
    expect(screen.getByRole('tabpanel')).toHaveAttribute('id', password!.getAttribute('aria-controls'));

    password!.focus();
    await view.user.keyboard('{ArrowRight}');
    expect(scan).toHaveFocus();
    expect(scan).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByLabelText('Phone number or e-mail')).toBeNull();
    await view.user.keyboard('{Home}');
    expect(password).toHaveAttribute('aria-selected', 'true');
    await view.user.keyboard('{End}');
    expect(scan).toHaveAttribute('aria-selected', 'true');
    await view.user.keyboard('{ArrowRight}');
    expect(password).toHaveFocus();
  });
});

describe('the scan code tab', () => {
  it('says why when no code can be had, and gets one on refresh', async () => {
    let refuse = true;
    server.use(
      http.get(endpoints.wxRegisterLogin.path, () =>
        refuse ? fail(429, 'Too many scan codes requested. Please wait 42 seconds and try again.') : undefined,
      ),
    );
    const view = await renderWithRuntime(<LoginScreen />, { url: '/login', wechat: desktop });
    await view.user.click(screen.getByRole('tab', { name: 'Scan code' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not get a code');
    expect(alert).toHaveTextContent('Too many scan codes requested. Please wait 42 seconds and try again.');
    refuse = false;
    await view.user.click(screen.getByRole('button', { name: 'Refresh code' }));
    expect(await screen.findByRole('img', { name: 'QR code for logging in' })).toBeVisible();
  });

  it('shows the mini program’s deep link for this environment when there is a mini program', async () => {
    const view = await renderWithRuntime(<LoginScreen />, {
      url: '/login',
      wechat: { ...desktop, environment: 'qas', miniProgram: { appId: 'wxmini', path: 'pages/login/scan' } },
    });
    await view.user.click(screen.getByRole('tab', { name: 'Scan code' }));
    const link = await screen.findByRole('link', { name: 'Open the login link' });
    expect(link.getAttribute('href')).toMatch(/^weixin:\/\/dl\/business\/\?appid=wxmini&path=pages%2Flogin%2Fscan&query=scanid%3Dscan-\d+&env_version=trial$/);
  });
});
