import { useRuntime } from '../../app/runtime-context';
import { createWechatActors } from '../../app/wechat-runtime';

/** The WeChat login-state and scan-login actors, attached to the runtime when the login page first needs them. */
export const useWechatActors = () => useRuntime().attachWechat(createWechatActors);
