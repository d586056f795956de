import type { ActorOptions, AnyActorLogic, InspectionEvent, Observer } from 'xstate';
import type { WechatRuntimeOptions } from './wechat-runtime';

/** What the app is started with: kept apart from the runtime, so the parts it loads later can name them without importing it. */
export type Navigate = (to: string, options?: { replace?: boolean }) => void;

export type RuntimeOptions = {
  navigate: Navigate;
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  /** Device, environment and the page-leaving redirect of the WeChat flows (tests set them). */
  wechat?: WechatRuntimeOptions;
  /** Leaves the app for another site (Google's consent page); default `location.assign`. */
  leavePage?: (url: string) => void;
  /** What the chat's waits (reading a lost answer again) are timed by; tests pass a simulated clock. */
  chatClock?: ActorOptions<AnyActorLogic>['clock'];
};
