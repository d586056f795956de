import type { ServerConfig } from './config';

const row = (method: string, state: string) => `    ${method.padEnd(14)}${state}`;

function wechatState(config: ServerConfig, host: string): string {
  const wechat = config.wechat;
  if (wechat.mode === 'official') return `on, official account ${wechat.appId}`;
  if (wechat.mode === 'simulator') return 'on, SIMULATOR';
  if (wechat.reason === 'reachable') {
    return `off: other machines reach this server (listening on ${host}) and it has no WeChat app; the simulator runs only where nobody else can reach it, or with WECHAT_SIMULATOR=on`;
  }
  return 'off (WECHAT_SIMULATOR=off)';
}

function miniProgramState(config: ServerConfig): string {
  const wechat = config.wechat;
  if (wechat.mode === 'simulator') return 'on, SIMULATOR (its consent codes stand in for wx.login())';
  if (wechat.mode === 'official' && wechat.miniProgram) return `on, app ${wechat.miniProgram.appId}`;
  return 'off';
}

/**
 * What an operator reads at start: which sign-in methods are on, and a loud warning while the
 * WeChat simulator runs, since it lets anyone who reaches the server sign in without a secret.
 */
export function signInSummary(config: ServerConfig, host: string): string[] {
  const lines = [
    '  sign-in:',
    row('password', 'on'),
    row('WeChat', wechatState(config, host)),
    row('mini program', miniProgramState(config)),
    row('Google', config.google ? `on, client ${config.google.clientId}` : 'off'),
  ];
  if (config.wechat.mode === 'simulator') {
    lines.push(
      '  !! The WeChat simulator is for trying the product, NOT for production: anyone who can open',
      '     this server signs in as any WeChat user they name. Set WECHAT_APP_ID and WECHAT_APP_SECRET,',
      '     or WECHAT_SIMULATOR=off.',
    );
  }
  return lines;
}
