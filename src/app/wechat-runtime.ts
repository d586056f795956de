import { createActor, fromPromise, type ActorRefFrom, type InspectionEvent, type Observer } from 'xstate';
import type { UserInfo } from '../contract/users';
import { i18n } from '../i18n';
import { isSignedIn, type appMachine } from '../machines/app.machine';
import { scanLoginMachine, type ScanLoginInput } from '../machines/scan-login.machine';
import type { ToastInput } from '../machines/toast.machine';
import { wechatLoginMachine, type Notice } from '../machines/wechat-login.machine';
import { getWxConfig, loginWithWxCode, openScanTicket, validateScanLogin } from '../services/api/wechat';
import { detectDevice, environmentFromHost, type Device, type Environment } from '../services/env';
import { scanApprovalPath } from '../services/redirect';
import { getScanFingerPrint } from '../services/scan-fingerprint';
import { addressAfterWechatSignIn, pageUrlForSignature, type MiniProgram } from '../services/wechat-links';

const OAUTH_STATE_KEY = 'ai-chat-ops:wechat-oauth-state';

export type WechatRuntimeOptions = {
  /** Default: detected from the browser's user agent and width. */
  device?: Device;
  /** Default: from the host name. */
  environment?: Environment;
  /** Leaves the page for WeChat's authorisation; default `location.assign`. */
  redirect?: (url: string) => void;
  scanPollIntervalMs?: number;
  /** Default: VITE_WECHAT_MINIPROGRAM_APPID (and _PATH) of the build, if set. */
  miniProgram?: MiniProgram | null;
};

type Wiring = WechatRuntimeOptions & {
  app: ActorRefFrom<typeof appMachine>;
  navigate: (to: string, options?: { replace?: boolean }) => void;
  toast: (input: ToastInput) => void;
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
};

const readState = (): string | null => {
  try {
    return localStorage.getItem(OAUTH_STATE_KEY);
  } catch {
    return null;
  }
};
const writeState = (state: string): void => {
  try {
    localStorage.setItem(OAUTH_STATE_KEY, state);
  } catch {
    // without storage the return cannot be recognised: the next attempt starts over
  }
};

const removeState = (): void => {
  try {
    localStorage.removeItem(OAUTH_STATE_KEY);
  } catch {
    // see writeState
  }
};

const buildMiniProgram = (): MiniProgram | null => {
  const appId = import.meta.env.VITE_WECHAT_MINIPROGRAM_APPID as string | undefined;
  return appId ? { appId, path: (import.meta.env.VITE_WECHAT_MINIPROGRAM_PATH as string | undefined) ?? 'pages/index/index' } : null;
};

const noticeToast = (notice: Notice): ToastInput => ({
  title: i18n.t('wechatLogin.failedTitle'),
  description: notice.msg,
  variant: 'destructive',
});

/**
 * The WeChat and scan-login actors with their real side effects: the login-state actor runs for
 * the whole visit and follows the app's session; scan login is started by the screen that shows
 * the QR code (and stopped with it).
 */
export const createWechatActors = ({ app, navigate, toast, inspect, ...options }: Wiring) => {
  const device = options.device ?? detectDevice(navigator.userAgent, window.innerWidth);
  const environment = options.environment ?? environmentFromHost(location.hostname);
  const redirect = options.redirect ?? ((url: string) => location.assign(url));
  const miniProgram = options.miniProgram === undefined ? buildMiniProgram() : options.miniProgram;
  const signIn = (token: string, user: UserInfo) => app.send({ type: 'session.signedIn', token, user });

  const wechatLogin = createActor(
    wechatLoginMachine.provide({
      actors: {
        fetchConfig: fromPromise(({ input }) => getWxConfig(pageUrlForSignature(input.href), { silent: true })),
        exchangeCode: fromPromise(({ input }) => loginWithWxCode(input.code, { silent: true })),
      },
      actions: {
        signedIn: (_, result) => signIn(result.token, result.userInfo),
        redirect: (_, { url }) => redirect(url),
        rememberState: (_, { state }) => writeState(state),
        forgetState: () => removeState(),
        leaveSignInAddress: (_, { href }) => navigate(addressAfterWechatSignIn(href), { replace: true }),
        openApproval: (_, { scanId }) => navigate(scanApprovalPath(scanId), { replace: true }),
        notify: (_, notice) => toast(noticeToast(notice)),
      },
    }),
    {
      inspect,
      systemId: 'wechatLogin',
      input: { device, href: location.href, savedState: readState(), nonce: crypto.randomUUID().replace(/-/g, '') },
    },
  );

  // The login state follows the session the app settled on.
  let lastSession: 'session.signedIn' | 'session.visitor' | null = null;
  const followSession = (state: ReturnType<typeof app.getSnapshot>) => {
    const session = isSignedIn(state) ? 'session.signedIn' : state.matches({ loaded: 'visitor' }) ? 'session.visitor' : null;
    if (!session || session === lastSession) return;
    lastSession = session;
    wechatLogin.send({ type: session });
  };
  app.subscribe(followSession);
  // Created after the session settled (the login page opened later): start from where it is.
  queueMicrotask(() => followSession(app.getSnapshot()));

  const scanLogin = {
    logic: scanLoginMachine.provide({
      actors: {
        openTicket: fromPromise(({ input }) => openScanTicket(input.fingerPrint, { silent: true })),
        checkTicket: fromPromise(({ input }) => validateScanLogin(input.id, input.fingerPrint, { silent: true })),
      },
      actions: {
        signedIn: (_, result) => signIn(result.token, result.userInfo),
        leave: (_, { to }) => navigate(to, { replace: true }),
      },
    }),
    input: (returnTo: string): ScanLoginInput => ({
      fingerPrint: getScanFingerPrint(),
      origin: location.origin,
      environment,
      miniProgram,
      returnTo,
      ...(options.scanPollIntervalMs ? { pollIntervalMs: options.scanPollIntervalMs } : {}),
    }),
  };

  return { wechatLogin, scanLogin };
};
